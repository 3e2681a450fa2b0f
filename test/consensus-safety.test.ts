/**
 * Proof of safety for API-21 over real HTTP: hundreds of concurrent clients drive the gateway
 * with random lock and vote operations on short leases, every request is recorded with its
 * client-side start and end, and the checker (test/helpers/consensus-checker.ts) verifies the
 * history. Mutants (a lock store whose clock runs fast, a vote store with a non-atomic
 * read-modify-write) run the same workload to show the checker catches real bugs.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Pool } from 'undici';
import type { Clock } from '../src/services/consensus/clock.ts';
import { createConsensusService } from '../src/services/consensus/index.ts';
import { MemoryProposalStore } from '../src/services/consensus/memory-proposal-store.ts';
import { neededVotes, valueKey, type Scalar } from '../src/services/consensus/quorum.ts';
import type { ProposalStore, VoteInput, VoteOutcome } from '../src/services/consensus/store.ts';
import { checkLockHistory, checkVoteHistory, type LockEvent, type VoteEvent } from './helpers/consensus-checker.ts';
import { startTestGateway, type TestGateway } from './helpers/gateway.ts';
import { rng } from './helpers/rng.ts';

const PATH = '/v1/swarms/consensus';
/** Each run explores other choices; a failing run prints its seed (CONSENSUS_SEED=n replays the choices). */
const SEED = Number(process.env.CONSENSUS_SEED ?? Math.floor(Math.random() * 1e6));


type Json = Record<string, any>;

