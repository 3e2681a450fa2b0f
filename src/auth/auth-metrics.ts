/**
 * Prometheus metrics of keys and quotas, on the gateway's registry. Labels are plan names
 * (`anonymous` for callers without a key), service ids and outcomes: never a key, key id,
 * tenant id or address, so a caller cannot mint label values.
 *
 * Hot path: a decision is one increment in a Float64Array indexed by (plan, service, outcome);
 * prom-client's counter is filled from it when /metrics is scraped (a labelled `inc` would hash
 * the label set on every request).
 */
import client from 'prom-client';
import { PLAN_NAMES } from '../config.ts';
import { SERVICE_IDS } from '../server/types.ts';

export const QUOTA_OUTCOMES = ['admitted', 'refunded', 'quota_exceeded', 'forbidden', 'rate_limited', 'store_unavailable'] as const;
export type QuotaOutcome = (typeof QUOTA_OUTCOMES)[number];
export type AuthFailure = 'missing_key' | 'unknown_key';

const PLAN_LABELS = [...PLAN_NAMES, 'anonymous'] as const;

export interface AuthMetrics {
  decision(plan: string, service: string, outcome: QuotaOutcome): void;
  authFailure(reason: AuthFailure): void;
  activeKeys(n: number): void;
  snapshotWrite(ok: boolean): void;
}

export function createAuthMetrics(registry: client.Registry): AuthMetrics {
  const planIndex = new Map<string, number>(PLAN_LABELS.map((p, i) => [p, i]));
  const serviceIndex = new Map<string, number>(SERVICE_IDS.map((s, i) => [s, i]));
  const outcomeIndex = new Map<string, number>(QUOTA_OUTCOMES.map((o, i) => [o, i]));
  const nS = SERVICE_IDS.length;
  const nO = QUOTA_OUTCOMES.length;
  const counts = new Float64Array(PLAN_LABELS.length * nS * nO);
  new client.Counter({
    name: 'gateway_quota_decisions_total',
    help: 'Metered requests by plan (anonymous = no key), service and outcome; refunded = a 4xx gave the unit back',
    labelNames: ['plan', 'service', 'outcome'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (let i = 0; i < counts.length; i++) {
        if (counts[i] === 0) continue;
        const o = i % nO;
        const s = Math.floor(i / nO) % nS;
        const p = Math.floor(i / (nO * nS));
        this.inc({ plan: PLAN_LABELS[p]!, service: SERVICE_IDS[s]!, outcome: QUOTA_OUTCOMES[o]! }, counts[i]!);
      }
    },
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
  return {
    decision(plan, service, outcome) {
      const p = planIndex.get(plan);
      const s = serviceIndex.get(service);
      const o = outcomeIndex.get(outcome);
      if (p === undefined || s === undefined || o === undefined) return;
      counts[(p * nS + s) * nO + o]! += 1;
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
