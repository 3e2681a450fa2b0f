/**
 * The behaviour every API-05 CacheStore must have (src/services/semantic-cache/store.ts), as one
 * suite taking a store factory: the in-memory store and the Redis store both run it
 * (test/state-cache-store-contract.test.ts). Vectors are small synthetic unit vectors; time is
 * real (a networked store's expiry runs on its server's clock), with wide margins.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { SentenceFeatures } from '../../src/embeddings/glove.ts';
import type { CacheStore, NewEntry, Scope } from '../../src/services/semantic-cache/store.ts';

export const CONTRACT_DIMS = 8;
export const CONTRACT_MAX_ENTRIES = 3;

export interface CacheHarness {
  readonly store: CacheStore;
  close(): Promise<void>;
}

export type CacheStoreFactory = (options: { dims: number; maxEntries: number }) => Promise<CacheHarness>;

const A: Scope = { tenant: 'tenant-a', namespace: 'default' };

export const contractFeatures = (n: number): SentenceFeatures => ({ ids: Int32Array.of(n, n + 1), keys: Int32Array.of(-n, 3), weights: Float32Array.of(0.5, 0.5), negated: false, questions: 0 });

export function axis(i: number, tilt = 0): Float32Array {
  const v = new Float32Array(CONTRACT_DIMS);
  v[i % CONTRACT_DIMS] = 1;
  if (tilt !== 0) {
    v[(i + 1) % CONTRACT_DIMS] = tilt;
    const k = 1 / Math.hypot(1, tilt);
    for (let j = 0; j < v.length; j++) v[j]! *= k;
  }
  return v;
}

const entry = (i: number, over: Partial<NewEntry> = {}): NewEntry => ({ vector: axis(i), features: contractFeatures(i), fingerprint: `fp-${i}`, response: `answer ${i}`, ttlMs: 60_000, ...over });

export function cacheStoreContract(name: string, factory: CacheStoreFactory, options: { skip?: string | false } = {}): void {
  describe(`CacheStore contract: ${name}`, { skip: options.skip || false }, () => {
    let h: CacheHarness;
    let s: CacheStore;
    beforeEach(async () => {
      h = await factory({ dims: CONTRACT_DIMS, maxEntries: CONTRACT_MAX_ENTRIES });
      s = h.store;
    });
    afterEach(() => h.close());

    it('finds a stored entry by its vector, with its features, and claims its response', async () => {
      const id = await s.put(A, entry(1), Date.now());
      const c = await s.candidates(A, axis(1, 0.1), 'other', 5, Date.now());
      assert.equal(c.length, 1);
      assert.deepEqual([c[0]!.id, c[0]!.exact], [id, false]);
      assert.equal(await s.claim(A, id, Date.now()), 'answer 1');
      assert.ok(c[0]!.cosine > 0.99);
      assert.deepEqual(c[0]!.features, contractFeatures(1));
    });

    it('answers a live exact repeat (same fingerprint) alone, with cosine 1, without a search', async () => {
      const id1 = await s.put(A, entry(1), Date.now());
      const id2 = await s.put(A, entry(2), Date.now());
      // axis(1) is entry 1's own vector: a search would list it, the exact-repeat answer does not.
      const c = await s.candidates(A, axis(1), 'fp-2', 5, Date.now());
      assert.deepEqual(c.map((x) => [x.id, x.exact, x.cosine]), [[id2, true, 1]]);
      assert.deepEqual((await s.candidates(A, axis(1), 'fp-2', 5, Date.now(), new Set(['not-an-entry']))).map((x) => x.id), [id2]);
      // Once its claim failed (skipped), the search runs: the exact entry still first, then the nearest.
      const after = await s.candidates(A, axis(1), 'fp-2', 5, Date.now(), new Set([id2]));
      assert.deepEqual(after.map((x) => [x.id, x.exact]), [[id2, true], [id1, false]]);
      assert.ok(after[1]!.cosine > 0.99);
    });

    it('keeps tenants and namespaces apart', async () => {
      await s.put(A, entry(1), Date.now());
      assert.deepEqual(await s.candidates({ tenant: 'tenant-b', namespace: 'default' }, axis(1), 'fp-1', 5, Date.now()), []);
      assert.deepEqual(await s.candidates({ tenant: 'tenant-a', namespace: 'other' }, axis(1), 'fp-1', 5, Date.now()), []);
    });

    it('replaces an entry in place (same id), and a put with the same fingerprint replaces too', async () => {
      const id = await s.put(A, entry(1), Date.now());
      assert.equal(await s.put(A, entry(1, { response: 'second', fingerprint: 'fp-other' }), Date.now(), id), id);
      assert.equal(await s.put(A, entry(1, { response: 'third', fingerprint: 'fp-other' }), Date.now()), id);
      const c = await s.candidates(A, axis(1), 'x', 5, Date.now());
      assert.deepEqual(c.map((x) => x.id), [id]);
      assert.equal(await s.claim(A, id, Date.now()), 'third');
    });

    it('ignores a replace id of another namespace', async () => {
      const other = await s.put({ tenant: 'tenant-a', namespace: 'n2' }, entry(1), Date.now());
      const id = await s.put(A, entry(2), Date.now(), other);
      assert.notEqual(id, other);
      assert.equal((await s.candidates({ tenant: 'tenant-a', namespace: 'n2' }, axis(1), 'x', 5, Date.now())).length, 1);
    });

    it('claims nothing of another tenant or namespace, nor an unknown id', async () => {
      const id = await s.put(A, entry(1), Date.now());
      assert.equal(await s.claim({ tenant: 'tenant-b', namespace: 'default' }, id, Date.now()), null);
      assert.equal(await s.claim({ tenant: 'tenant-a', namespace: 'other' }, id, Date.now()), null);
      assert.equal(await s.claim(A, 'no-such-id', Date.now()), null);
      assert.equal(await s.claim(A, id, Date.now()), 'answer 1');
    });

    it('flushes one namespace and says how many entries it held', async () => {
      const flushed = await s.put(A, entry(1), Date.now());
      await s.put(A, entry(2), Date.now());
      await s.put({ tenant: 'tenant-a', namespace: 'keep' }, entry(3), Date.now());
      assert.equal(await s.flush(A), 2);
      assert.deepEqual(await s.candidates(A, axis(1), 'fp-1', 5, Date.now()), []);
      assert.equal(await s.claim(A, flushed, Date.now()), null);
      assert.equal((await s.candidates({ tenant: 'tenant-a', namespace: 'keep' }, axis(3), 'x', 5, Date.now())).length, 1);
      assert.equal(await s.flush(A), 0);
    });

    it('never returns or claims an expired entry', async () => {
      const expired = await s.put(A, entry(1, { ttlMs: 200 }), Date.now());
      const live = await s.put(A, entry(2), Date.now());
      await new Promise((r) => setTimeout(r, 300));
      const c = await s.candidates(A, axis(1), 'fp-1', 5, Date.now());
      assert.deepEqual(c.map((x) => x.id), [live]);
      assert.equal(await s.claim(A, expired, Date.now()), null);
    });

    it('evicts the least recently used entry of a tenant past maxEntries', async () => {
      const ids = [];
      for (let i = 0; i < CONTRACT_MAX_ENTRIES; i++) ids.push(await s.put(A, entry(i), Date.now() + i));
      // A claim is a use: ids[0] becomes the most recently used.
      assert.equal(await s.claim(A, ids[0]!, Date.now() + 100), 'answer 0');
      await s.put({ tenant: 'tenant-a', namespace: 'other' }, entry(5), Date.now() + 200);
      const left = (await s.candidates(A, axis(0), 'x', 5, Date.now())).map((c) => c.id).sort();
      assert.deepEqual(left, [ids[0]!, ids[2]!].sort());
      // Another tenant has its own allowance.
      await s.put({ tenant: 'tenant-b', namespace: 'default' }, entry(6), Date.now());
      assert.equal((await s.candidates(A, axis(2), 'x', 5, Date.now())).length, 2);
    });

    it('returns at most k candidates', async () => {
      for (let i = 0; i < 3; i++) await s.put(A, entry(i), Date.now());
      assert.equal((await s.candidates(A, axis(0), 'x', 2, Date.now())).length, 2);
    });
  });
}