class Client {
  readonly pool: Pool;
  transportErrors = 0;
  constructor(url: string, connections: number) {
    this.pool = new Pool(url, { connections, pipelining: 1 });
  }
  async post(body: Json): Promise<{ start: number; end: number; json: Json } | null> {
    const start = performance.now();
    try {
      const res = await this.pool.request({ path: PATH, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const json = (await res.body.json()) as Json;
      const end = performance.now();
      if (res.statusCode !== 200) {
        this.transportErrors++;
        return null;
      }
      return { start, end, json };
    } catch {
      this.transportErrors++;
      return null;
    }
  }
  close(): Promise<void> {
    return this.pool.close();
  }
}

interface LockRun {
  events: LockEvent[];
  transportErrors: number;
}

/** Random acquire / renew / release / validate (and waits) by `clients` agents over `resources` locks. */
async function lockWorkload(
  url: string,
  opts: { clients: number; resources: number; durationMs: number; waitShare: number; ttlMinMs: number; ttlSpreadMs: number; seed: number },
): Promise<LockRun> {
  const client = new Client(url, opts.clients);
  const events: LockEvent[] = [];
  const deadline = performance.now() + opts.durationMs;
  const agentLoop = async (i: number): Promise<void> => {
    const rnd = rng(opts.seed * 1000 + i);
    const pick = (n: number) => Math.floor(rnd() * n);
    const agent = `agent-${i}`;
    let held: { resource: string; token: number } | null = null;
    const old: { resource: string; token: number }[] = [];
    while (performance.now() < deadline) {
      if (held === null) {
        const resource = `res-${pick(opts.resources)}`;
        const ttlMs = opts.ttlMinMs + pick(opts.ttlSpreadMs);
        const waitMs = rnd() < opts.waitShare ? 50 + pick(150) : 0;
        const r = await client.post({ operation: 'acquire', resource, agent_id: agent, ttl_ms: ttlMs, wait_ms: waitMs });
        if (r === null) continue;
        events.push({ agent, op: 'acquire', resource, start: r.start, end: r.end, ttlMs, ok: r.json.granted, reason: r.json.reason, grantedToken: r.json.fencing_token, renewed: r.json.renewed, waitedMs: r.json.waited_ms });
        if (r.json.granted) held = { resource, token: r.json.fencing_token };
        continue;
      }
      const h: { resource: string; token: number } = held;
      const x = rnd();
      if (x < 0.3) {
        const r = await client.post({ operation: 'validate', resource: h.resource, fencing_token: h.token });
        if (r === null) continue;
        events.push({ agent, op: 'validate', resource: h.resource, start: r.start, end: r.end, token: h.token, ok: r.json.valid, reason: r.json.reason });
        if (!r.json.valid) held = null;
      } else if (x < 0.5) {
        const ttlMs = opts.ttlMinMs + pick(opts.ttlSpreadMs);
        const r = await client.post({ operation: 'renew', resource: h.resource, agent_id: agent, fencing_token: h.token, ttl_ms: ttlMs });
        if (r === null) continue;
        events.push({ agent, op: 'renew', resource: h.resource, start: r.start, end: r.end, ttlMs, token: h.token, ok: r.json.granted, reason: r.json.reason });
        if (!r.json.granted) held = null;
      } else if (x < 0.58) {
        const ttlMs = opts.ttlMinMs + pick(opts.ttlSpreadMs);
        const r = await client.post({ operation: 'acquire', resource: h.resource, agent_id: agent, ttl_ms: ttlMs, fencing_token: h.token });
        if (r === null) continue;
        events.push({ agent, op: 'acquire', resource: h.resource, start: r.start, end: r.end, ttlMs, token: h.token, ok: r.json.granted, reason: r.json.reason, grantedToken: r.json.fencing_token, renewed: r.json.renewed });
        held = r.json.granted ? { resource: h.resource, token: r.json.fencing_token } : null;
      } else if (x < 0.8) {
        const r = await client.post({ operation: 'release', resource: h.resource, agent_id: agent, fencing_token: h.token });
        if (r === null) continue;
        events.push({ agent, op: 'release', resource: h.resource, start: r.start, end: r.end, token: h.token, ok: r.json.released, reason: r.json.reason });
        held = null;
      } else if (x < 0.9 && old.length > 0) {
        const o = old[pick(old.length)]!;
        const r = await client.post({ operation: 'validate', resource: o.resource, fencing_token: o.token });
        if (r === null) continue;
        events.push({ agent, op: 'validate', resource: o.resource, start: r.start, end: r.end, token: o.token, ok: r.json.valid, reason: r.json.reason });
      } else {
        // Do "work" holding the lease; one time in five longer than any lease lasts, so expired
        // leases (refused renewals and releases, invalid tokens) occur on an idle machine too.
        await new Promise((r) => setTimeout(r, rnd() < 0.2 ? opts.ttlMinMs + opts.ttlSpreadMs + pick(100) : pick(120)));
      }
      if (held === null || held.token !== h.token) {
        old.push(h);
        if (old.length > 4) old.shift();
      }
    }
  };
  await Promise.all(Array.from({ length: opts.clients }, (_, i) => agentLoop(i)));
  await client.close();
  return { events, transportErrors: client.transportErrors };
}

interface ProposalPlan {
  id: string;
  quorum: number | { fraction: number };
  electorate?: string[];
}

/** Random votes by `clients` concurrent callers on `proposals` proposals, ten agent ids, three values. */
async function voteWorkload(url: string, opts: { clients: number; proposals: number; durationMs: number; seed: number }): Promise<{ events: VoteEvent[]; transportErrors: number }> {
  const client = new Client(url, opts.clients);
  const agents = Array.from({ length: 10 }, (_, i) => `voter-${i}`);
  const plans: ProposalPlan[] = Array.from({ length: opts.proposals }, (_, i) =>
    i % 2 === 0 ? { id: `s${opts.seed}-p${i}`, quorum: { fraction: 0.5 }, electorate: agents.slice(0, 7) } : { id: `s${opts.seed}-p${i}`, quorum: 3 },
  );
  const values: Scalar[] = ['red', 'green', 'blue'];
  const events: VoteEvent[] = [];
  const deadline = performance.now() + opts.durationMs;
  const loop = async (i: number): Promise<void> => {
    const rnd = rng(opts.seed * 7919 + i);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
    while (performance.now() < deadline) {
      const plan = pick(plans);
      const agent = pick(agents);
      const value = pick(values);
      // Jitter, so runs interleave differently.
      if (rnd() < 0.3) await new Promise((r) => setTimeout(r, Math.floor(rnd() * 3)));
      const r = await client.post({ operation: 'vote', proposal_id: plan.id, agent_id: agent, value, quorum: plan.quorum, ...(plan.electorate ? { electorate: plan.electorate } : {}) });
      if (r === null) continue;
      const j = r.json;
      events.push({ agent, proposal: plan.id, value, start: r.start, end: r.end, accepted: j.vote_accepted, status: j.status, decidedValue: j.decided_value, epoch: j.epoch, needed: j.quorum });
    }
  };
  await Promise.all(Array.from({ length: opts.clients }, (_, i) => loop(i)));
  await client.close();
  return { events, transportErrors: client.transportErrors };
}

const count = <T>(xs: readonly T[], f: (x: T) => boolean) => xs.reduce((n, x) => n + (f(x) ? 1 : 0), 0);

describe('lock and vote history checker', () => {
  const acquire = (agent: string, token: number, start: number, end: number, ttlMs = 100): LockEvent => ({ agent, op: 'acquire', resource: 'r', start, end, ttlMs, ok: true, grantedToken: token, renewed: false });

  it('accepts a safe history, including overlaps that a correct order explains', () => {
    const events: LockEvent[] = [
      acquire('a', 1, 0, 5),
      { agent: 'a', op: 'release', resource: 'r', start: 50, end: 60, token: 1, ok: true },
      acquire('b', 2, 55, 58),
      { agent: 'b', op: 'validate', resource: 'r', start: 59, end: 61, token: 2, ok: true },
      { agent: 'a', op: 'validate', resource: 'r', start: 57, end: 62, token: 1, ok: false, reason: 'STALE_TOKEN' },
      { agent: 'c', op: 'acquire', resource: 'r', start: 70, end: 71, ttlMs: 100, ok: false, reason: 'LOCK_HELD', grantedToken: null },
    ];
    assert.deepEqual(checkLockHistory(events), []);
  });

  const bad: [string, LockEvent[]][] = [
    ['two-holders', [acquire('a', 1, 0, 5), acquire('b', 2, 20, 25)]],
    ['token-reused', [acquire('a', 1, 0, 5), acquire('b', 1, 300, 305)]],
    ['token-order', [acquire('a', 5, 0, 5), acquire('b', 3, 300, 305)]],
    ['validate-dead', [acquire('a', 1, 0, 5), { agent: 'a', op: 'validate', resource: 'r', start: 200, end: 201, token: 1, ok: true }]],
    ['validate-stale', [acquire('a', 1, 0, 5, 100), acquire('b', 2, 100, 103), { agent: 'a', op: 'validate', resource: 'r', start: 104, end: 104.5, token: 1, ok: true }]],
    ['validate-unknown', [{ agent: 'a', op: 'validate', resource: 'r', start: 20, end: 21, token: 9, ok: true }]],
    ['validate-live', [acquire('a', 1, 0, 5), { agent: 'a', op: 'validate', resource: 'r', start: 20, end: 21, token: 1, ok: false }]],
    ['refused-free', [{ agent: 'c', op: 'acquire', resource: 'r', start: 70, end: 71, ttlMs: 100, ok: false, reason: 'LOCK_HELD', grantedToken: null }]],
    ['unknown-token', [{ agent: 'a', op: 'renew', resource: 'r', start: 0, end: 1, ttlMs: 100, token: 4, ok: true }]],
  ];
  for (const [kind, events] of bad) {
    it(`flags ${kind}`, () => {
      assert.deepEqual([...new Set(checkLockHistory(events).map((v) => v.kind))], [kind]);
    });
  }

  it('counts renewals and releases in the lease windows', () => {
    const renewed: LockEvent[] = [acquire('a', 1, 0, 5), { agent: 'a', op: 'renew', resource: 'r', start: 90, end: 95, ttlMs: 100, token: 1, ok: true }, acquire('b', 2, 150, 155)];
    assert.deepEqual(checkLockHistory(renewed).map((v) => v.kind), ['two-holders']);
    // A renewal with a shorter ttl shortens the lease: b's grant after it is fine.
    const shortened: LockEvent[] = [acquire('a', 1, 0, 5, 1000), { agent: 'a', op: 'renew', resource: 'r', start: 10, end: 12, ttlMs: 100, token: 1, ok: true }, acquire('b', 2, 150, 155)];
    assert.deepEqual(checkLockHistory(shortened), []);
    const released: LockEvent[] = [acquire('a', 1, 0, 5), { agent: 'a', op: 'release', resource: 'r', start: 10, end: 12, token: 1, ok: true }, acquire('b', 2, 20, 25)];
    assert.deepEqual(checkLockHistory(released), []);
  });

  const v = (agent: string, proposal: string, value: string, start: number, end: number, accepted: boolean, decided: string | null, epoch: number | null, status = decided ? 'DECIDED' : 'PENDING'): VoteEvent => ({
    agent, proposal, value, start, end, accepted, status, decidedValue: decided, epoch, needed: 2,
  });
  const badVotes: [string, VoteEvent[]][] = [
    ['two-decisions', [v('a', 'p', 'x', 0, 1, true, null, null), v('b', 'p', 'x', 2, 3, true, 'x', 7), v('c', 'p', 'y', 4, 5, true, null, null), v('d', 'p', 'y', 6, 7, false, 'y', 8, 'DECIDED')]],
    ['double-count', [v('a', 'p', 'x', 0, 1, true, null, null), v('a', 'p', 'y', 2, 3, true, null, null)]],
    ['short-quorum', [v('a', 'p', 'x', 0, 1, true, 'x', 1)]],
    ['undecided', [v('a', 'p', 'x', 0, 1, true, null, null), v('b', 'p', 'x', 2, 3, true, null, null)]],
    ['vote-after-decision', [v('a', 'p', 'x', 0, 1, true, null, null), v('b', 'p', 'x', 2, 3, true, 'x', 1), v('c', 'p', 'y', 4, 5, true, 'x', 1, 'DECIDED_LATE')]],
    ['epoch-order', [v('a', 'p', 'x', 0, 1, true, null, null), v('b', 'p', 'x', 2, 3, true, 'x', 9), v('a', 'q', 'x', 4, 5, true, null, null), v('b', 'q', 'x', 6, 7, true, 'x', 3)]],
  ];
  for (const [kind, events] of badVotes) {
    it(`flags ${kind}`, () => {
      assert.ok(checkVoteHistory(events).some((x) => x.kind === kind), JSON.stringify(checkVoteHistory(events)));
    });
  }
  it('accepts a clean vote history', () => {
    assert.deepEqual(checkVoteHistory([v('a', 'p', 'x', 0, 1, true, null, null), v('b', 'p', 'y', 0, 2, true, null, null), v('c', 'p', 'x', 1, 3, true, 'x', 4), v('d', 'p', 'y', 4, 5, false, 'x', 4)]), []);
  });
});

describe('proof of safety over real HTTP', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ env: { LOG_LEVEL: 'warn' }, gateway: { factories: [(deps) => createConsensusService(deps)] } });
  });
  after(() => gw.close());

  it('250 concurrent agents for 5 s on 32 short-lease locks: one holder at a time, increasing tokens, consistent validates', async () => {
    const run = await lockWorkload(gw.url, { clients: 250, resources: 32, durationMs: 5000, waitShare: 0.15, ttlMinMs: 200, ttlSpreadMs: 800, seed: SEED });
    assert.equal(run.transportErrors, 0);
    const e = run.events;
    const stats = {
      events: e.length,
      grants: count(e, (x) => x.op === 'acquire' && x.ok && !x.renewed),
      waitedGrants: count(e, (x) => x.op === 'acquire' && x.ok && (x.waitedMs ?? 0) > 0),
      held: count(e, (x) => x.op === 'acquire' && x.reason === 'LOCK_HELD'),
      waitTimeouts: count(e, (x) => x.reason === 'WAIT_TIMEOUT'),
      renewals: count(e, (x) => (x.op === 'renew' && x.ok) || (x.op === 'acquire' && !!x.renewed)),
      lostLeases: count(e, (x) => (x.op === 'renew' || x.op === 'release') && !x.ok),
      releases: count(e, (x) => x.op === 'release' && x.ok),
      validTrue: count(e, (x) => x.op === 'validate' && x.ok),
      validFalse: count(e, (x) => x.op === 'validate' && !x.ok),
    };
    console.log(`lock history (CONSENSUS_SEED=${SEED}): ${JSON.stringify(stats)}`);
    // The workload must have exercised what it claims to check.
    // (Minimums sized for a loaded 2-core machine; an idle one does several times more.)
    assert.ok(stats.grants >= 100 && stats.held >= 50 && stats.renewals >= 20 && stats.releases >= 20, JSON.stringify(stats));
    assert.ok(stats.validTrue >= 20 && stats.validFalse >= 10 && stats.lostLeases >= 5 && stats.waitTimeouts + stats.waitedGrants >= 10, JSON.stringify(stats));
    const violations = checkLockHistory(e);
    assert.deepEqual(violations.slice(0, 10), []);
  });

  it('200 concurrent voters for 2 s on 120 proposals: exactly one decided value per proposal', async () => {
    const run = await voteWorkload(gw.url, { clients: 200, proposals: 120, durationMs: 2000, seed: SEED + 1 });
    assert.equal(run.transportErrors, 0);
    const e = run.events;
    const decided = new Set(e.filter((x) => x.decidedValue !== null).map((x) => x.proposal));
    const stats = { votes: e.length, accepted: count(e, (x) => x.accepted), decided: decided.size, ignored: count(e, (x) => !x.accepted) };
    console.log(`vote history (CONSENSUS_SEED=${SEED}): ${JSON.stringify(stats)}`);
    assert.ok(stats.decided >= 30 && stats.ignored >= 100, JSON.stringify(stats));
    assert.deepEqual(checkVoteHistory(e).slice(0, 10), []);
  });
});

