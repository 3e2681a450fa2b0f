/**
 * Cost of keys + quotas on a real request: POST /v1/sepa/vop (API-138, inline core) through the
 * gateway with AUTH_MODE=off vs AUTH_MODE=required with a valid pack4 key (hash lookup, token
 * bucket, exact monthly check-and-increment, RateLimit headers, settle, snapshots every 2 s),
 * same run. Rounds alternate off/required so drift on a shared machine hits both alike; the
 * medians are compared. Aim (issue 9): overhead < 5% of req/s.
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
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
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

const runs: { off: LoadResult[]; required: LoadResult[] } = { off: [], required: [] };
try {
  await load({ ...offTarget, duration: 1, connections });
  await load({ ...reqTarget, duration: 1, connections });
  for (let i = 0; i < ROUNDS; i++) {
    runs.off.push(await load({ ...offTarget, duration, connections }));
    runs.required.push(await load({ ...reqTarget, duration, connections }));
  }
} finally {
  await Promise.all([off.stop(), required.stop()]);
}

const median = (rs: LoadResult[], pick: (r: LoadResult) => number): number => {
  const v = rs.map(pick).sort((a, b) => a - b);
  return v[Math.floor(v.length / 2)]!;
};
const summary = (label: string, rs: LoadResult[]) => ({
  label,
  reqPerSec: median(rs, (r) => r.reqPerSec),
  p50Ms: median(rs, (r) => r.p50Ms),
  p99Ms: median(rs, (r) => r.p99Ms),
  extra: {
    'server p99 ms': median(rs, (r) => r.serverP99Ms).toFixed(3),
    'rounds req/s': rs.map((r) => Math.round(r.reqPerSec)).join(' / '),
    non2xx: rs.reduce((n, r) => n + r.non2xx + r.errors, 0),
  },
});
const offRow = summary(`AUTH_MODE=off (${offTarget.what})`, runs.off);
const reqRow = summary(`AUTH_MODE=required, valid key (${reqTarget.what})`, runs.required);
const ratio = reqRow.reqPerSec / offRow.reqPerSec;

printReport({
  name: `keys + quotas overhead (${connections} connections, ${ROUNDS} x ${duration} s rounds, medians)`,
  service: 'GATEWAY',
  rows: [offRow, reqRow],
  ratios: { 'required / off (req/s)': ratio },
  notes: [
    `overhead ${((1 - ratio) * 100).toFixed(1)}% of req/s (aim < 5%)`,
    'autocannon runs in the benchmark process on the same 2 cores as the server under test; rounds alternate to share drift',
  ],
});
