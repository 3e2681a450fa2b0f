/**
 * What keys + quotas add to one metered request, in-process (tinybench, same run): the gatekeeper
 * path the adapter takes (authenticate from headers -> admit -> settle) with AUTH_MODE=required
 * and a valid key, against OPEN_GATEKEEPER (AUTH_MODE=off). Also anonymous callers (optional
 * mode) and an unknown key. Checks correctness with console.assert before timing.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import client from 'prom-client';
import { createAuthMetrics } from '../../src/auth/auth-metrics.ts';
import { QuotaGatekeeper } from '../../src/auth/gatekeeper.ts';
import { KeyStore } from '../../src/auth/key-store.ts';
import { generateKey, hashKeyHex, writeFileAtomic } from '../../src/auth/keys-file.ts';
import { buildPlans, PLAN_TABLE } from '../../src/auth/plans.ts';
import { TokenBucketLimiter } from '../../src/auth/rate-limiter.ts';
import { MemoryUsageStore } from '../../src/auth/usage-store.ts';
import { parseRateLimit } from '../../src/config.ts';
import { OPEN_GATEKEEPER, type Admission, type Gatekeeper, type RouteDef } from '../../src/server/types.ts';
import { Bench } from 'tinybench';
import { printReport } from '../lib/harness.ts';

const file = path.join(mkdtempSync(path.join(tmpdir(), 'bench-gk-')), 'keys.json');
const key = generateKey();
const sha256 = hashKeyHex(key);
// 1,000 keys in the table, as in a busy deployment; the one we use is among them.
const others = Array.from({ length: 999 }, () => ({ sha256: hashKeyHex(generateKey()), tenant: 'other', plan: 'pack1' }));
writeFileAtomic(file, JSON.stringify({ version: 1, keys: [...others, { sha256, tenant: 'bench', plan: 'pack4' }] }));
const keys = new KeyStore({ file }).start();
const make = (mode: 'optional' | 'required'): QuotaGatekeeper =>
  new QuotaGatekeeper({
    mode,
    keys,
    usage: new MemoryUsageStore(),
    limiter: new TokenBucketLimiter(),
    rateLimit: parseRateLimit('1000000'),
    trustProxy: false,
    failMode: 'closed',
    // Allowances the benchmark cannot exhaust (it runs ~10^6 requests); the code path is the same.
    plans: buildPlans(PLAN_TABLE.map((p) => ({ ...p, monthlyAllowance: p.monthlyAllowance === 0 ? 0 : Number.MAX_SAFE_INTEGER }))),
    metrics: createAuthMetrics(new client.Registry()),
  });
const required = make('required');
const optional = make('optional');
const route = { method: 'POST', paths: ['/v1/sepa/vop'], service: 'API-138', summary: 'bench', handler: () => ({}) } as RouteDef;
const withKey = { authorization: `Bearer ${key}` };
const anonymous = {};
const unknown = { 'x-api-key': generateKey() };

function request(gk: Gatekeeper, headers: Record<string, string>, status = 200): void {
  const principal = gk.authenticate({ headers, clientIp: '192.0.2.10', route });
  const admission = gk.admit(principal, route) as Admission;
  admission.settle?.(status);
}

console.assert(required.authenticate({ headers: withKey, clientIp: '192.0.2.10', route }).tenantId === 'bench', 'the key resolves to its tenant');
console.assert((required.admit(required.authenticate({ headers: withKey, clientIp: '', route }), route) as Admission).headers?.['ratelimit-limit'] === String(Number.MAX_SAFE_INTEGER), 'a pack4 key draws from its pooled allowance');
let refused = false;
try {
  required.authenticate({ headers: unknown, clientIp: '', route });
} catch {
  refused = true;
}
console.assert(refused, 'an unknown key is refused');

const bench = new Bench({ time: 1500, warmupTime: 300 });
bench
  .add('AUTH_MODE=off (OPEN_GATEKEEPER)', () => request(OPEN_GATEKEEPER, withKey))
  .add('required, valid key: authenticate + admit + settle', () => request(required, withKey))
  // Anonymous callers have 100 per month: settle as a 4xx so the unit is refunded and the loop can go on.
  .add('optional, anonymous caller (per address), refunded', () => request(optional, anonymous, 400))
  .add('required, unknown key (401 path)', () => {
    try {
      required.authenticate({ headers: unknown, clientIp: '', route });
    } catch {
      // expected
    }
  });
await bench.run();
keys.close();

type Result = { latency: { mean: number; p50?: number; p99?: number }; throughput: { mean: number } };
const res = (name: string): Result => bench.tasks.find((t) => t.name === name)!.result as unknown as Result;
const rows = bench.tasks.map((t) => {
  const r = res(t.name);
  return { label: t.name, opsPerSec: r.throughput.mean, p50Ms: r.latency.p50 ?? r.latency.mean, p99Ms: r.latency.p99 ?? r.latency.mean };
});
const keyed = res('required, valid key: authenticate + admit + settle').latency.p50 ?? 0;
const open = res('AUTH_MODE=off (OPEN_GATEKEEPER)').latency.p50 ?? 0;
printReport({
  name: 'Keys + quotas per request, in-process (1,000 keys loaded)',
  rows,
  notes: [`a keyed, metered request costs ≈ ${((keyed - open) * 1000).toFixed(2)} µs at p50 (SHA-256 of the key ≈ half of it)`],
});
