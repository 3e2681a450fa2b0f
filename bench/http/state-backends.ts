/**
 * Cost of STATE_BACKEND=redis on a real metered request: POST /v1/sepa/vop (API-138, inline core)
 * with AUTH_MODE=required and a pack4 key, through one gateway with STATE_BACKEND=memory and one
 * with STATE_BACKEND=redis (burst limiter + usage take become one Lua script on Redis), same run,
 * alternating rounds. The figures that matter: the server-side latency_ms difference at one
 * connection (the quota overhead per request; issue 10's aim: under 0.3 ms on loopback), and the
 * CPU per request of the gateway and of redis-server (from /proc), which the 2-core scheduler does
 * not distort the way it distorts latency under 50 connections.
 * Redis: REDIS_URL, else 127.0.0.1:6379; the bench key's counters are deleted after.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateKey, hashKeyHex, writeFileAtomic } from '../../src/auth/keys-file.ts';
import { periodAt } from '../../src/auth/period.ts';
import { RedisConnection } from '../../src/state/redis-connection.ts';
import { benchOptions, printReport } from '../lib/harness.ts';
import { cpuSeconds, load, startGateway, type LoadResult, type LoadOptions, type RunningServer } from '../lib/http.ts';

const { duration, connections } = benchOptions();
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const ROUTE = '/v1/sepa/vop';
const BODY = JSON.stringify({ iban: 'DE89 3704 0044 0532 0130 00', beneficiary_name: 'Max Mustermann' });

let redis: RedisConnection;
try {
  redis = await RedisConnection.connect({ url: REDIS_URL, connectTimeoutMs: 1500 });
} catch (err) {
  console.log(`state-backends: skipped, ${(err as Error).message}`);
  printReport({ name: 'State backends over HTTP: memory vs Redis', rows: [], notes: ['no Redis reachable: set REDIS_URL'] });
  process.exit(0);
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-state-'));
const key = generateKey();
const sha256 = hashKeyHex(key);
const id = sha256.slice(0, 16);
writeFileAtomic(path.join(dataDir, 'keys.json'), JSON.stringify({ version: 1, keys: [{ id, sha256, tenant: 'bench', plan: 'pack4', created_at: new Date().toISOString(), revoked_at: null, label: 'bench' }] }));
const common = { AUTH_MODE: 'required', API_KEYS_FILE: path.join(dataDir, 'keys.json'), RATE_LIMIT_RPS: '1000000' };
const memory = await startGateway({ ...common, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'bench-state-mem-')) });
const shared = await startGateway({ ...common, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'bench-state-redis-')), STATE_BACKEND: 'redis', REDIS_URL });
const headers = { authorization: `Bearer ${key}` };

for (const s of [memory, shared]) {
  const r = await fetch(s.url + ROUTE, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: BODY });
  console.assert(r.status === 200 && r.headers.get('ratelimit-limit') === '1000000', 'a metered request is served and counted');
}
const usageKey = `gw:u:${periodAt(Date.now()).id}:key:${id}`;
console.assert(Number(await redis.command(['HGET', usageKey, 'plan'])) === 1, 'the Redis gateway counted its request in Redis');

// redis-server's pid when it runs on this machine (its CPU per request is part of the cost).
const info = await redis.command<string>(['INFO', 'server']);
const redisPid = Number(/process_id:(\d+)/.exec(info)?.[1] ?? Number.NaN);
const redisCpu = (): number => (Number.isFinite(redisPid) ? cpuSeconds(redisPid) : Number.NaN);

interface Round extends LoadResult {
  /** Gateway CPU µs per request (all threads). */
  readonly gwCpuUs: number;
  /** redis-server CPU µs per request (NaN when Redis is not local). */
  readonly redisCpuUs: number;
}
async function round(server: RunningServer, opts: LoadOptions): Promise<Round> {
  const g0 = cpuSeconds(server.pid!);
  const r0 = redisCpu();
  const r = await load(opts);
  const n = Math.max(1, r.requests);
  return { ...r, gwCpuUs: ((cpuSeconds(server.pid!) - g0) / n) * 1e6, redisCpuUs: ((redisCpu() - r0) / n) * 1e6 };
}

