/**
 * API-05 core: lookup, store and flush over an Embedder and a CacheStore. Plain data in and out;
 * no HTTP, no logging (nothing cached is ever logged).
 *
 * Lookup: embed the query -> the store's nearest live entries of (tenant, namespace) -> the
 * learned verifier re-scores them (embeddings/learned-verify.ts): the score is the calibrated
 * probability that the cached answer is right for the query -> the best score decides against
 * the caller's threshold. An exact repeat (same normalised words in the same order) scores 1.
 */
import { createError } from '../../errors.ts';
import type { Embedder, EmbeddedText } from '../../embeddings/index.ts';
import type { CacheStore, Scope } from './store.ts';

/** Candidates the index returns for verification. */
export const CANDIDATES = 5;
/**
 * Default lookup threshold: a calibrated probability, chosen by leave-one-dataset-out
 * (npm run train:cache; the model file's meta holds the same value, a test checks they agree).
 */
export const DEFAULT_THRESHOLD = 0.99;
export const DEFAULT_TTL_SECONDS = 86_400;
export const DEFAULT_NAMESPACE = 'default';
export const MAX_RESPONSE_BYTES = 64 * 1024;

export interface LookupInput {
  readonly tenant: string;
  readonly namespace?: string;
  readonly query: string;
  readonly threshold?: number;
}

export type LookupResult = {
  cache_hit: boolean;
  similarity_score: number;
  cached_response: string | null;
  entry_id?: string;
};

export interface StoreInput extends LookupInput {
  readonly response: string;
  readonly ttl_seconds?: number;
}

export type StoreResult = {
  stored: true;
  entry_id: string;
  cache_hit: false;
};

export interface SemanticCacheOptions {
  readonly embedder: Embedder;
  readonly store: CacheStore;
  /** Clock in ms (tests move it). */
  readonly now?: () => number;
}

interface Best {
  score: number;
  id: string | null;
}

/** Winners claimed in one lookup at most: each failed claim means another gateway just deleted it. */
const MAX_CLAIMS = 3;

export class SemanticCache {
  private readonly embedder: Embedder;
  private readonly store: CacheStore;
  private readonly now: () => number;

  constructor(options: SemanticCacheOptions) {
    this.embedder = options.embedder;
    this.store = options.store;
    this.now = options.now ?? Date.now;
  }

  /**
   * Finds the best verified entry of the caller's tenant and namespace.
   * @example await cache.lookup({ tenant: 'public', query: 'How do I reset my password?' })
   */
  async lookup(input: LookupInput): Promise<LookupResult> {
    const threshold = input.threshold ?? DEFAULT_THRESHOLD;
    const scope = scopeOf(input);
    const q = await this.embedder.embed(input.query);
    const now = this.now();
    // Candidates are verified on local data; only the winner's response is claimed from the store
    // (a Redis round trip on STATE_BACKEND=redis, none for a miss). A winner that is gone there
    // (deleted through another gateway a moment ago) makes way for the next best.
    const gone = new Set<string>();
    let score = 0;
    for (let attempt = 0; attempt < MAX_CLAIMS; attempt++) {
      const best = await this.best(scope, q, now, gone);
      // The decision uses the score as returned, so a caller can reproduce it from the body.
      score = round(best.score);
      if (best.id === null || score < threshold) break;
      const response = await this.store.claim(scope, best.id, now);
      if (response !== null) return { cache_hit: true, similarity_score: score, cached_response: response, entry_id: best.id };
      gone.add(best.id);
      score = 0;
    }
    return { cache_hit: false, similarity_score: score, cached_response: null };
  }

  /**
   * Stores `response` for `query`. Replaces (same entry_id) the entry of the same normalised query
   * (same words and symbols in the same order; case, spacing and punctuation aside: "O+" is not
   * "O-"). A score, however high, is
   * a probability, not identity: "5 km in miles" and "5 miles in km" keep their own entries.
   */
  async put(input: StoreInput): Promise<StoreResult> {
    if (Buffer.byteLength(input.response, 'utf8') > MAX_RESPONSE_BYTES) {
      throw createError('VALIDATION_FAILED', 'Request body failed validation', {
        details: [{ path: '/response', message: `Expected at most ${MAX_RESPONSE_BYTES} bytes of UTF-8` }],
      });
    }
    const scope = scopeOf(input);
    const q = await this.embedder.embed(input.query);
    const now = this.now();
    // Only an exact repeat is replaced: the store's fast path finds it without verifying anything.
    const candidates = await this.store.candidates(scope, q.vector, q.fingerprint, 1, now);
    const replace = candidates.find((c) => c.exact)?.id;
    const ttlMs = (input.ttl_seconds ?? DEFAULT_TTL_SECONDS) * 1000;
    const id = await this.store.put(scope, { vector: q.vector, features: q.features, fingerprint: q.fingerprint, response: input.response, ttlMs }, now, replace);
    return { stored: true, entry_id: id, cache_hit: false };
  }

  /** Deletes one namespace of one tenant. */
  async flush(input: { tenant: string; namespace?: string }): Promise<{ flushed: number }> {
    return { flushed: await this.store.flush(scopeOf(input)) };
  }

  private async best(scope: Scope, q: EmbeddedText, now: number, skip?: ReadonlySet<string>): Promise<Best> {
    // A live exact repeat comes back alone (no search) unless it is skipped: its claim failed.
    const candidates = await this.store.candidates(scope, q.vector, q.fingerprint, CANDIDATES, now, skip);
    const best: Best = { score: 0, id: null };
    for (const c of candidates) {
      if (skip?.has(c.id)) continue;
      if (c.exact) return { score: 1, id: c.id };
      const v = this.embedder.verify(c.cosine, q.features, c.features);
      if (v.score > best.score) {
        best.score = v.score;
        best.id = c.id;
      }
    }
    return best;
  }
}

function scopeOf(input: { tenant: string; namespace?: string }): Scope {
  return { tenant: input.tenant, namespace: input.namespace ?? DEFAULT_NAMESPACE };
}

/** Scores go out with 4 decimals: enough to compare with a threshold, stable across runs. */
function round(x: number): number {
  return Math.round(Math.min(1, Math.max(0, x)) * 10_000) / 10_000;
}
