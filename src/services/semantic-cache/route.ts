/** POST /v1/cache/semantic and /v1/api/05-semantic-cache: lookup, store or flush, decided by the body. */
import { createError } from '../../errors.ts';
import type { RouteDef } from '../../server/types.ts';
import type { SemanticCache } from './core.ts';
import { SemanticCacheRequest, SemanticCacheResponse } from './schema.ts';

export const SEMANTIC_CACHE_LABEL = '[API-05] Semantic Cache';

export function semanticCacheRoute(cache: SemanticCache): RouteDef<typeof SemanticCacheRequest> {
  return {
    method: 'POST',
    paths: ['/v1/cache/semantic', '/v1/api/05-semantic-cache'],
    api: SEMANTIC_CACHE_LABEL,
    service: 'API-05',
    summary: 'Semantic cache: lookup, store (with `response`) or flush (`flush: true`)',
    description:
      'Lookup returns the cached response of the most similar verified query of the caller\'s tenant and namespace when its ' +
      'final score reaches `threshold`. A body with `response` stores it; `{"flush": true, "namespace": ...}` deletes the namespace.',
    tags: ['API-05'],
    body: SemanticCacheRequest,
    response: SemanticCacheResponse,
    handler: async (ctx) => {
      const b = ctx.body;
      const tenant = ctx.principal.tenantId;
      if (b.flush === true) return cache.flush({ tenant, namespace: b.namespace });
      if (b.query === undefined) {
        throw createError('VALIDATION_FAILED', 'Request body failed validation', { details: [{ path: '/query', message: 'Required property is missing' }] });
      }
      if (b.response !== undefined) {
        return cache.put({ tenant, namespace: b.namespace, query: b.query, response: b.response, ttl_seconds: b.ttl_seconds });
      }
      return cache.lookup({ tenant, namespace: b.namespace, query: b.query, threshold: b.threshold });
    },
  };
}
