/**
 * API-05 factory: loads the embedder at boot (GloVe binary, converted once if missing; or the
 * local transformers model, whose absence stops boot), builds the in-memory store and a
 * maintenance timer (TTL sweep + index rebuilds, once a second, unref'd).
 */
import type { ServiceFactory } from '../types.ts';
import { createEmbedder } from '../../embeddings/index.ts';
import { SemanticCache } from './core.ts';
import { semanticCacheRoute } from './route.ts';
import { MemoryCacheStore } from './store.ts';
import { RedisCacheStore } from '../../state/redis-cache-store.ts';

export const MAINTENANCE_INTERVAL_MS = 1000;

export const semanticCacheFactory: ServiceFactory = async (deps) => {
  const { config, logger } = deps;
  const started = performance.now();
  const embedder = await createEmbedder({
    embedder: config.cache.embedder,
    modelDir: config.cache.modelDir,
    dataDir: config.dataDir,
    log: (msg) => logger.info({ service: 'API-05' }, msg),
  });
  logger.info({ service: 'API-05', embedder: embedder.kind, dims: embedder.dims, ms: Math.round(performance.now() - started) }, 'semantic cache embedder ready');
  // STATE_BACKEND=redis: entries shared by every gateway on that Redis, each with its own index (src/state).
  const redis = deps.state?.redis ?? null;
  const store =
    redis === null
      ? new MemoryCacheStore({ dims: embedder.dims, maxEntries: config.cache.maxEntries })
      : await RedisCacheStore.open(redis, { dims: embedder.dims, maxEntries: config.cache.maxEntries });
  const cache = new SemanticCache({ embedder, store });
  const timer = setInterval(() => store.maintain(Date.now()), MAINTENANCE_INTERVAL_MS);
  timer.unref();
  return {
    id: 'API-05',
    routes: [semanticCacheRoute(cache)],
    // Redis unreachable: requests answer 503 OVERLOADED until it is back.
    health: () => (redis !== null && !redis.ready ? 'degraded' : 'up'),
    async close() {
      clearInterval(timer);
      if (store instanceof RedisCacheStore) await store.close();
      await embedder.close?.();
    },
  };
};