describe('the checker catches broken arbiters driven the same way', () => {
  it('flags a lock store whose lease clock runs 1.6x fast', async () => {
    const fast: Clock = {
      now: () => performance.now() * 1.6,
      wallNow: () => Date.now(),
      setTimer(fn, ms) {
        const t = setTimeout(fn, Math.ceil(ms / 1.6));
        return { cancel: () => clearTimeout(t) };
      },
    };
    const gw = await startTestGateway({ env: { LOG_LEVEL: 'warn' }, gateway: { factories: [(deps) => createConsensusService(deps, { clock: fast })] } });
    try {
      const run = await lockWorkload(gw.url, { clients: 60, resources: 3, durationMs: 1500, waitShare: 0, ttlMinMs: 150, ttlSpreadMs: 500, seed: 3 });
      const kinds = new Set(checkLockHistory(run.events).map((v) => v.kind));
      assert.ok(kinds.has('two-holders') || kinds.has('validate-live'), [...kinds].join(', '));
    } finally {
      await gw.close();
    }
  });

  it('flags a vote store that reads, yields, then writes (no atomic step)', async () => {
    const gw = await startTestGateway({ env: { LOG_LEVEL: 'warn' }, gateway: { factories: [(deps) => createConsensusService(deps, { proposalStore: new RacyProposalStore() })] } });
    try {
      const run = await voteWorkload(gw.url, { clients: 100, proposals: 100, durationMs: 1200, seed: 4 });
      assert.ok(checkVoteHistory(run.events).length > 0);
    } finally {
      await gw.close();
    }
  });
});

