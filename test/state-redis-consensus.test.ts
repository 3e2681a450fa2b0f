/**
 * API-21 on Redis: the consensus store contract (test/helpers/consensus-store-contract.ts,
 * unchanged) against RedisLockStore + RedisProposalStore, with real time passing (leases run on
 * the Redis clock). Runs when REDIS_URL is set; skipped (with the reason) otherwise.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { RedisConnection } from '../src/state/redis-connection.ts';
import { RedisLockStore } from '../src/state/redis-lock-store.ts';
import { RedisProposalStore, valueOf } from '../src/state/redis-proposal-store.ts';
import { valueKey } from '../src/services/consensus/quorum.ts';
import { storeContract } from './helpers/consensus-store-contract.ts';
import { deleteKeys, REDIS_SKIP, REDIS_URL, uniquePrefix } from './helpers/redis.ts';

const prefixes: string[] = [];
after(async () => {
  if (REDIS_URL !== null) for (const p of prefixes) await deleteKeys(REDIS_URL, p);
});

describe('Redis stores pass the consensus store contract', { skip: REDIS_SKIP }, () => {
  storeContract('redis', async (options) => {
    const keyPrefix = uniquePrefix('consensus');
    prefixes.push(keyPrefix);
    const conn = await RedisConnection.connect({ url: REDIS_URL!, keyPrefix });
    const locks = new RedisLockStore(conn, { maxResources: options.maxResources, maxWaiters: options.maxWaiters });
    const proposals = new RedisProposalStore(conn, { ttlMs: options.proposalTtlMs, maxProposals: options.maxProposals, maxVoters: options.maxVoters });
    return {
      locks,
      proposals,
      advance: (ms) => new Promise((r) => setTimeout(r, ms)),
      close: async () => {
        await locks.close();
        await proposals.close();
        await conn.close();
      },
    };
  });
});

describe('vote values through Redis', () => {
  it('rebuilds every kind of value from its key', () => {
    for (const v of ['x', '', 'n:1', '1', 1, 0, -2.5, 1e21, true, false]) assert.deepEqual(valueOf(valueKey(v)), v);
  });
});
