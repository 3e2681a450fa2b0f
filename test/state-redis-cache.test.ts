/**
 * API-05 across gateways: entries in Redis, one local index per gateway following the change
 * stream. Store-level cases use small synthetic vectors; the HTTP case runs two real gateways on
 * one Redis. Runs when REDIS_URL is set; skipped (with the reason) otherwise.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { SentenceFeatures } from '../src/embeddings/glove.ts';
import { semanticCacheFactory } from '../src/services/semantic-cache/index.ts';
import type { Scope } from '../src/services/semantic-cache/store.ts';
import { RedisCacheStore, decodeFeatures, encodeFeatures } from '../src/state/redis-cache-store.ts';
import { RedisConnection } from '../src/state/redis-connection.ts';
import { startTestGateway } from './helpers/gateway.ts';
import { deleteKeys, REDIS_SKIP, REDIS_URL, uniquePrefix } from './helpers/redis.ts';

const DIMS = 8;
const prefixes: string[] = [];
const closers: (() => Promise<void>)[] = [];
after(async () => {
  for (const c of closers.reverse()) await c();
  if (REDIS_URL !== null) for (const p of prefixes) await deleteKeys(REDIS_URL, p);
});

const features = (n: number): SentenceFeatures => ({ ids: Int32Array.of(n, n + 1), keys: Int32Array.of(-n, 7), weights: Float32Array.of(0.5, 0.25), negated: n % 2 === 1, questions: n % 3 });

function unit(i: number): Float32Array {
  const v = new Float32Array(DIMS);
  v[i % DIMS] = 1;
  return v;
}

const entry = (i: number, ttlMs = 60_000) => ({ vector: unit(i), features: features(i), fingerprint: `fp-${i}`, response: `answer ${i}`, ttlMs });

async function node(prefix: string, maxEntries = 100): Promise<RedisCacheStore> {
  const conn = await RedisConnection.connect({ url: REDIS_URL!, keyPrefix: prefix });
  const store = await RedisCacheStore.open(conn, { dims: DIMS, maxEntries });
  closers.push(async () => {
    await store.close();
    await conn.close();
  });
  return store;
}

async function within<T>(ms: number, probe: () => Promise<T | null>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  for (;;) {
    const value = await probe();
    const elapsed = performance.now() - t0;
    if (value !== null) return { value, ms: elapsed };
    if (elapsed > ms) throw new Error(`nothing within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

describe('cache entry features through Redis', () => {
  it('round-trip exactly', () => {
    assert.deepEqual(decodeFeatures(encodeFeatures(features(5))), features(5));
  });
  it('round-trip the order sequence of the swapped-roles rule, and read entries written without one', () => {
    const withOrder: SentenceFeatures = { ...features(4), order: Int32Array.of(-4, -2147482000, 7), passive: true };
    assert.deepEqual(decodeFeatures(encodeFeatures(withOrder)), withOrder);
    const older = JSON.stringify({ ...JSON.parse(encodeFeatures(withOrder)), o: undefined, p: undefined });
    assert.equal(decodeFeatures(older).order, undefined);
  });
  it('round-trip the symbol hash (0: none), and read entries written without it', () => {
    for (const symbols of [0, -123456789, 98765]) {
      const f: SentenceFeatures = { ...features(2), symbols };
      assert.deepEqual(decodeFeatures(encodeFeatures(f)), f);
    }
    assert.equal(decodeFeatures(encodeFeatures(features(2))).symbols, undefined);
  });
  it('round-trip the verifier\'s name flags, word hashes, persons and clauses, and read entries written without them', () => {
    const full: SentenceFeatures = { ...features(3), proper: Uint8Array.of(1, 0, 1), words: Int32Array.of(-9, 3, 70), persons: 5, clauses: 2 };
    assert.deepEqual(decodeFeatures(encodeFeatures(full)), full);
    const older = decodeFeatures(JSON.stringify({ ...JSON.parse(encodeFeatures(full)), g: undefined, a: undefined, r: undefined, c: undefined }));
    assert.deepEqual([older.proper, older.words, older.persons, older.clauses], [undefined, undefined, undefined, undefined]);
  });
});

describe('Redis cache store on two nodes', { skip: REDIS_SKIP }, () => {
  const scope: Scope = { tenant: 't1', namespace: 'ns' };

  it('a put on A is found on B within 100 ms; a flush on B is a miss on A', async () => {
    const prefix = uniquePrefix('cache');
    prefixes.push(prefix);
    const [a, b] = [await node(prefix), await node(prefix)];
    const id = await a.put(scope, entry(1), Date.now());
    const hit = await within(100, async () => (await b.candidates(scope, unit(1), 'other', 5, Date.now())).find((c) => c.id === id) ?? null);
    assert.equal(await b.claim(scope, id, Date.now()), 'answer 1');
    assert.ok(hit.value.cosine > 0.99);
    assert.deepEqual(hit.value.features, features(1));
    assert.equal((await b.candidates(scope, unit(2), 'fp-1', 5, Date.now()))[0]!.exact, true, 'exact repeat by fingerprint');
    assert.deepEqual(await b.candidates({ tenant: 't2', namespace: 'ns' }, unit(1), 'fp-1', 5, Date.now()), [], 'another tenant sees nothing');
    assert.equal(await b.flush(scope), 1);
    await within(100, async () => ((await a.candidates(scope, unit(1), 'fp-1', 5, Date.now())).length === 0 ? true : null));
  });

  it('serves a hit from the mirror without a round trip; a gateway without the response checks Redis for it', async () => {
    const prefix = uniquePrefix('cache-exp');
    prefixes.push(prefix);
    const [a, b] = [await node(prefix), await node(prefix)];
    const id = await a.put(scope, entry(3), Date.now());
    await within(100, async () => (b.candidates(scope, unit(3), 'x', 5, Date.now())[0]?.id === id ? true : null));
    // a stored it: its mirror holds the response and answers without asking Redis.
    const conn = await RedisConnection.connect({ url: REDIS_URL!, keyPrefix: prefix });
    await conn.command(['HSET', `${prefix}c:e:${id}`, 'r', 'changed behind the stream']);
    assert.equal(a.claim(scope, id, Date.now()), 'answer 3');
    // b has only the stream's put (no response): it claims in Redis.
    assert.equal(await b.claim(scope, id, Date.now()), 'changed behind the stream');
    // c caught up by a scan (no response either); the entry then goes behind the stream's back:
    // c's claim finds it gone in Redis, refuses it and drops it from its mirror.
    const c = await node(prefix);
    assert.equal(c.candidates(scope, unit(3), 'fp-3', 5, Date.now())[0]?.id, id);
    await conn.command(['DEL', `${prefix}c:e:${id}`]);
    await conn.close();
    assert.equal(await c.claim(scope, id, Date.now()), null);
    assert.deepEqual(c.candidates(scope, unit(3), 'fp-3', 5, Date.now()), []);
    assert.equal(a.claim(scope, id, Date.now() + 60_001), null, 'past its Redis expiry no mirror serves it');
  });

  it('a node started later catches up from Redis; replace keeps the id everywhere', async () => {
    const prefix = uniquePrefix('cache-late');
    prefixes.push(prefix);
    const a = await node(prefix);
    const id = await a.put(scope, entry(4), Date.now());
    const late = await node(prefix);
    assert.equal((await late.candidates(scope, unit(4), 'x', 5, Date.now()))[0]?.id, id);
    const again = await late.put(scope, { ...entry(4), response: 'newer' }, Date.now(), id);
    assert.equal(again, id);
    const seen = await within(100, async () => {
      const c = await a.candidates(scope, unit(4), 'x', 5, Date.now());
      return c.length === 1 && (await a.claim(scope, c[0]!.id, Date.now())) === 'newer' ? c[0]! : null;
    });
    assert.equal(seen.value.id, id);
  });

  it('maintain() drops expired entries from the local index, replaced ones only once', async () => {
    const prefix = uniquePrefix('cache-maint');
    prefixes.push(prefix);
    const a = await node(prefix);
    const id = await a.put(scope, entry(1, 150), Date.now());
    await a.put(scope, { ...entry(1, 60_000), response: 'kept' }, Date.now(), id);
    await a.put(scope, entry(2, 150), Date.now());
    await new Promise((r) => setTimeout(r, 250));
    a.maintain(Date.now());
    assert.deepEqual(a.stats().entries, 1, 'the replaced entry keeps its new expiry; the other one is gone');
    assert.equal(await a.claim(scope, (await a.candidates(scope, unit(1), 'x', 5, Date.now()))[0]!.id, Date.now()), 'kept');
  });

  it('evicts the least recently used entry of a tenant past CACHE_MAX_ENTRIES, on every node', async () => {
    const prefix = uniquePrefix('cache-lru');
    prefixes.push(prefix);
    const [a, b] = [await node(prefix, 3), await node(prefix, 3)];
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await a.put(scope, entry(i), Date.now()));
    await within(100, async () => (b.stats().entries === 3 ? true : null));
    assert.equal(await b.claim(scope, ids[0]!, Date.now() + 1000), 'answer 0');
    await b.put({ tenant: 't1', namespace: 'other' }, entry(5), Date.now());
    // ids[1] was the least recently used: gone from Redis at once and from both nodes' mirrors
    // (b's own put drops it, a hears it from the stream) within 100 ms; ids[0] (used) stays.
    const inMirror = (n: RedisCacheStore) => n.candidates(scope, unit(1), 'fp-1', 5, Date.now()).some((c) => c.id === ids[1]);
    await within(100, async () => (!inMirror(a) && !inMirror(b) && a.stats().entries === 3 && b.stats().entries === 3 ? true : null));
    assert.equal(await a.claim(scope, ids[1]!, Date.now()), null);
    assert.ok((await b.candidates(scope, unit(0), 'fp-0', 5, Date.now())).some((c) => c.id === ids[0]));
  });
});

describe('API-05 over two gateways on one Redis', { skip: REDIS_SKIP }, () => {
  it('stores through A, hits through B within 100 ms; flushes through B, misses through A', async () => {
    const prefix = uniquePrefix('cache-http');
    prefixes.push(prefix);
    const start = () => startTestGateway({ env: { LOG_LEVEL: 'warn', STATE_BACKEND: 'redis', REDIS_URL: REDIS_URL! }, gateway: { factories: [semanticCacheFactory], state: { keyPrefix: prefix } } });
    const a = await start();
    const b = await start();
    closers.push(async () => {
      await Promise.all([a.close(), b.close()]);
    });
    const stored = (await (await a.post('/v1/cache/semantic', { query: 'How do I reset my password?', response: 'Settings > Security', namespace: 'nodes' })).json()) as { entry_id: string };
    const hit = await within(100, async () => {
      const r = (await (await b.post('/v1/cache/semantic', { query: 'how can I reset my password', namespace: 'nodes', threshold: 0.7 })).json()) as { cache_hit: boolean; cached_response: string; entry_id: string };
      return r.cache_hit ? r : null;
    });
    assert.deepEqual([hit.value.cached_response, hit.value.entry_id], ['Settings > Security', stored.entry_id]);
    const flushed = (await (await b.post('/v1/cache/semantic', { flush: true, namespace: 'nodes' })).json()) as { flushed: number };
    assert.equal(flushed.flushed, 1);
    await within(100, async () => {
      const r = (await (await a.post('/v1/cache/semantic', { query: 'How do I reset my password?', namespace: 'nodes' })).json()) as { cache_hit: boolean };
      return r.cache_hit ? null : true;
    });
  });
});