const runs: { memory: Round[]; redis: Round[] } = { memory: [], redis: [] };
const single: { memory: Round[]; redis: Round[] } = { memory: [], redis: [] };
try {
  const target = (url: string, c = connections) => ({ url: url + ROUTE, method: 'POST' as const, body: BODY, headers, duration, connections: c });
  await load({ ...target(memory.url), duration: 1 });
  await load({ ...target(shared.url), duration: 1 });
  for (let i = 0; i < ROUNDS; i++) {
    runs.memory.push(await round(memory, target(memory.url)));
    runs.redis.push(await round(shared, target(shared.url)));
    single.memory.push(await round(memory, target(memory.url, 1)));
    single.redis.push(await round(shared, target(shared.url, 1)));
  }
} finally {
  await Promise.all([memory.stop(), shared.stop()]);
  await redis.command(['DEL', usageKey, `gw:rl:key:${id}`]);
  await redis.close();
}

const medianOf = (values: number[]): number => {
  const v = [...values].sort((a, b) => a - b);
  return v.length % 2 === 1 ? v[(v.length - 1) / 2]! : (v[v.length / 2 - 1]! + v[v.length / 2]!) / 2;
};
const row = (label: string, rs: Round[]) => ({
  label,
  reqPerSec: Math.max(...rs.map((r) => r.reqPerSec)),
  p50Ms: medianOf(rs.map((r) => r.p50Ms)),
  p99Ms: medianOf(rs.map((r) => r.p99Ms)),
  extra: {
    'server p50 ms': medianOf(rs.map((r) => r.serverP50Ms)).toFixed(3),
    'server p99 ms': medianOf(rs.map((r) => r.serverP99Ms)).toFixed(3),
    'rounds req/s': rs.map((r) => Math.round(r.reqPerSec)).join(' / '),
    'gateway CPU µs/req': medianOf(rs.map((r) => r.gwCpuUs)).toFixed(1),
    'redis-server CPU µs/req': medianOf(rs.map((r) => r.redisCpuUs)).toFixed(1),
    non2xx: rs.reduce((n, r) => n + r.non2xx + r.errors, 0),
  },
});
const m = row(`STATE_BACKEND=memory (POST /v1/sepa/vop, pack4 key), ${connections} connections`, runs.memory);
const r = row(`STATE_BACKEND=redis (same), ${connections} connections`, runs.redis);
const m1 = row('STATE_BACKEND=memory, 1 connection', single.memory);
const r1 = row('STATE_BACKEND=redis, 1 connection', single.redis);
const serverP50 = (rs: LoadResult[]) => medianOf(rs.map((x) => x.serverP50Ms));
const serverP99 = (rs: LoadResult[]) => medianOf(rs.map((x) => x.serverP99Ms));
const cpu = (rs: Round[], k: 'gwCpuUs' | 'redisCpuUs') => medianOf(rs.map((x) => x[k]));
printReport({
  name: `State backends over HTTP: quota check on Redis vs memory (${connections} and 1 connections, ${ROUNDS} alternating ${duration} s rounds)`,
  service: 'GATEWAY',
  rows: [m, r, m1, r1],
  ratios: {
    'redis / memory (best req/s)': r.reqPerSec / m.reqPerSec,
    'redis / memory (best req/s, 1 connection)': r1.reqPerSec / m1.reqPerSec,
    'redis / memory (server p50, 1 connection)': serverP50(single.redis) / Math.max(1e-6, serverP50(single.memory)),
  },
  notes: [
    `quota overhead per request at 1 connection (server latency_ms): +${((serverP50(single.redis) - serverP50(single.memory)) * 1000).toFixed(0)} µs at p50, +${((serverP99(single.redis) - serverP99(single.memory)) * 1000).toFixed(0)} µs at p99 (aim < 300 µs)`,
    `at ${connections} connections: +${((serverP50(runs.redis) - serverP50(runs.memory)) * 1000).toFixed(0)} µs at p50 (requests queue behind redis-server for the same 2 cores)`,
    `CPU per request at ${connections} connections: gateway +${(cpu(runs.redis, 'gwCpuUs') - cpu(runs.memory, 'gwCpuUs')).toFixed(1)} µs with Redis, redis-server ${cpu(runs.redis, 'redisCpuUs').toFixed(1)} µs`,
    'latency_ms spans the admission too: the one Lua round trip (burst limit + usage take) is inside it',
  ],
});
