/**
 * One CacheStore contract, two implementations: MemoryCacheStore always, RedisCacheStore when
 * REDIS_URL is set (skipped with the reason otherwise).
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { MemoryCacheStore } from '../src/services/semantic-cache/store.ts';
import { RedisCacheStore } from '../src/state/redis-cache-store.ts';
import { RedisConnection } from '../src/state/redis-connection.ts';
import { cacheStoreContract } from './helpers/cache-store-contract.ts';
import { deleteKeys, REDIS_SKIP, REDIS_URL, uniquePrefix } from './helpers/redis.ts';

const prefixes: string[] = [];
after(async () => {
  if (REDIS_URL !== null) for (const p of prefixes) await deleteKeys(REDIS_URL, p);
});

cacheStoreContract('memory', async ({ dims, maxEntries }) => ({ store: new MemoryCacheStore({ dims, maxEntries }), close: async () => undefined }));

cacheStoreContract(
  'redis',
  async ({ dims, maxEntries }) => {
    const keyPrefix = uniquePrefix('cache-contract');
    prefixes.push(keyPrefix);
    const conn = await RedisConnection.connect({ url: REDIS_URL!, keyPrefix });
    const store = await RedisCacheStore.open(conn, { dims, maxEntries });
    return {
      store,
      close: async () => {
        await store.close();
        await conn.close();
      },
    };
  },
  { skip: REDIS_SKIP },
);

describe('CacheStore options', () => {
  it('refuses store options that the contract cannot hold', () => {
    assert.throws(() => new MemoryCacheStore({ dims: 0, maxEntries: 1 }), RangeError);
    assert.throws(() => new MemoryCacheStore({ dims: 8, maxEntries: 0 }), RangeError);
  });
});
