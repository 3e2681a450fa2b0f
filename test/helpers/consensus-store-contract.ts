/**
 * The behaviour every API-21 store must have, as one suite that takes a store factory: the
 * in-memory stores run it in test/consensus-store-memory.test.ts, and a networked (Redis) store
 * runs the same function from its own test file. Time is moved by `harness.advance(ms)`: a manual
 * clock for the memory store, a real sleep for a store whose clock is a server's. Leases in here
 * are long enough (>= 200 ms) and margins wide enough (>= 50 ms) for a real clock.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { GatewayError } from '../../src/errors.ts';
import type { AcquireInput, AcquireOutcome, LockStore, ProposalStore, VoteInput } from '../../src/services/consensus/store.ts';
import type { QuorumSpec } from '../../src/services/consensus/quorum.ts';

export interface StoreHarnessOptions {
  readonly maxResources: number;
  readonly maxWaiters: number;
  readonly proposalTtlMs: number;
  readonly maxProposals: number;
  readonly maxVoters: number;
}

export interface StoreHarness {
  readonly locks: LockStore;
  readonly proposals: ProposalStore;
  /** Lets `ms` of lease time pass, running whatever falls due. */
  advance(ms: number): Promise<void>;
  close(): Promise<void>;
}

export type StoreFactory = (options: StoreHarnessOptions) => Promise<StoreHarness>;

export const CONTRACT_OPTIONS: StoreHarnessOptions = { maxResources: 5, maxWaiters: 3, proposalTtlMs: 1000, maxProposals: 3, maxVoters: 4 };

const T = 'tenant-a';
const count = (n: number): QuorumSpec => ({ kind: 'count', count: n });
const fraction = (f: number): QuorumSpec => ({ kind: 'fraction', fraction: f });

function acq(resource: string, agentId: string, extra: Partial<AcquireInput> = {}): AcquireInput {
  return { resource, agentId, ttlMs: 300, waitMs: 0, token: null, ...extra };
}

function vote(proposalId: string, agentId: string, value: VoteInput['value'], quorum: QuorumSpec, electorate: string[] | null = null): VoteInput {
  return { proposalId, agentId, value, quorum, electorate };
}

async function granted(p: Promise<AcquireOutcome>): Promise<number> {
  const o = await p;
  assert.equal(o.granted, true, `expected a grant, got ${o.reason}`);
  assert.equal(typeof o.token, 'number');
  return o.token!;
}

/** Settled or not, without waiting: lets a test assert that a waiter is still waiting. */
async function peek<T>(p: Promise<T>): Promise<T | 'pending'> {
  return Promise.race([p, new Promise<'pending'>((r) => setImmediate(() => r('pending')))]);
}

