/**
 * What STATE_BACKEND=redis costs against memory, in the same run (tinybench): the quota check of
 * one metered request (burst limit + usage take: one script on Redis; the old two-script form for
 * comparison), a lock acquire + release, and semantic-cache lookups: a hit on an entry this
 * gateway stored (index search, then the winner claimed from the mirror: no round trip), the first
 * hit on an entry another gateway stored (one round trip that checks it and fetches its response),
 * and a miss (index search only). Redis: REDIS_URL, else 127.0.0.1:6379; keys under a unique prefix, deleted after.
 * Without a Redis only the memory rows are printed (with a note).
 */
import { Bench } from 'tinybench';
import { MemoryUsageStore } from '../../src/auth/usage-store.ts';
import { TokenBucketLimiter } from '../../src/auth/rate-limiter.ts';
import type { SentenceFeatures } from '../../src/embeddings/glove.ts';
import { systemClock } from '../../src/services/consensus/clock.ts';
import { MemoryLockStore } from '../../src/services/consensus/memory-lock-store.ts';
import type { LockStore } from '../../src/services/consensus/store.ts';
import { MemoryCacheStore, type CacheStore } from '../../src/services/semantic-cache/store.ts';
import { RedisCacheStore } from '../../src/state/redis-cache-store.ts';
import { RedisConnection } from '../../src/state/redis-connection.ts';
import { RedisLockStore } from '../../src/state/redis-lock-store.ts';
import { RedisRateLimiter } from '../../src/state/redis-rate-limiter.ts';
import { RedisUsageStore } from '../../src/state/redis-usage-store.ts';
import { printReport, type BenchRow } from '../lib/harness.ts';

const URL_ = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = `bench:state:${process.pid}:`;
const DIMS = 100;
const ENTRIES = 5000;

let redis: RedisConnection | null = null;
try {
  redis = await RedisConnection.connect({ url: URL_, keyPrefix: PREFIX, connectTimeoutMs: 1500 });
} catch (err) {
  console.log(`no Redis (${(err as Error).message}): memory rows only`);
}

// Quota: one request = burst limiter take + usage take (limit never reached).
const charge = { period: '2026-11', subject: 'key:bench', bucket: 'plan', limit: 1e12, tally: 'svc:API-01' };
const memUsage = new MemoryUsageStore();
const memLimiter = new TokenBucketLimiter();
const quotaMemory = () => {
  memLimiter.take('key:bench', 1e9);
  memUsage.take(charge);
};
const redisUsage = redis && new RedisUsageStore(redis);
const redisLimiter = redis && new RedisRateLimiter(redis);
// What the gatekeeper does on Redis: burst check and take in one script (one round trip) ...
const quotaRedis = async () => {
  const r = await redisUsage!.takeWithBurst(charge, 1e9);
  if (r.rateLimited) throw new Error('bench quota must not be rate limited');
};
// ... and, for comparison, the two round trips it made before (limiter script, then take script).
const quotaRedisTwoTrips = async () => {
  const d = await redisLimiter!.take('key:bench', 1e9);
  if (d.allowed) await redisUsage!.take(charge);
};

// Locks: acquire + release of a free resource.
const memLocks = new MemoryLockStore({ clock: systemClock(), maxResources: 100_000 });
const redisLocks = redis && new RedisLockStore(redis, { maxResources: 100_000 });
let n = 0;
const lockPair = (store: LockStore) => async () => {
  const resource = `r${n++ % 64}`;
  const o = await store.acquire('bench', { resource, agentId: 'a', ttlMs: 10_000, waitMs: 0, token: null });
  if (o.granted) await store.release('bench', { resource, agentId: 'a', token: o.token! });
};

// Cache: ENTRIES random unit vectors in one namespace; lookups of a perturbed stored vector.
let seed = 42;
const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) - 0.5;
const unit = (v: Float32Array) => {
  let s = 0;
  for (const x of v) s += x * x;
  const k = 1 / Math.sqrt(s);
  for (let i = 0; i < v.length; i++) v[i]! *= k;
  return v;
};
const vectors = Array.from({ length: ENTRIES }, () => unit(Float32Array.from({ length: DIMS }, rnd)));
const features: SentenceFeatures = { ids: Int32Array.of(1, 2, 3), keys: Int32Array.of(1, 2, 3), weights: Float32Array.of(1, 1, 1), negated: false, questions: 0 };
const scope = { tenant: 'bench', namespace: 'default' };
const response = 'x'.repeat(500);
async function fill(store: CacheStore): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < ENTRIES; i++) ids.push(await store.put(scope, { vector: vectors[i]!, features, fingerprint: `fp${i}`, response, ttlMs: 3_600_000 }, Date.now()));
  return ids;
}
const memCache = new MemoryCacheStore({ dims: DIMS, maxEntries: 100_000 });
await fill(memCache);
const redisCache = redis && (await RedisCacheStore.open(redis, { dims: DIMS, maxEntries: 100_000 }));
const redisIds = redisCache ? await fill(redisCache) : [];
const queries = vectors.slice(0, 256).map((v) => unit(v.map((x) => x + rnd() * 0.02)));
let q = 0;
// A hit: index search, then the winner's response claimed (Redis: from the mirror, this store put it).
const lookup = (store: CacheStore) => async () => {
  const c = await store.candidates(scope, queries[q++ % queries.length]!, 'none', 5, Date.now());
  if (c.length === 0 || (await store.claim(scope, c[0]!.id, Date.now())) === null) throw new Error('lookup found nothing');
};
// A miss: nothing scores high enough, so nothing is claimed (Redis: no round trip at all).
const lookupMiss = (store: CacheStore) => async () => {
  const c = await store.candidates(scope, queries[q++ % queries.length]!, 'none', 5, Date.now());
  if (c.length === 0) throw new Error('lookup found nothing');
};

