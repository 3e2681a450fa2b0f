/**
 * Where shared state lives (STATE_BACKEND). `memory` (default): nothing here, every store is the
 * in-process one its service builds. `redis`: one RedisConnection per gateway, opened at boot
 * (boot fails clearly when Redis does not answer), and the Redis stores built on it:
 *
 *   quotas      RedisUsageStore + RedisRateLimiter   (src/auth, via gateway.ts)
 *   API-21      RedisLockStore + RedisProposalStore  (src/services/consensus/index.ts)
 *   API-05      RedisCacheStore                      (src/services/semantic-cache/index.ts)
 *
 * Services receive the backend as the optional `deps.state` and pick their Redis store when
 * `deps.state.redis` is set.
 */
import type { Config } from '../config.ts';
import type { Logger } from '../observability/logger.ts';
import { RedisConnection } from './redis-connection.ts';
import { RedisRateLimiter } from './redis-rate-limiter.ts';
import { RedisUsageStore } from './redis-usage-store.ts';

export { RedisConnection, RedisUnavailableError, redactUrl } from './redis-connection.ts';
export { RedisUsageStore } from './redis-usage-store.ts';
export { RedisRateLimiter } from './redis-rate-limiter.ts';

export interface StateOptions {
  /** Prefix of every Redis key; default `gw:`. Tests give each run its own and delete it after. */
  readonly keyPrefix?: string;
}

export interface StateBackend {
  readonly kind: 'memory' | 'redis';
  /** The shared connection; null with STATE_BACKEND=memory. */
  readonly redis: RedisConnection | null;
  /** Redis stores for keys and quotas; null with memory (src/auth builds its own). */
  readonly usageStore: RedisUsageStore | null;
  readonly rateLimiter: RedisRateLimiter | null;
  close(): Promise<void>;
}

const MEMORY: StateBackend = Object.freeze({ kind: 'memory', redis: null, usageStore: null, rateLimiter: null, close: async () => undefined });

/** Opens the backend the config selects; throws RedisUnavailableError when Redis is selected but unreachable. */
export async function createStateBackend(config: Config, logger: Logger, options: StateOptions = {}): Promise<StateBackend> {
  if (config.state.backend === 'memory') return MEMORY;
  const url = config.state.redisUrl;
  if (url === null) throw new TypeError('STATE_BACKEND=redis needs REDIS_URL');
  const redis = await RedisConnection.connect({ url, logger, ...(options.keyPrefix === undefined ? {} : { keyPrefix: options.keyPrefix }) });
  const usageStore = new RedisUsageStore(redis);
  const rateLimiter = new RedisRateLimiter(redis);
  return {
    kind: 'redis',
    redis,
    usageStore,
    rateLimiter,
    close: () => redis.close(),
  };
}
