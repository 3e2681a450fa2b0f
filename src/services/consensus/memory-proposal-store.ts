/**
 * The in-memory ProposalStore. Each tenant keeps its proposals in a Map by id plus a FIFO of
 * (expiry, id, proposal) in creation order; every proposal lives exactly PROPOSAL_TTL_MS, so
 * creation order is expiry order and the sweep pops expired proposals from the head of the FIFO
 * in O(expired). (Not by iterating the Map from its start: V8 keeps deleted entries as holes
 * until a rehash, and walking them on every vote turned the sweep quadratic.) `vote` is one
 * synchronous step: check, count, and decide when the value reaches the quorum; a decided
 * proposal is never touched again until it expires.
 */
import type { Clock } from './clock.ts';
import { FenceSequence } from './fence.ts';
import { neededVotes, quorumKey, valueKey, type Scalar } from './quorum.ts';
import { TALLY_MAX, type ProposalStore, type ProposalView, type VoteInput, type VoteOutcome, type VoteRefusal } from './store.ts';

export interface MemoryProposalStoreOptions {
  readonly clock: Clock;
  /** PROPOSAL_TTL_MS: how long a proposal (decided or not) is kept after its first vote. */
  readonly ttlMs: number;
  /** PROPOSAL_MAX: proposals a tenant may keep at once. */
  readonly maxProposals: number;
  /** Votes one proposal counts at most; default 1000. */
  readonly maxVoters?: number;
}

interface TallyCell {
  readonly value: Scalar;
  votes: number;
  readonly order: number;
}

interface Proposal {
  readonly expiresAt: number;
  readonly needed: number;
  readonly quorumKey: string;
  readonly electorate: ReadonlySet<string> | null;
  readonly electorateKey: string | null;
  /** agent_id -> value key of its (first) vote. */
  readonly votes: Map<string, string>;
  readonly tally: Map<string, TallyCell>;
  decided: { readonly value: Scalar; readonly epoch: number; readonly votesFor: number } | null;
}

interface TenantProposals {
  readonly proposals: Map<string, Proposal>;
  /** Creation order = expiry order; entries before `head` are gone. */
  readonly expiries: { readonly id: string; readonly proposal: Proposal }[];
  head: number;
  readonly epochs: FenceSequence;
}

export class MemoryProposalStore implements ProposalStore {
  readonly #clock: Clock;
  readonly #ttlMs: number;
  readonly #maxProposals: number;
  readonly #maxVoters: number;
  readonly #tenants = new Map<string, TenantProposals>();

  constructor(options: MemoryProposalStoreOptions) {
    if (!(options.ttlMs > 0)) throw new RangeError('ttlMs must be positive');
    if (!Number.isSafeInteger(options.maxProposals) || options.maxProposals < 1) throw new RangeError('maxProposals must be a positive integer');
    const maxVoters = options.maxVoters ?? 1000;
    if (!Number.isSafeInteger(maxVoters) || maxVoters < 1) throw new RangeError('maxVoters must be a positive integer');
    this.#clock = options.clock;
    this.#ttlMs = options.ttlMs;
    this.#maxProposals = options.maxProposals;
    this.#maxVoters = maxVoters;
  }

