/** API-05 core over the in-memory store: verification, isolation, TTL, LRU capacity, replace, flush. */
import assert from 'node:assert/strict';
import { afterEach, before, describe, it } from 'node:test';
import { gloveEmbedder, type Embedder } from '../src/embeddings/index.ts';
import { SemanticCache } from '../src/services/semantic-cache/core.ts';
import { MemoryCacheStore } from '../src/services/semantic-cache/store.ts';
import { HnswIndex } from '../src/vector-index/index.ts';
import { loadGlove } from './helpers/glove.ts';

let embedder: Embedder;
before(() => {
  embedder = gloveEmbedder(loadGlove());
});

function setup(maxEntries = 1000, index: 'hnsw' | 'brute' = 'hnsw') {
  const clock = { t: 1_000_000 };
  const store = new MemoryCacheStore({ dims: embedder.dims, maxEntries, index });
  const cache = new SemanticCache({ embedder, store, now: () => clock.t });
  return { cache, store, clock };
}

/** A threshold below the scores of the plain paraphrases here (~0.8) and far above every rejected pair (0). */
const PARAPHRASE_THRESHOLD = 0.7;

describe('semantic cache: verification stage', () => {
  const CASES: Array<[string, string, boolean]> = [
    ['How do I reset my password?', 'how can I reset my password', true],
    ['How do I reset my password?', 'How do I reset my passwords?', true],
    ['How do I reset my password?', 'How do I reset my router?', false],
    ['Can I cancel my order?', "Can't I cancel my order?", false],
    ['Why is the sky blue?', 'How is the sky blue?', false],
    ['What is the weather on Tuesday?', 'What is the weather on Thursday?', false],
    ['Top 5 movies of 2020', 'Top 10 movies of 2020', false],
    ['Did the stock rise today?', 'Did the stock fall today?', false],
    ['Three NATO soldiers killed in Afghanistan', 'Two NATO soldiers killed in Afghanistan', false],
  ];
  for (const [stored, asked, hit] of CASES) {
    it(`${hit ? 'serves' : 'refuses'} "${asked}" for "${stored}" at ${PARAPHRASE_THRESHOLD}`, async () => {
      const { cache } = setup();
      await cache.put({ tenant: 't', query: stored, response: 'R' });
      const r = await cache.lookup({ tenant: 't', query: asked, threshold: PARAPHRASE_THRESHOLD });
      assert.equal(r.cache_hit, hit, `score ${r.similarity_score}`);
      assert.equal(r.cached_response, hit ? 'R' : null);
    });
  }

  it('serves an exact repeat (case, spacing and punctuation aside) with score 1 at the default threshold', async () => {
    const { cache } = setup();
    await cache.put({ tenant: 't', query: 'How do I reset my password?', response: 'R' });
    await cache.put({ tenant: 't', query: 'How do I reset my router?', response: 'other' });
    const r = await cache.lookup({ tenant: 't', query: '  how do i RESET my password ' });
    assert.deepEqual([r.cache_hit, r.similarity_score, r.cached_response], [true, 1, 'R']);
  });

  it('a symbol that changes the question makes no exact repeat: "O+" is not "O-", "==" not "==="', async () => {
    const { cache } = setup();
    const plus = await cache.put({ tenant: 't', query: 'Is the O+ blood group the universal donor?', response: 'plus' });
    const minus = await cache.put({ tenant: 't', query: 'Is the O- blood group the universal donor?', response: 'minus' });
    assert.notEqual(plus.entry_id, minus.entry_id, 'no replace');
    const r = await cache.lookup({ tenant: 't', query: 'is the o- blood group the universal donor' });
    assert.deepEqual([r.cache_hit, r.similarity_score, r.cached_response], [true, 1, 'minus']);
    await cache.put({ tenant: 't', query: 'What is the difference between == and !=?', response: 'eq' });
    const strict = await cache.lookup({ tenant: 't', query: 'What is the difference between === and !=?' });
    assert.equal(strict.cache_hit, false, `score ${strict.similarity_score}`);
  });

  it('replaces only the same normalised query, not a paraphrase or the same words in another order', async () => {
    const { cache } = setup();
    const a = await cache.put({ tenant: 't', query: 'How much is 5 km in miles?', response: 'A' });
    const b = await cache.put({ tenant: 't', query: 'How much is 5 miles in km?', response: 'B' });
    const c = await cache.put({ tenant: 't', query: 'how can I convert 5 km to miles', response: 'C' });
    assert.equal(new Set([a.entry_id, b.entry_id, c.entry_id]).size, 3);
    const again = await cache.put({ tenant: 't', query: 'how much is 5 KM in miles', response: 'A2' });
    assert.equal(again.entry_id, a.entry_id);
    assert.equal((await cache.lookup({ tenant: 't', query: 'How much is 5 km in miles?' })).cached_response, 'A2');
    assert.equal((await cache.lookup({ tenant: 't', query: 'How much is 5 miles in km?' })).cached_response, 'B');
  });

  it('returns similarity 0 and no entry on an empty cache', async () => {
    const { cache } = setup();
    assert.deepEqual(await cache.lookup({ tenant: 't', query: 'anything at all' }), { cache_hit: false, similarity_score: 0, cached_response: null });
  });

  it('the returned score is the one the threshold decided on', async () => {
    const { cache } = setup();
    await cache.put({ tenant: 't', query: 'How do I reset my password?', response: 'R' });
    const r = await cache.lookup({ tenant: 't', query: 'What is the best way to reset a forgotten password?', threshold: 0 });
    assert.equal(r.cache_hit, true);
    const strict = await cache.lookup({ tenant: 't', query: 'What is the best way to reset a forgotten password?', threshold: r.similarity_score + 0.0001 });
    assert.equal(strict.cache_hit, false);
    assert.equal(strict.similarity_score, r.similarity_score);
  });
});

