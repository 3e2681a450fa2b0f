/**
 * API-05 request and response schemas (CONTRACT.md §5). One body shape for the three operations:
 * `flush: true` = flush, `response` present = store, else lookup. `query` is required for lookup
 * and store (checked in the route, since a flush does not need it).
 */
import { Type, type Static } from '@sinclair/typebox';
import { DEFAULT_THRESHOLD } from './core.ts';

export const MAX_QUERY_CHARS = 8192;
export const MAX_NAMESPACE_CHARS = 64;
export const MAX_TTL_SECONDS = 2_592_000;

export const SemanticCacheRequest = Type.Object({
  query: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_QUERY_CHARS, description: 'The prompt or question; required for lookup and store' })),
  threshold: Type.Optional(Type.Number({ minimum: 0, maximum: 1, default: DEFAULT_THRESHOLD, description: 'Lookup: smallest score that counts as a hit; the score is the estimated probability that the cached answer is right for the query' })),
  namespace: Type.Optional(Type.String({ maxLength: MAX_NAMESPACE_CHARS, description: 'Partition inside the caller\'s tenant; default "default"' })),
  response: Type.Optional(Type.String({ maxLength: 65536, description: 'Store: the answer to cache (at most 64 KiB of UTF-8)' })),
  ttl_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_TTL_SECONDS, default: 86400, description: 'Store: lifetime of the entry' })),
  flush: Type.Optional(Type.Boolean({ description: 'true: delete every entry of `namespace` for the caller\'s tenant' })),
}, {
  examples: [
    { query: 'How do I reset my password?', response: 'Open Settings > Security > Reset password.', namespace: 'support', ttl_seconds: 3600 },
    { query: 'how can I reset my password', namespace: 'support', threshold: DEFAULT_THRESHOLD },
    { flush: true, namespace: 'support' },
  ],
});
export type SemanticCacheRequest = Static<typeof SemanticCacheRequest>;

export const SemanticCacheResponse = Type.Object({
  cache_hit: Type.Optional(Type.Boolean()),
  similarity_score: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'Best score found: the estimated probability that the cached answer is right for the query (1 for an exact repeat); 0 when nothing is cached' })),
  cached_response: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  entry_id: Type.Optional(Type.String()),
  stored: Type.Optional(Type.Literal(true)),
  flushed: Type.Optional(Type.Integer({ minimum: 0 })),
});
