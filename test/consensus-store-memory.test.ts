import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock } from '../src/services/consensus/clock.ts';
import { ExpiryHeap } from '../src/services/consensus/expiry-heap.ts';
import { FenceSequence } from '../src/services/consensus/fence.ts';
import { MemoryLockStore } from '../src/services/consensus/memory-lock-store.ts';
import { MemoryProposalStore } from '../src/services/consensus/memory-proposal-store.ts';
import { storeContract, type StoreHarnessOptions } from './helpers/consensus-store-contract.ts';

function memoryStores(options: StoreHarnessOptions, clock = new ManualClock()) {
  const locks = new MemoryLockStore({ clock, maxResources: options.maxResources, maxWaiters: options.maxWaiters });
  const proposals = new MemoryProposalStore({ clock, ttlMs: options.proposalTtlMs, maxProposals: options.maxProposals, maxVoters: options.maxVoters });
  return { clock, locks, proposals };
}

describe('in-memory stores pass the store contract', () => {
  storeContract('memory', async (options) => {
    const { clock, locks, proposals } = memoryStores(options);
    return {
      locks,
      proposals,
      advance: async (ms) => {
        clock.advance(ms);
      },
      close: async () => {
        await locks.close();
        await proposals.close();
      },
    };
  });
});

describe('in-memory lock store', () => {
  const acq = (resource: string, agentId: string, ttlMs = 1000) => ({ resource, agentId, ttlMs, waitMs: 0, token: null });

  it('measures leases on the monotonic clock: a wall-clock jump neither extends nor shortens them', async () => {
    const clock = new ManualClock();
    const store = new MemoryLockStore({ clock, maxResources: 10 });
    const a = await store.acquire('t', acq('fwd', 'a', 1000));
    const b = await store.acquire('t', acq('back', 'b', 1000));
    clock.jumpWall(3_600_000);
    clock.advance(999);
    assert.equal((await store.validate('t', 'fwd', a.token!)).valid, true);
    clock.jumpWall(-7_200_000);
    clock.advance(1);
    assert.equal((await store.validate('t', 'back', b.token!)).valid, false);
    assert.equal((await store.validate('t', 'fwd', a.token!)).valid, false);
  });

  it('starts tokens above those of an earlier run with an earlier wall clock (restart)', async () => {
    const before = new MemoryLockStore({ clock: new ManualClock({ wall: Date.UTC(2026, 5, 1, 12) }), maxResources: 10 });
    let last = 0;
    for (let i = 0; i < 5000; i++) last = (await before.acquire('t', acq(`r${i % 5}`, `a${i}`, 100))).token ?? last;
    const after = new MemoryLockStore({ clock: new ManualClock({ wall: Date.UTC(2026, 5, 1, 12) + 1000 }), maxResources: 10 });
    const first = (await after.acquire('t', acq('r0', 'a'))).token!;
    assert.ok(first > last, `${first} <= ${last}`);
    assert.ok(Number.isSafeInteger(first));
  });

  it('keeps memory bounded: expired leases are swept and renewals do not pile up in the heap', async () => {
    const clock = new ManualClock();
    const store = new MemoryLockStore({ clock, maxResources: 100_000 });
    for (let i = 0; i < 2000; i++) await store.acquire('t', acq(`r${i}`, 'a', 100));
    clock.advance(200);
    for (let i = 0; i < 2000; i++) await store.acquire('t', acq(`s${i}`, 'a', 100));
    const token = (await store.acquire('t', acq('hot', 'a', 100_000))).token!;
    for (let i = 0; i < 5000; i++) await store.renew('t', { resource: 'hot', agentId: 'a', token, ttlMs: 100_000 });
    const s = store.stats();
    // Each operation sweeps a few expired leases on the side: the 2000 expired `r` leases are gone.
    assert.ok(s.resources <= 2001 + 4, `resources ${s.resources}`);
    assert.ok(s.heapEntries <= 2 * s.resources + 64 + 1, `heap ${s.heapEntries} for ${s.resources} resources`);
  });

  it('leaves no timer behind when the last waiter leaves', async () => {
    const clock = new ManualClock();
    const store = new MemoryLockStore({ clock, maxResources: 10 });
    await store.acquire('t', acq('db', 'a', 10_000));
    const wait = store.acquire('t', { ...acq('db', 'b'), waitMs: 100 });
    assert.equal(clock.pendingTimers, 2);
    clock.advance(100);
    assert.equal((await wait).reason, 'WAIT_TIMEOUT');
    assert.equal(clock.pendingTimers, 0);
  });

  it('checks its options', () => {
    assert.throws(() => new MemoryLockStore({ clock: new ManualClock(), maxResources: 0 }), RangeError);
    assert.throws(() => new MemoryProposalStore({ clock: new ManualClock(), ttlMs: 1000, maxProposals: 1.5 }), RangeError);
  });
});

describe('expiry heap', () => {
  it('pops entries in time order whatever the push order', () => {
    const heap = new ExpiryHeap();
    const times = Array.from({ length: 500 }, (_, i) => (i * 7919) % 503);
    times.forEach((at, i) => heap.push({ at, resource: `r${i}`, token: i }));
    const out: number[] = [];
    for (let e = heap.pop(); e !== undefined; e = heap.pop()) out.push(e.at);
    assert.deepEqual(out, [...times].sort((a, b) => a - b));
  });
});

describe('fence sequence', () => {
  it('strictly increases from wall-clock ms x 1000', () => {
    const f = new FenceSequence(1_700_000_000_000);
    assert.equal(f.next(), 1_700_000_000_000_001);
    assert.equal(f.next(), 1_700_000_000_000_002);
    assert.throws(() => new FenceSequence(Number.NaN), RangeError);
  });
});