// Correctness before timing (undici's habit): both backends answer the same.
console.assert((await memCache.candidates(scope, vectors[7]!, 'none', 5, Date.now()))[0]!.cosine > 0.999, 'memory cache finds a stored vector');
if (redisCache) {
  const c = await redisCache.candidates(scope, vectors[7]!, 'none', 5, Date.now());
  console.assert(c[0]!.cosine > 0.999 && (await redisCache.claim(scope, c[0]!.id, Date.now())) === response, 'redis cache finds a stored vector and its response');
  console.assert((await redisUsage!.take({ ...charge, subject: 'key:check', limit: 1 })).granted && !(await redisUsage!.take({ ...charge, subject: 'key:check', limit: 1 })).granted, 'redis usage refuses past the limit');
}

const bench = new Bench({ time: 2000, warmupTime: 300 });
bench.add('quota check: memory', quotaMemory);
if (redis) bench.add('quota check: redis', quotaRedis);
if (redis) bench.add('quota check: redis, limiter + take as two round trips', quotaRedisTwoTrips);
if (redis) bench.add('quota check: redis, 16 in flight (per request)', () => Promise.all(Array.from({ length: 16 }, quotaRedis)));
bench.add('lock acquire+release: memory', lockPair(memLocks));
if (redisLocks) bench.add('lock acquire+release: redis', lockPair(redisLocks));
bench.add('cache lookup (5000 x 100d): memory', lookup(memCache));
if (redisCache) bench.add('cache lookup (5000 x 100d): redis', lookup(redisCache));
bench.add('cache lookup, miss: memory', lookupMiss(memCache));
if (redisCache) bench.add('cache lookup, miss: redis', lookupMiss(redisCache));
await bench.run();

// First hit on an entry another gateway stored: a second store on the same Redis caught up from a
// scan holds no responses, so each of its first claims is the one round trip (each entry once).
let firstHits: { p50Ms: number; p99Ms: number; opsPerSec: number } | null = null;
if (redis && redisCache) {
  const other = await RedisCacheStore.open(redis, { dims: DIMS, maxEntries: 100_000 });
  const times: number[] = [];
  for (const id of redisIds) {
    const t = performance.now();
    if ((await other.claim(scope, id, Date.now())) !== response) throw new Error('first claim must fetch the response');
    times.push(performance.now() - t);
  }
  await other.close();
  times.sort((x, y) => x - y);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!;
  firstHits = { p50Ms: at(0.5), p99Ms: at(0.99), opsPerSec: 1000 / (times.reduce((x, y) => x + y, 0) / times.length) };
}

type R = { latency: { mean: number; p50?: number; p99?: number }; throughput: { mean: number } };
const result = (name: string): R | undefined => bench.tasks.find((t) => t.name === name)?.result as unknown as R | undefined;
const rows: BenchRow[] = bench.tasks.map((t) => {
  const r = t.result as unknown as R;
  const per = t.name.includes('16 in flight') ? 16 : 1;
  return { label: t.name, opsPerSec: r.throughput.mean * per, p50Ms: (r.latency.p50 ?? r.latency.mean) / per, p99Ms: (r.latency.p99 ?? r.latency.mean) / per };
});
if (firstHits) rows.push({ label: `cache claim, first hit on another gateway's entry: redis (${ENTRIES} entries, each once)`, ...firstHits });
const ratios: Record<string, number> = {};
const notes: string[] = [];
const pair = (label: string, mem: string, red: string) => {
  const m = result(mem);
  const r = result(red);
  if (m === undefined || r === undefined) return;
  ratios[`${label} redis / memory (p50)`] = (r.latency.p50 ?? r.latency.mean) / Math.max(1e-6, m.latency.p50 ?? m.latency.mean);
  notes.push(`${label}: redis adds ${(((r.latency.p50 ?? 0) - (m.latency.p50 ?? 0)) * 1000).toFixed(0)} µs at p50, ${(((r.latency.p99 ?? 0) - (m.latency.p99 ?? 0)) * 1000).toFixed(0)} µs at p99`);
};
pair('quota check', 'quota check: memory', 'quota check: redis');
pair('lock pair', 'lock acquire+release: memory', 'lock acquire+release: redis');
pair('cache lookup', 'cache lookup (5000 x 100d): memory', 'cache lookup (5000 x 100d): redis');
pair('cache miss', 'cache lookup, miss: memory', 'cache lookup, miss: redis');
if (!redis) notes.push('no Redis reachable: set REDIS_URL to compare');
printReport({ name: 'State backends: memory vs Redis (loopback, node-redis)', rows, ratios, notes });

await memLocks.close();
if (redis) {
  await redisLocks!.close();
  await redisCache!.close();
  let cursor = '0';
  do {
    const [next, keys] = await redis.command<[string, string[]]>(['SCAN', cursor, 'MATCH', `${PREFIX}*`, 'COUNT', '1000']);
    cursor = next;
    if (keys.length > 0) await redis.command(['DEL', ...keys]);
  } while (cursor !== '0');
  await redis.close();
}