describe('semantic cache: isolation, TTL, capacity', () => {
  it('never serves another tenant or another namespace', async () => {
    const { cache } = setup();
    await cache.put({ tenant: 'a', query: 'How do I reset my password?', response: 'A' });
    assert.equal((await cache.lookup({ tenant: 'b', query: 'How do I reset my password?' })).cache_hit, false);
    assert.equal((await cache.lookup({ tenant: 'a', namespace: 'other', query: 'How do I reset my password?' })).cache_hit, false);
    assert.equal((await cache.lookup({ tenant: 'a', query: 'How do I reset my password?' })).cached_response, 'A');
  });

  it('honours ttl_seconds exactly: served 1 ms before expiry, never at expiry', async () => {
    const { cache, clock } = setup();
    const t0 = clock.t;
    await cache.put({ tenant: 't', query: 'capital of france', response: 'Paris', ttl_seconds: 10 });
    clock.t = t0 + 9_999;
    assert.equal((await cache.lookup({ tenant: 't', query: 'capital of france' })).cache_hit, true);
    clock.t = t0 + 10_000;
    assert.equal((await cache.lookup({ tenant: 't', query: 'capital of france' })).cache_hit, false);
  });

  it('maintain() removes expired entries from memory', async () => {
    const { cache, store, clock } = setup();
    for (let i = 0; i < 20; i++) await cache.put({ tenant: 't', query: `question number ${i} about rivers`, response: 'x', ttl_seconds: 1 });
    assert.equal(store.stats().entries, 20);
    clock.t += 1000;
    store.maintain(clock.t);
    assert.equal(store.stats().entries, 0);
    assert.equal(store.heapSize(), 0);
  });

  it('evicts the least recently used entry of the tenant past CACHE_MAX_ENTRIES, not other tenants', async () => {
    const { cache, store, clock } = setup(3);
    const ids: string[] = [];
    for (const q of ['capital of france', 'largest ocean on earth', 'boiling point of water']) {
      ids.push((await cache.put({ tenant: 't', query: q, response: q })).entry_id);
      clock.t += 1;
    }
    await cache.put({ tenant: 'other', query: 'capital of france', response: 'o' });
    clock.t += 1;
    assert.equal((await cache.lookup({ tenant: 't', query: 'capital of france' })).cache_hit, true); // now most recent
    await cache.put({ tenant: 't', query: 'speed of light in vacuum', response: 'c' });
    assert.equal(store.tenantSize('t'), 3);
    assert.equal((await cache.lookup({ tenant: 't', query: 'largest ocean on earth' })).cache_hit, false, 'LRU entry evicted');
    assert.equal((await cache.lookup({ tenant: 't', query: 'capital of france' })).cache_hit, true);
    assert.equal((await cache.lookup({ tenant: 'other', query: 'capital of france' })).cached_response, 'o');
  });

  it('storing the same query again replaces it and keeps the entry_id', async () => {
    const { cache, store } = setup();
    const a = await cache.put({ tenant: 't', query: 'How do I reset my password?', response: 'old' });
    const b = await cache.put({ tenant: 't', query: 'how do i reset my password', response: 'new' });
    assert.equal(b.entry_id, a.entry_id);
    assert.equal(store.stats().entries, 1);
    assert.equal((await cache.lookup({ tenant: 't', query: 'How do I reset my password?' })).cached_response, 'new');
  });

  it('flush deletes one namespace of one tenant and says how many', async () => {
    const { cache } = setup();
    await cache.put({ tenant: 't', namespace: 'n', query: 'capital of france', response: 'x' });
    await cache.put({ tenant: 't', namespace: 'n', query: 'largest ocean on earth', response: 'y' });
    await cache.put({ tenant: 't', namespace: 'keep', query: 'capital of france', response: 'z' });
    await cache.put({ tenant: 'u', namespace: 'n', query: 'capital of france', response: 'w' });
    assert.deepEqual(await cache.flush({ tenant: 't', namespace: 'n' }), { flushed: 2 });
    assert.equal((await cache.lookup({ tenant: 't', namespace: 'n', query: 'capital of france' })).cache_hit, false);
    assert.equal((await cache.lookup({ tenant: 't', namespace: 'keep', query: 'capital of france' })).cached_response, 'z');
    assert.equal((await cache.lookup({ tenant: 'u', namespace: 'n', query: 'capital of france' })).cached_response, 'w');
    assert.deepEqual(await cache.flush({ tenant: 't', namespace: 'n' }), { flushed: 0 });
  });

  it('keeps memory bounded under a long store loop at capacity (entries, heap, index slots)', async () => {
    const { cache, store } = setup(200);
    for (let i = 0; i < 5000; i++) await cache.put({ tenant: 't', query: `order ${i} shipping status for customer ${i * 7}`, response: 'r'.repeat(100) });
    const s = store.stats();
    assert.equal(s.entries, 200);
    assert.ok(store.heapSize() <= 1024 + 2 * 200, `heap ${store.heapSize()}`);
    assert.ok(s.indexBytes < 2_000_000, `index bytes ${s.indexBytes}`);
  });

  it('gives the same answers with the brute-force index', async () => {
    const { cache } = setup(1000, 'brute');
    await cache.put({ tenant: 't', query: 'How do I reset my password?', response: 'R' });
    assert.equal((await cache.lookup({ tenant: 't', query: 'how can I reset my password', threshold: PARAPHRASE_THRESHOLD })).cache_hit, true);
    assert.equal((await cache.lookup({ tenant: 't', query: 'How do I reset my router?', threshold: PARAPHRASE_THRESHOLD })).cache_hit, false);
  });
});