  async vote(tenant: string, input: VoteInput): Promise<VoteOutcome> {
    const t = this.#tenant(tenant);
    const now = this.#clock.now();
    sweep(t, now);
    let p = t.proposals.get(input.proposalId);
    if (p === undefined) {
      const electorate = input.electorate === null ? null : new Set(input.electorate);
      const needed = neededVotes(input.quorum, electorate === null ? null : electorate.size);
      if (t.proposals.size >= this.#maxProposals) return Promise.resolve({ accepted: false, reason: 'PROPOSAL_LIMIT', proposal: null });
      p = {
        expiresAt: now + this.#ttlMs,
        needed,
        quorumKey: quorumKey(input.quorum),
        electorate,
        electorateKey: electorate === null ? null : setKey(electorate),
        votes: new Map(),
        tally: new Map(),
        decided: null,
      };
      t.proposals.set(input.proposalId, p);
      t.expiries.push({ id: input.proposalId, proposal: p });
    }
    const refusal = this.#check(p, input);
    if (refusal !== null) return Promise.resolve({ accepted: false, reason: refusal, proposal: viewOf(p, now, this.#maxVoters) });
    const key = valueKey(input.value);
    p.votes.set(input.agentId, key);
    let cell = p.tally.get(key);
    if (cell === undefined) {
      cell = { value: input.value, votes: 0, order: p.tally.size };
      p.tally.set(key, cell);
    }
    cell.votes++;
    if (cell.votes >= p.needed) p.decided = { value: cell.value, epoch: t.epochs.next(), votesFor: cell.votes };
    return Promise.resolve({ accepted: true, reason: null, proposal: viewOf(p, now, this.#maxVoters) });
  }

  nextEpoch(tenant: string): Promise<number> {
    return Promise.resolve(this.#tenant(tenant).epochs.next());
  }

  /** Proposals kept (expired ones not yet swept included), for tests and metrics. */
  stats(): { tenants: number; proposals: number } {
    let proposals = 0;
    for (const t of this.#tenants.values()) proposals += t.proposals.size;
    return { tenants: this.#tenants.size, proposals };
  }

  close(): Promise<void> {
    this.#tenants.clear();
    return Promise.resolve();
  }

  #check(p: Proposal, input: VoteInput): VoteRefusal | null {
    // A repeated vote is reported as such even after the decision: the agent learns its first counted.
    if (p.votes.has(input.agentId)) return 'DUPLICATE_VOTE';
    if (p.decided !== null) return 'ALREADY_DECIDED';
    if (quorumKey(input.quorum) !== p.quorumKey) return 'QUORUM_MISMATCH';
    if (input.electorate !== null && setKey(new Set(input.electorate)) !== p.electorateKey) return 'ELECTORATE_MISMATCH';
    if (p.electorate !== null && !p.electorate.has(input.agentId)) return 'NOT_IN_ELECTORATE';
    if (p.votes.size >= this.#maxVoters) return 'VOTER_LIMIT';
    return null;
  }

  #tenant(name: string): TenantProposals {
    let t = this.#tenants.get(name);
    if (t === undefined) {
      t = { proposals: new Map(), expiries: [], head: 0, epochs: new FenceSequence(this.#clock.wallNow()) };
      this.#tenants.set(name, t);
    }
    return t;
  }
}

function sweep(t: TenantProposals, now: number): void {
  const q = t.expiries;
  while (t.head < q.length && q[t.head]!.proposal.expiresAt <= now) {
    const { id, proposal } = q[t.head]!;
    if (t.proposals.get(id) === proposal) t.proposals.delete(id);
    t.head++;
  }
  // Drop the consumed head once it is most of the array (amortised O(1) per proposal).
  if (t.head > 1024 && t.head * 2 > q.length) {
    q.splice(0, t.head);
    t.head = 0;
  }
}

function setKey(set: ReadonlySet<string>): string {
  return JSON.stringify([...set].sort());
}

function viewOf(p: Proposal, now: number, maxVoters: number): ProposalView {
  const ranked = [...p.tally.values()].sort((a, b) => b.votes - a.votes || a.order - b.order);
  const top = ranked[0];
  const second = ranked[1];
  const votesTotal = p.votes.size;
  let status: ProposalView['status'] = 'PENDING';
  if (p.decided !== null) status = 'DECIDED';
  // Votes still to come cannot lift any value to the quorum (closed electorate, or voter limit).
  else if ((top?.votes ?? 0) + ((p.electorate?.size ?? maxVoters) - votesTotal) < p.needed) status = 'UNREACHABLE';
  return {
    status,
    decidedValue: p.decided?.value ?? null,
    epoch: p.decided?.epoch ?? null,
    votesFor: p.decided?.votesFor ?? top?.votes ?? 0,
    votesTotal,
    needed: p.needed,
    electorateSize: p.electorate?.size ?? null,
    tally: ranked.slice(0, TALLY_MAX).map((c) => ({ value: c.value, votes: c.votes })),
    distinctValues: ranked.length,
    tie: p.decided === null && top !== undefined && second !== undefined && top.votes === second.votes,
    expiresInMs: Math.max(0, p.expiresAt - now),
  };
}
