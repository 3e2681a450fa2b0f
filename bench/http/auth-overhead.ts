/**
 * Cost of keys + quotas on a real request: POST /v1/sepa/vop (API-138, inline core) through the
 * gateway with AUTH_MODE=off vs AUTH_MODE=required with a valid pack4 key (hash lookup, token
 * bucket, exact monthly check-and-increment, RateLimit headers, settle, snapshots every 2 s),
 * same run. Rounds alternate off/required so drift on a shared machine hits both alike. Other
 * processes can only slow a round down, never speed it up, so the primary figure compares the
 * best round of each mode; the median of the per-pair ratios is printed beside it.
 * Aim (issue 9): overhead < 5% of req/s.
 *
 * When API-138 is not registered (404), it falls back to GET /v1/usage vs GET /v1/health.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateKey, hashKeyHex, writeFileAtomic } from '../../src/auth/keys-file.ts';
import { benchOptions, printReport } from '../lib/harness.ts';
import { load, startGateway, type LoadResult, type RunningServer } from '../lib/http.ts';

const { duration, connections } = benchOptions();
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ROUTE = '/v1/sepa/vop';
const BODY = JSON.stringify({ iban: 'DE89 3704 0044 0532 0130 00', beneficiary_name: 'Max Mustermann' });

const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-auth-'));
const key = generateKey();
const sha256 = hashKeyHex(key);
writeFileAtomic(
  path.join(dataDir, 'keys.json'),
  JSON.stringify({ version: 1, keys: [{ id: sha256.slice(0, 16), sha256, tenant: 'bench', plan: 'pack4', created_at: new Date().toISOString(), revoked_at: null, label: 'bench' }] }),
);

// The burst limiter runs (1,000,000 rps never refuses) so its cost is part of the measurement.
const off = await startGateway({ AUTH_MODE: 'off', DATA_DIR: mkdtempSync(path.join(tmpdir(), 'bench-off-')) });
const required = await startGateway({ AUTH_MODE: 'required', DATA_DIR: dataDir, RATE_LIMIT_RPS: '1000000' });
const auth = { authorization: `Bearer ${key}` };

async function target(server: RunningServer, headers: Record<string, string>): Promise<{ url: string; method: 'GET' | 'POST'; body?: string; headers: Record<string, string>; what: string }> {
  const probe = await fetch(server.url + ROUTE, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: BODY });
  if (probe.status === 200) {
    console.assert(headers.authorization === undefined || probe.headers.get('ratelimit-limit') === '1000000', 'a counted response carries RateLimit-Limit');
    return { url: server.url + ROUTE, method: 'POST', body: BODY, headers, what: 'POST /v1/sepa/vop' };
  }
  // API-138 not registered yet: a metered-free GET pair still shows the authentication cost.
  return headers.authorization === undefined
    ? { url: `${server.url}/v1/health`, method: 'GET', headers, what: 'GET /v1/health (API-138 not registered)' }
    : { url: `${server.url}/v1/usage`, method: 'GET', headers, what: 'GET /v1/usage (API-138 not registered)' };
}

const offTarget = await target(off, {});
const reqTarget = await target(required, auth);
const unauth = await fetch(required.url + ROUTE, { method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY });
console.assert(unauth.status === 401, 'without a key the required-mode gateway answers 401');

/** Server CPU seconds so far (prom-client's process_cpu_seconds_total on the gateway's /metrics). */
async function cpuSeconds(server: RunningServer): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const m = /^gateway_process_cpu_seconds_total (\S+)$/m.exec(text);
  if (m === null) throw new Error('gateway_process_cpu_seconds_total not found on /metrics');
  return Number(m[1]);
}

interface Round extends LoadResult {
  /** Server CPU per request (µs): what a request costs the gateway, whatever else the machine runs. */
  readonly cpuUs: number;
}

async function round(server: RunningServer, t: Parameters<typeof load>[0]): Promise<Round> {
  const before = await cpuSeconds(server);
  const r = await load({ ...t, duration, connections });
  const after = await cpuSeconds(server);
  return { ...r, cpuUs: ((after - before) * 1e6) / Math.max(1, r.requests) };
}

const runs: { off: Round[]; required: Round[] } = { off: [], required: [] };
try {
  await load({ ...offTarget, duration: 1, connections });
  await load({ ...reqTarget, duration: 1, connections });
  for (let i = 0; i < ROUNDS; i++) {
    runs.off.push(await round(off, offTarget));
    runs.required.push(await round(required, reqTarget));
  }
} finally {
  await Promise.all([off.stop(), required.stop()]);
}

const median = (rs: Round[], pick: (r: Round) => number): number => medianOf(rs.map(pick));
function medianOf(values: number[]): number {
  const v = [...values].sort((a, b) => a - b);
  return v.length % 2 === 1 ? v[(v.length - 1) / 2]! : (v[v.length / 2 - 1]! + v[v.length / 2]!) / 2;
}
const best = (rs: Round[]): number => Math.max(...rs.map((r) => r.reqPerSec));
const summary = (label: string, rs: Round[]) => ({
  label,
  reqPerSec: best(rs),
  p50Ms: median(rs, (r) => r.p50Ms),
  p99Ms: median(rs, (r) => r.p99Ms),
  extra: {
    'server CPU µs/req (least)': Math.min(...rs.map((r) => r.cpuUs)).toFixed(1),
    'server p99 ms': median(rs, (r) => r.serverP99Ms).toFixed(3),
    'rounds req/s': rs.map((r) => Math.round(r.reqPerSec)).join(' / '),
    non2xx: rs.reduce((n, r) => n + r.non2xx + r.errors, 0),
  },
});
const offRow = summary(`AUTH_MODE=off (${offTarget.what})`, runs.off);
const reqRow = summary(`AUTH_MODE=required, valid key (${reqTarget.what})`, runs.required);
const ratio = reqRow.reqPerSec / offRow.reqPerSec;
const pairRatio = medianOf(runs.required.map((r, i) => r.reqPerSec / runs.off[i]!.reqPerSec));
// Contention inflates CPU per request too (cache misses, migrations): the least loaded round is the closest to the intrinsic cost.
const cpuRatio = Math.min(...runs.required.map((r) => r.cpuUs)) / Math.min(...runs.off.map((r) => r.cpuUs));

printReport({
  name: `keys + quotas overhead (${connections} connections, best of ${ROUNDS} alternating ${duration} s rounds; latencies: medians)`,
  service: 'GATEWAY',
  rows: [offRow, reqRow],
  ratios: { 'required / off (best req/s)': ratio, 'required / off (median of paired rounds)': pairRatio, 'required / off (server CPU per request)': cpuRatio },
  notes: [
    `server CPU per request ${cpuRatio >= 1 ? '+' : ''}${((cpuRatio - 1) * 100).toFixed(1)}% with keys + quotas, least loaded rounds (the capacity cost: saturated req/s scale with 1 / CPU per request)`,
    `overhead ${((1 - ratio) * 100).toFixed(1)}% of req/s on the best rounds, ${((1 - pairRatio) * 100).toFixed(1)}% as the median of paired rounds (aim < 5%)`,
    'autocannon runs in the benchmark process on the same 2 cores as the server under test; rounds alternate to share drift',
    'an A/A run (both gateways AUTH_MODE=off) on the same loaded machine differed by 3-4%: smaller differences are noise',
  ],
});
