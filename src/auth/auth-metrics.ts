/**
 * Prometheus metrics of keys and quotas, on the gateway's registry. Labels are plan names
 * (`anonymous` for callers without a key), service ids and outcomes: never a key, key id,
 * tenant id or address, so a caller cannot mint label values.
 */
import client from 'prom-client';

export type QuotaOutcome = 'admitted' | 'refunded' | 'quota_exceeded' | 'forbidden' | 'rate_limited' | 'store_unavailable';
export type AuthFailure = 'missing_key' | 'unknown_key';

export interface AuthMetrics {
  decision(plan: string, service: string, outcome: QuotaOutcome): void;
  authFailure(reason: AuthFailure): void;
  activeKeys(n: number): void;
  snapshotWrite(ok: boolean): void;
}

export function createAuthMetrics(registry: client.Registry): AuthMetrics {
  const decisions = new client.Counter({
    name: 'gateway_quota_decisions_total',
    help: 'Metered requests by plan (anonymous = no key), service and outcome; refunded = a 4xx gave the unit back',
    labelNames: ['plan', 'service', 'outcome'] as const,
    registers: [registry],
  });
  const failures = new client.Counter({
    name: 'gateway_auth_failures_total',
    help: 'Requests refused with 401, by reason',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const keys = new client.Gauge({ name: 'gateway_api_keys_active', help: 'Active (not revoked) API keys loaded from API_KEYS_FILE', registers: [registry] });
  const snapshots = new client.Counter({
    name: 'gateway_usage_snapshot_writes_total',
    help: 'Usage snapshot writes by result',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  // Children cached per label set: prom-client hashes the labels on every call otherwise.
  const children = new Map<string, client.Counter.Internal>();
  return {
    decision(plan, service, outcome) {
      const k = `${plan}\u0000${service}\u0000${outcome}`;
      let c = children.get(k);
      if (c === undefined) {
        c = decisions.labels(plan, service, outcome);
        children.set(k, c);
      }
      c.inc();
    },
    authFailure(reason) {
      failures.labels(reason).inc();
    },
    activeKeys(n) {
      keys.set(n);
    },
    snapshotWrite(ok) {
      snapshots.labels(ok ? 'ok' : 'failed').inc();
    },
  };
}
