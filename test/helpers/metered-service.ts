/**
 * Test services for keys and quotas: one POST route per service id (`/test/api-138`, ...) that
 * is metered like the real service, echoes the principal, and can fail on demand:
 * `{"fail": "client"}` -> 400 VALIDATION_FAILED thrown by the handler (not counted),
 * `{"fail": "server"}` -> 502 UPSTREAM_FAILED (counted), `{"delay_ms": n}` waits first.
 */
import { Type } from '@sinclair/typebox';
import { createError } from '../../src/errors.ts';
import { SERVICE_IDS, type RouteDef, type ServiceId } from '../../src/server/types.ts';
import type { ServiceFactory } from '../../src/services/types.ts';

export const meteredPath = (service: ServiceId): string => `/test/${service.toLowerCase()}`;

const Body = Type.Object({
  fail: Type.Optional(Type.Union([Type.Literal('client'), Type.Literal('server')])),
  delay_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 5000 })),
  n: Type.Optional(Type.Integer({ minimum: 0 })),
});

export function meteredFactory(services: readonly ServiceId[] = SERVICE_IDS): ServiceFactory {
  return () => ({
    routes: services.map((service) => meteredRoute(service)),
  });
}

function meteredRoute(service: ServiceId): RouteDef {
  const route: RouteDef<typeof Body> = {
    method: 'POST',
    paths: [meteredPath(service)],
    api: `[TEST] Metered ${service}`,
    service,
    summary: `Metered test route for ${service}`,
    body: Body,
    handler: async (ctx) => {
      if (ctx.body.delay_ms) await new Promise((r) => setTimeout(r, ctx.body.delay_ms));
      if (ctx.body.fail === 'client') throw createError('VALIDATION_FAILED', 'asked to fail', { details: [{ path: '/fail', message: 'asked to fail' }] });
      if (ctx.body.fail === 'server') throw createError('UPSTREAM_FAILED');
      return { tenant: ctx.principal.tenantId, plan: ctx.principal.plan, anonymous: ctx.principal.anonymous };
    },
  };
  return route as unknown as RouteDef;
}
