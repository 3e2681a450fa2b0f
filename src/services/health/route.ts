/**
 * GET /v1/health (CONTRACT.md §6): liveness plus the compliance flags. `status` is `degraded`
 * when a service is not up or uWS runs on its slow pure-JS fallback.
 */
import { Type } from '@sinclair/typebox';
import { SERVICE_IDS, type RouteDef, type ServiceId } from '../../server/types.ts';
import type { ServiceHealth } from '../types.ts';

export const HEALTH_LABEL = '[GATEWAY] Health';

export interface HealthSources {
  readonly version: string;
  readonly startedAt: number;
  readonly services: () => Partial<Record<ServiceId, ServiceHealth>>;
  readonly workers: () => { threads: number; queued: number };
  readonly uwsNative: boolean;
  readonly fetchAllowPrivate: boolean;
}

const Status = Type.Union([Type.Literal('up'), Type.Literal('degraded'), Type.Literal('down')]);

export const HealthResponse = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  version: Type.String(),
  uptime_s: Type.Number({ minimum: 0 }),
  services: Type.Object(Object.fromEntries(SERVICE_IDS.map((id) => [id, Status])) as Record<ServiceId, typeof Status>),
  workers: Type.Object({ threads: Type.Integer({ minimum: 0 }), queued: Type.Integer({ minimum: 0 }) }),
  compliance: Type.Object({
    zero_retention: Type.Boolean(),
    pii_in_logs: Type.Boolean(),
    dora_article_30: Type.Boolean(),
    fetch_allow_private: Type.Boolean(),
  }),
  server: Type.Object({
    engine: Type.String({ description: 'uWebSockets.js build that serves' }),
    native: Type.Boolean({ description: 'false = the slow pure-JS fallback (Node other than 20): expect far lower throughput' }),
  }),
});

export function healthRoute(sources: HealthSources): RouteDef {
  return {
    method: 'GET',
    paths: ['/v1/health'],
    api: HEALTH_LABEL,
    summary: 'Liveness, service status and compliance flags',
    response: HealthResponse,
    handler: () => {
      const registered = sources.services();
      const services = {} as Record<ServiceId, ServiceHealth>;
      let allUp = sources.uwsNative;
      for (const id of SERVICE_IDS) {
        const s = registered[id] ?? 'down';
        services[id] = s;
        if (s !== 'up') allUp = false;
      }
      const w = sources.workers();
      return {
        status: allUp ? 'ok' : 'degraded',
        version: sources.version,
        uptime_s: Math.round((performance.now() - sources.startedAt) / 10) / 100,
        services,
        workers: { threads: w.threads, queued: w.queued },
        compliance: {
          zero_retention: true,
          pii_in_logs: false,
          dora_article_30: true,
          fetch_allow_private: sources.fetchAllowPrivate,
        },
        server: { engine: 'uWebSockets.js v20.30', native: sources.uwsNative },
      };
    },
  };
}