/** Counts HnswIndex searches until the end of the test. */
let restoreSearch: (() => void) | null = null;
function countSearches(): { n: number } {
  const counter = { n: 0 };
  const real = HnswIndex.prototype.search;
  HnswIndex.prototype.search = function (this: HnswIndex, ...args: Parameters<HnswIndex['search']>) {
    counter.n++;
    return real.apply(this, args);
  };
  restoreSearch = () => {
    HnswIndex.prototype.search = real;
  };
  return counter;
}

describe('semantic cache: claiming the winner', () => {
  afterEach(() => {
    restoreSearch?.();
    restoreSearch = null;
  });

  it('tries the next best candidate when the winner is gone from the store (deleted through another gateway)', async () => {
    const { cache, store } = setup();
    const exact = await cache.put({ tenant: 't', query: 'How do I reset my password?', response: 'exact' });
    // Scores ~0.4 against the query: a separate entry (no replace), above the lookup's threshold 0.3.
    await cache.put({ tenant: 't', query: 'What are the steps to reset my password?', response: 'paraphrase' });
    const claims: string[] = [];
    // The store's mirror still offers `exact`, but the shared state no longer holds it.
    const realClaim = store.claim.bind(store);
    store.claim = (scope, id, now) => {
      claims.push(id);
      return id === exact.entry_id ? null : realClaim(scope, id, now);
    };
    const r = await cache.lookup({ tenant: 't', query: 'How do I reset my password?', threshold: 0.3 });
    assert.equal(r.cached_response, 'paraphrase');
    assert.ok(r.similarity_score < 1, 'the score is the claimed entry\'s own');
    assert.equal(claims[0], exact.entry_id, 'the best candidate is claimed first');
    assert.equal(claims.length, 2);
  });

  it('answers a live exact repeat without searching the index; the search comes back once its claim failed', async () => {
    const { cache, store, clock } = setup();
    const exact = await cache.put({ tenant: 't', query: 'How do I reset my password?', response: 'exact' });
    const para = await cache.put({ tenant: 't', query: 'What are the steps to reset my password?', response: 'paraphrase' });
    const searches = countSearches();
    const hit = await cache.lookup({ tenant: 't', query: 'how do i reset my password' });
    assert.deepEqual([hit.cached_response, hit.similarity_score, hit.entry_id], ['exact', 1, exact.entry_id]);
    assert.equal(searches.n, 0, 'an exact repeat needs no search');
    // A store of the same query replaces the exact entry (same id), still without a search.
    assert.equal((await cache.put({ tenant: 't', query: 'How do I reset my password?', response: 'exact 2' })).entry_id, exact.entry_id);
    assert.equal(searches.n, 0);
    assert.equal((await cache.lookup({ tenant: 't', query: 'how can I reset my password', threshold: 0.5 })).cache_hit, true);
    assert.equal(searches.n, 1, 'anything else is searched');
    // The exact entry is gone at claim time (another gateway): the next best is found by a search.
    const realClaim = store.claim.bind(store);
    store.claim = (scope, id, now) => (id === exact.entry_id ? null : realClaim(scope, id, now));
    const next = await cache.lookup({ tenant: 't', query: 'How do I reset my password?', threshold: 0.3 });
    assert.deepEqual([next.cached_response, next.entry_id], ['paraphrase', para.entry_id]);
    assert.equal(searches.n, 2);
    // An expired exact entry takes no fast path either.
    store.claim = realClaim;
    clock.t += 86_400_000;
    await cache.put({ tenant: 't', query: 'What are the steps to reset my password?', response: 'fresh' });
    const fresh = await cache.lookup({ tenant: 't', query: 'How do I reset my password?', threshold: 0.3 });
    assert.equal(fresh.cached_response, 'fresh');
    assert.ok(fresh.similarity_score < 1);
  });

  it('claims nothing on a miss', async () => {
    const { cache, store } = setup();
    await cache.put({ tenant: 't', query: 'How do I reset my password?', response: 'R' });
    let claims = 0;
    const realClaim = store.claim.bind(store);
    store.claim = (scope, id, now) => {
      claims++;
      return realClaim(scope, id, now);
    };
    const r = await cache.lookup({ tenant: 't', query: 'How do I reset my router?' });
    assert.equal(r.cache_hit, false);
    assert.equal(claims, 0);
  });
});