export function storeContract(name: string, factory: StoreFactory): void {
  let h: StoreHarness;
  let locks: LockStore;
  let proposals: ProposalStore;
  beforeEach(async () => {
    h = await factory(CONTRACT_OPTIONS);
    locks = h.locks;
    proposals = h.proposals;
  });
  afterEach(async () => {
    await h.close();
  });

  describe(`${name}: locks`, () => {
    it('grants a free resource with a token, the holder and the whole lease', async () => {
      const o = await locks.acquire(T, acq('db', 'a1', { ttlMs: 300 }));
      assert.equal(o.granted, true);
      assert.equal(o.reason, null);
      assert.ok(Number.isSafeInteger(o.token) && o.token! > 0);
      assert.equal(o.lock.holder, 'a1');
      assert.equal(o.lock.token, o.token);
      assert.ok(o.lock.expiresInMs! > 250 && o.lock.expiresInMs! <= 300);
      assert.equal(o.renewed, false);
    });

    it('refuses another agent while the lease lives and names the holder', async () => {
      await granted(locks.acquire(T, acq('db', 'a1')));
      const o = await locks.acquire(T, acq('db', 'a2'));
      assert.deepEqual([o.granted, o.reason, o.token, o.lock.holder], [false, 'LOCK_HELD', null, 'a1']);
    });

    it('grants again once the lease has expired, with a larger token', async () => {
      const first = await granted(locks.acquire(T, acq('db', 'a1', { ttlMs: 200 })));
      await h.advance(250);
      const second = await granted(locks.acquire(T, acq('db', 'a2')));
      assert.ok(second > first);
    });

    it('keeps the lease until its ttl and not beyond', async () => {
      await granted(locks.acquire(T, acq('db', 'a1', { ttlMs: 400 })));
      await h.advance(300);
      assert.equal((await locks.acquire(T, acq('db', 'a2'))).reason, 'LOCK_HELD');
      await h.advance(150);
      assert.equal((await locks.acquire(T, acq('db', 'a2'))).granted, true);
    });

    it('never reuses a token: increasing across release, expiry and resources', async () => {
      const seen: number[] = [];
      for (let i = 0; i < 6; i++) {
        const resource = i % 2 === 0 ? 'db' : 'queue';
        const token = await granted(locks.acquire(T, acq(resource, `a${i}`, { ttlMs: 200 })));
        seen.push(token);
        if (i % 3 === 0) assert.equal((await locks.release(T, { resource, agentId: `a${i}`, token })).released, true);
        else await h.advance(210);
      }
      for (let i = 1; i < seen.length; i++) assert.ok(seen[i]! > seen[i - 1]!, `token ${i} did not increase`);
    });

    it("treats a holder's acquire with its own token as a renewal (same token, later end)", async () => {
      const token = await granted(locks.acquire(T, acq('db', 'a1', { ttlMs: 300 })));
      await h.advance(200);
      const o = await locks.acquire(T, acq('db', 'a1', { ttlMs: 300, token }));
      assert.deepEqual([o.granted, o.renewed, o.token], [true, true, token]);
      assert.ok(o.lock.expiresInMs! > 250);
      await h.advance(200);
      assert.equal((await locks.validate(T, 'db', token)).valid, true);
    });

    it("refuses a holder's acquire without its token, or with an older one", async () => {
      const old = await granted(locks.acquire(T, acq('db', 'a1', { ttlMs: 200 })));
      await h.advance(210);
      const token = await granted(locks.acquire(T, acq('db', 'a1')));
      assert.equal((await locks.acquire(T, acq('db', 'a1'))).reason, 'HELD_BY_CALLER');
      assert.equal((await locks.acquire(T, acq('db', 'a1', { token: old }))).reason, 'STALE_TOKEN');
      assert.equal((await locks.status(T, 'db')).token, token);
    });

    it('grants a fresh lease to an acquire whose token has expired and nobody holds the lock', async () => {
      const old = await granted(locks.acquire(T, acq('db', 'a1', { ttlMs: 200 })));
      await h.advance(250);
      const o = await locks.acquire(T, acq('db', 'a1', { token: old }));
      assert.equal(o.granted, true);
      assert.equal(o.renewed, false);
      assert.ok(o.token! > old);
    });

    it('renews a live lease from now, with its own ttl unless another is given', async () => {
      const token = await granted(locks.acquire(T, acq('db', 'a1', { ttlMs: 300 })));
      await h.advance(200);
      const same = await locks.renew(T, { resource: 'db', agentId: 'a1', token, ttlMs: null });
      assert.equal(same.granted, true);
      assert.ok(same.lock.expiresInMs! > 250 && same.lock.expiresInMs! <= 300);
      const longer = await locks.renew(T, { resource: 'db', agentId: 'a1', token, ttlMs: 2000 });
      assert.ok(longer.lock.expiresInMs! > 1900);
    });

    it('refuses a renewal with a stale token, another agent or an ended lease, and changes nothing', async () => {
      const old = await granted(locks.acquire(T, acq('db', 'a1', { ttlMs: 200 })));
      await h.advance(210);
      const token = await granted(locks.acquire(T, acq('db', 'a2', { ttlMs: 300 })));
      const before = await locks.status(T, 'db');
      const stale = await locks.renew(T, { resource: 'db', agentId: 'a1', token: old, ttlMs: 5000 });
      assert.deepEqual([stale.granted, stale.reason, stale.lock.holder], [false, 'STALE_TOKEN', 'a2']);
      const other = await locks.renew(T, { resource: 'db', agentId: 'a1', token, ttlMs: 5000 });
      assert.deepEqual([other.granted, other.reason], [false, 'NOT_HOLDER']);
      const after = await locks.status(T, 'db');
      assert.equal(after.token, before.token);
      assert.ok(after.expiresInMs! <= before.expiresInMs!);
      await h.advance(310);
      const ended = await locks.renew(T, { resource: 'db', agentId: 'a2', token, ttlMs: null });
      assert.deepEqual([ended.granted, ended.reason], [false, 'NOT_HELD']);
    });

    it('releases with the current token only; a stale or repeated release changes nothing', async () => {
      const old = await granted(locks.acquire(T, acq('db', 'a1', { ttlMs: 200 })));
      await h.advance(210);
      const token = await granted(locks.acquire(T, acq('db', 'a2')));
      const stale = await locks.release(T, { resource: 'db', agentId: 'a1', token: old });
      assert.deepEqual([stale.released, stale.reason, stale.lock.holder], [false, 'STALE_TOKEN', 'a2']);
      assert.equal((await locks.release(T, { resource: 'db', agentId: 'a3', token })).reason, 'NOT_HOLDER');
      assert.equal((await locks.status(T, 'db')).holder, 'a2');
      const ok = await locks.release(T, { resource: 'db', agentId: 'a2', token });
      assert.deepEqual([ok.released, ok.reason, ok.lock.holder], [true, null, null]);
      assert.equal((await locks.release(T, { resource: 'db', agentId: 'a2', token })).reason, 'NOT_HELD');
      assert.equal((await locks.status(T, 'never-locked')).holder, null);
    });

    it('validates only the current token of a live lease', async () => {
      const t1 = await granted(locks.acquire(T, acq('db', 'a1', { ttlMs: 200 })));
      assert.deepEqual(await locks.validate(T, 'db', t1).then((v) => [v.valid, v.reason]), [true, null]);
      assert.equal((await locks.validate(T, 'db', t1 + 1)).reason, 'STALE_TOKEN');
      await h.advance(210);
      assert.deepEqual(await locks.validate(T, 'db', t1).then((v) => [v.valid, v.reason]), [false, 'NOT_HELD']);
      const t2 = await granted(locks.acquire(T, acq('db', 'a2')));
      const v = await locks.validate(T, 'db', t1);
      assert.deepEqual([v.valid, v.reason, v.lock.token], [false, 'STALE_TOKEN', t2]);
      await locks.release(T, { resource: 'db', agentId: 'a2', token: t2 });
      assert.equal((await locks.validate(T, 'db', t2)).valid, false);
    });

    it('queues waiting acquires first come, first served, as the lock is released', async () => {
      let token = await granted(locks.acquire(T, acq('db', 'a0', { ttlMs: 5000 })));
      const waits = ['a1', 'a2', 'a3'].map((a) => locks.acquire(T, acq('db', a, { ttlMs: 5000, waitMs: 3000 })));
      assert.equal((await locks.status(T, 'db')).waiters, 3);
      let holder = 'a0';
      for (let i = 0; i < 3; i++) {
        assert.equal(await peek(waits[i]!), 'pending');
        await locks.release(T, { resource: 'db', agentId: holder, token });
        const o = await waits[i]!;
        assert.deepEqual([o.granted, o.lock.holder], [true, `a${i + 1}`]);
        assert.ok(o.token! > token);
        token = o.token!;
        holder = `a${i + 1}`;
      }
    });

    it('hands the lock to a waiter when the lease runs out, with no other request', async () => {
      await granted(locks.acquire(T, acq('db', 'a1', { ttlMs: 200 })));
      const wait = locks.acquire(T, acq('db', 'a2', { waitMs: 2000 }));
      await h.advance(250);
      const o = await wait;
      assert.deepEqual([o.granted, o.lock.holder], [true, 'a2']);
      assert.ok(o.waitedMs >= 150);
    });

    it('lets no newcomer overtake the queue when a lease runs out', async () => {
      await granted(locks.acquire(T, acq('db', 'a1', { ttlMs: 200 })));
      const wait = locks.acquire(T, acq('db', 'a2', { waitMs: 2000, ttlMs: 1000 }));
      await h.advance(220);
      const late = await locks.acquire(T, acq('db', 'a3'));
      assert.deepEqual([late.granted, late.reason, late.lock.holder], [false, 'LOCK_HELD', 'a2']);
      assert.equal((await wait).granted, true);
    });

    it('ends a wait with WAIT_TIMEOUT and leaves the holder untouched', async () => {
      const token = await granted(locks.acquire(T, acq('db', 'a1', { ttlMs: 2000 })));
      const wait = locks.acquire(T, acq('db', 'a2', { waitMs: 200 }));
      await h.advance(250);
      const o = await wait;
      assert.deepEqual([o.granted, o.reason, o.token, o.lock.holder], [false, 'WAIT_TIMEOUT', null, 'a1']);
      assert.equal((await locks.status(T, 'db')).waiters, 0);
      assert.equal((await locks.validate(T, 'db', token)).valid, true);
    });

    it('drops an aborted waiter and serves the next one', async () => {
      const token = await granted(locks.acquire(T, acq('db', 'a1', { ttlMs: 5000 })));
      const ac = new AbortController();
      const gone = locks.acquire(T, acq('db', 'a2', { waitMs: 3000, signal: ac.signal }));
      const next = locks.acquire(T, acq('db', 'a3', { waitMs: 3000 }));
      ac.abort();
      assert.equal((await gone).reason, 'ABORTED');
      assert.equal((await locks.status(T, 'db')).waiters, 1);
      await locks.release(T, { resource: 'db', agentId: 'a1', token });
      assert.equal((await next).lock.holder, 'a3');
    });

    it('refuses a wait beyond the queue bound with QUEUE_FULL', async () => {
      const token = await granted(locks.acquire(T, acq('db', 'a0', { ttlMs: 5000 })));
      const waits = [1, 2, 3].map((i) => locks.acquire(T, acq('db', `a${i}`, { waitMs: 3000 })));
      assert.equal((await locks.acquire(T, acq('db', 'a4', { waitMs: 3000 }))).reason, 'QUEUE_FULL');
      let current = { agentId: 'a0', token };
      for (const w of waits) {
        await locks.release(T, { resource: 'db', ...current });
        const o = await w;
        current = { agentId: o.lock.holder!, token: o.token! };
      }
    });

    it('bounds the resources a tenant holds, and frees room on release and on expiry', async () => {
      const tokens: number[] = [];
      for (let i = 0; i < CONTRACT_OPTIONS.maxResources; i++) tokens.push(await granted(locks.acquire(T, acq(`r${i}`, 'a', { ttlMs: i === 0 ? 200 : 5000 }))));
      assert.equal((await locks.acquire(T, acq('extra', 'a'))).reason, 'RESOURCE_LIMIT');
      await h.advance(250);
      await granted(locks.acquire(T, acq('extra', 'a')));
      assert.equal((await locks.acquire(T, acq('extra2', 'a'))).reason, 'RESOURCE_LIMIT');
      await locks.release(T, { resource: 'r1', agentId: 'a', token: tokens[1]! });
      await granted(locks.acquire(T, acq('extra2', 'a')));
      // The bound is per tenant.
      await granted(locks.acquire('tenant-b', acq('r0', 'a')));
    });

    it('keeps tenants apart: the same resource name is two locks, tokens do not cross', async () => {
      const a = await granted(locks.acquire('tenant-a', acq('db', 'x')));
      const b = await granted(locks.acquire('tenant-b', acq('db', 'x')));
      assert.equal((await locks.validate('tenant-b', 'db', a)).valid, a === b);
      assert.equal((await locks.release('tenant-b', { resource: 'db', agentId: 'x', token: a })).released, a === b);
      assert.equal((await locks.status('tenant-a', 'db')).holder, 'x');
      assert.equal((await locks.status('tenant-c', 'db')).holder, null);
    });

    it('ends every wait with SHUTDOWN on close', async () => {
      await granted(locks.acquire(T, acq('db', 'a1', { ttlMs: 5000 })));
      const wait = locks.acquire(T, acq('db', 'a2', { waitMs: 3000 }));
      await locks.close();
      assert.equal((await wait).reason, 'SHUTDOWN');
    });
  });

  describe(`${name}: votes`, () => {
    it('decides the first value to reach a count quorum, with an epoch, and never changes', async () => {
      const q = count(2);
      const first = await proposals.vote(T, vote('p', 'a1', 'x', q));
      assert.deepEqual([first.accepted, first.proposal!.status, first.proposal!.decidedValue, first.proposal!.epoch], [true, 'PENDING', null, null]);
      await proposals.vote(T, vote('p', 'a2', 'y', q));
      const d = await proposals.vote(T, vote('p', 'a3', 'x', q));
      assert.equal(d.proposal!.status, 'DECIDED');
      assert.equal(d.proposal!.decidedValue, 'x');
      assert.equal(d.proposal!.votesFor, 2);
      assert.equal(d.proposal!.votesTotal, 3);
      assert.ok(Number.isSafeInteger(d.proposal!.epoch));
      for (const agent of ['a4', 'a5']) {
        const late = await proposals.vote(T, vote('p', agent, 'y', q));
        assert.deepEqual([late.accepted, late.reason, late.proposal!.decidedValue, late.proposal!.epoch], [false, 'ALREADY_DECIDED', 'x', d.proposal!.epoch]);
      }
    });

    it("counts an agent's first vote only and reports the others as duplicates", async () => {
      await proposals.vote(T, vote('p', 'a1', 'x', count(3)));
      const again = await proposals.vote(T, vote('p', 'a1', 'y', count(3)));
      assert.deepEqual([again.accepted, again.reason, again.proposal!.votesTotal], [false, 'DUPLICATE_VOTE', 1]);
      assert.deepEqual(again.proposal!.tally, [{ value: 'x', votes: 1 }]);
    });

    it('takes a fractional quorum of the electorate and ignores outsiders', async () => {
      const electorate = ['a1', 'a2', 'a3'];
      const first = await proposals.vote(T, vote('p', 'a1', true, fraction(2 / 3), electorate));
      assert.equal(first.proposal!.needed, 2);
      assert.equal(first.proposal!.electorateSize, 3);
      const outsider = await proposals.vote(T, vote('p', 'zz', true, fraction(2 / 3)));
      assert.deepEqual([outsider.accepted, outsider.reason], [false, 'NOT_IN_ELECTORATE']);
      const d = await proposals.vote(T, vote('p', 'a2', true, fraction(2 / 3)));
      assert.deepEqual([d.proposal!.status, d.proposal!.decidedValue], ['DECIDED', true]);
    });

    it('refuses a first vote whose quorum can never be met', async () => {
      const isValidation = (err: unknown) => err instanceof GatewayError && err.code === 'VALIDATION_FAILED';
      await assert.rejects(proposals.vote(T, vote('p1', 'a1', 'x', fraction(0.5))), isValidation);
      await assert.rejects(proposals.vote(T, vote('p2', 'a1', 'x', count(3), ['a1', 'a2'])), isValidation);
      const ok = await proposals.vote(T, vote('p1', 'a1', 'x', fraction(0.5), ['a1', 'a2']));
      assert.equal(ok.accepted, true);
    });

    it('refuses votes that state another quorum or electorate than the first vote', async () => {
      await proposals.vote(T, vote('p', 'a1', 'x', count(2), ['a1', 'a2', 'a3']));
      assert.equal((await proposals.vote(T, vote('p', 'a2', 'x', count(3)))).reason, 'QUORUM_MISMATCH');
      assert.equal((await proposals.vote(T, vote('p', 'a2', 'x', count(2), ['a1', 'a2']))).reason, 'ELECTORATE_MISMATCH');
      const same = await proposals.vote(T, vote('p', 'a2', 'x', count(2), ['a3', 'a2', 'a1']));
      assert.equal(same.proposal!.status, 'DECIDED');
    });

    it('reports a tie while pending, and UNREACHABLE when the electorate cannot reach the quorum', async () => {
      const electorate = ['a1', 'a2', 'a3'];
      await proposals.vote(T, vote('p', 'a1', 'x', count(2), electorate));
      const tie = await proposals.vote(T, vote('p', 'a2', 'y', count(2)));
      assert.deepEqual([tie.proposal!.status, tie.proposal!.tie], ['PENDING', true]);
      await proposals.vote(T, vote('q', 'a1', 'x', count(3), electorate));
      const stuck = await proposals.vote(T, vote('q', 'a2', 'y', count(3)));
      assert.equal(stuck.proposal!.status, 'UNREACHABLE');
    });

    it('stops counting at the voter bound', async () => {
      for (let i = 0; i < CONTRACT_OPTIONS.maxVoters; i++) await proposals.vote(T, vote('p', `a${i}`, `v${i}`, count(3)));
      const o = await proposals.vote(T, vote('p', 'late', 'v0', count(3)));
      assert.deepEqual([o.accepted, o.reason, o.proposal!.status], [false, 'VOTER_LIMIT', 'UNREACHABLE']);
    });

    it('raises the epoch with every decision, one-shot decisions included', async () => {
      const e1 = (await proposals.vote(T, vote('p1', 'a', 1, count(1)))).proposal!.epoch!;
      const e2 = await proposals.nextEpoch(T);
      const e3 = (await proposals.vote(T, vote('p2', 'a', 1, count(1)))).proposal!.epoch!;
      assert.ok(e1 < e2 && e2 < e3);
    });

    it('forgets a proposal after its ttl; the id then starts afresh with a higher epoch', async () => {
      const first = (await proposals.vote(T, vote('p', 'a1', 'x', count(1)))).proposal!;
      await h.advance(CONTRACT_OPTIONS.proposalTtlMs + 100);
      const again = (await proposals.vote(T, vote('p', 'a1', 'y', count(1)))).proposal!;
      assert.deepEqual([again.decidedValue, again.votesTotal], ['y', 1]);
      assert.ok(again.epoch! > first.epoch!);
    });

    it('bounds the proposals a tenant keeps, and frees room as they expire', async () => {
      for (let i = 0; i < CONTRACT_OPTIONS.maxProposals; i++) await proposals.vote(T, vote(`p${i}`, 'a', 'x', count(2)));
      const full = await proposals.vote(T, vote('extra', 'a', 'x', count(2)));
      assert.deepEqual([full.accepted, full.reason, full.proposal], [false, 'PROPOSAL_LIMIT', null]);
      assert.equal((await proposals.vote('tenant-b', vote('extra', 'a', 'x', count(2)))).accepted, true);
      assert.equal((await proposals.vote(T, vote('p0', 'b', 'x', count(2)))).accepted, true);
      await h.advance(CONTRACT_OPTIONS.proposalTtlMs + 100);
      assert.equal((await proposals.vote(T, vote('extra', 'a', 'x', count(2)))).accepted, true);
    });

    it('keeps tenants apart', async () => {
      await proposals.vote('tenant-a', vote('p', 'a1', 'x', count(2)));
      const b = await proposals.vote('tenant-b', vote('p', 'a1', 'y', count(2)));
      assert.deepEqual([b.accepted, b.proposal!.votesTotal], [true, 1]);
    });

    it('tells 1, "1" and true apart', async () => {
      await proposals.vote(T, vote('p', 'a1', 1, count(2)));
      await proposals.vote(T, vote('p', 'a2', '1', count(2)));
      const o = await proposals.vote(T, vote('p', 'a3', true, count(2)));
      assert.equal(o.proposal!.distinctValues, 3);
      assert.equal(o.proposal!.status, 'PENDING');
    });
  });
}
