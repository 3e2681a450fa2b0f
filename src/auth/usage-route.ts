/**
 * GET /v1/usage (CONTRACT.md §2, §4): the caller's counts per service this month, the limits and
 * the reset time. Needs a key in every mode; with AUTH_MODE=off there are no keys and nothing is
 * counted, so it answers 401.
 */
import { Type } from '@sinclair/typebox';
import { PLAN_NAMES } from '../config.ts';
import { createError } from '../errors.ts';
import { SERVICE_IDS, type RouteDef, type ServiceId } from '../server/types.ts';
import type { QuotaGatekeeper } from './gatekeeper.ts';

const ServiceUsage = Type.Object({
  included: Type.Boolean({ description: 'true: the plan includes the service (limit and remaining are the pooled allowance); false: its free tier' }),
  used: Type.Integer({ minimum: 0, description: 'Requests to this service counted this month' }),
  limit: Type.Integer({ minimum: 0 }),
  remaining: Type.Integer({ minimum: 0 }),
});

export const UsageResponse = Type.Object({
  tenant: Type.String(),
  key_id: Type.String({ description: 'Public id of the key (first 16 hex digits of its SHA-256)' }),
  plan: Type.Union(PLAN_NAMES.map((p) => Type.Literal(p))),
  period: Type.String({ description: 'UTC calendar month, YYYY-MM', examples: ['2026-11'] }),
  reset_at: Type.String({ format: 'date-time', description: 'Start of the next UTC month' }),
  reset_in_s: Type.Integer({ minimum: 1 }),
  plan_allowance: Type.Union([
    Type.Object({
      services: Type.Array(Type.String()),
      limit: Type.Integer({ minimum: 0 }),
      used: Type.Integer({ minimum: 0 }),
      remaining: Type.Integer({ minimum: 0 }),
    }),
    Type.Null(),
  ]),
  services: Type.Object(Object.fromEntries(SERVICE_IDS.map((id) => [id, ServiceUsage])) as Record<ServiceId, typeof ServiceUsage>),
});

export function usageRoute(gatekeeper: QuotaGatekeeper | null): RouteDef {
  return {
    method: 'GET',
    paths: ['/v1/usage'],
    requiresKey: true,
    summary: "The caller's usage this month: counts per service, limits and reset time",
    tags: ['Gateway'],
    response: UsageResponse,
    errors: ['UNAUTHORIZED'],
    handler: (ctx) => {
      if (gatekeeper === null) throw createError('UNAUTHORIZED', 'AUTH_MODE is off: there are no keys and nothing is counted');
      return gatekeeper.usage(ctx.principal) as unknown as Promise<Record<string, unknown>>;
    },
  };
}