/**
 * A deliberately wrong ProposalStore: it copies a proposal, waits a moment (as a GET ... SET
 * client of a remote store would), then writes the copy back, losing concurrent votes.
 */
class RacyProposalStore implements ProposalStore {
  readonly #state = new Map<string, { votes: [string, string][]; decided: { value: Scalar; epoch: number } | null; needed: number }>();
  readonly #epochs = new MemoryProposalStore({ clock: { now: () => 0, wallNow: () => 0, setTimer: () => ({ cancel() {} }) }, ttlMs: 1000, maxProposals: 1 });

  async vote(tenant: string, input: VoteInput): Promise<VoteOutcome> {
    const k = `${tenant}\u0000${input.proposalId}`;
    const read = this.#state.get(k);
    const copy = read ? { votes: [...read.votes], decided: read.decided, needed: read.needed } : { votes: [], decided: null, needed: neededVotes(input.quorum, input.electorate?.length ?? null) };
    await new Promise((r) => setTimeout(r, Math.random() * 3));
    let accepted = false;
    if (!copy.votes.some(([a]) => a === input.agentId) && copy.decided === null && (input.electorate === null || input.electorate.includes(input.agentId))) {
      copy.votes.push([input.agentId, valueKey(input.value)]);
      accepted = true;
      const n = copy.votes.filter(([, v]) => v === valueKey(input.value)).length;
      if (n >= copy.needed) copy.decided = { value: input.value, epoch: await this.nextEpoch(tenant) };
    }
    this.#state.set(k, copy);
    const forValue = copy.decided ? copy.votes.filter(([, v]) => v === valueKey(copy.decided!.value)).length : 0;
    return {
      accepted,
      reason: accepted ? null : 'DUPLICATE_VOTE',
      proposal: {
        status: copy.decided ? 'DECIDED' : 'PENDING',
        decidedValue: copy.decided?.value ?? null,
        epoch: copy.decided?.epoch ?? null,
        votesFor: forValue,
        votesTotal: copy.votes.length,
        needed: copy.needed,
        electorateSize: input.electorate?.length ?? null,
        tally: [],
        distinctValues: 0,
        tie: false,
        expiresInMs: 1000,
      },
    };
  }

  nextEpoch(tenant: string): Promise<number> {
    return this.#epochs.nextEpoch(tenant);
  }

  async close(): Promise<void> {}
}
