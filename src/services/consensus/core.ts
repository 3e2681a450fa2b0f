/**
 * API-21 core: checks what each operation needs, calls the stores, and shapes their outcomes
 * into the response fields. Knows nothing about HTTP; the stores hold all state.
 *
 * Refusals that depend on the lock's or proposal's state (a held lock, a stale token, a second
 * vote) are answers, not errors: status 200 with `granted: false` / `valid: false` /
 * `vote_accepted: false` and a `reason`. Only a malformed request is an error (400).
 */
import { createError, type ErrorDetail } from '../../errors.ts';
import type { Clock } from './clock.ts';
import { decideWeighted, parseQuorum, type Scalar } from './quorum.ts';
import { LIMITS, type ConsensusRequest, type Operation } from './schema.ts';
import { TALLY_MAX, type LockStore, type LockView, type ProposalStore } from './store.ts';

export interface ConsensusCoreOptions {
  readonly locks: LockStore;
  readonly proposals: ProposalStore;
  readonly clock: Clock;
}

type Fields = Record<string, unknown>;

const REQUIRED: Readonly<Record<Operation, readonly (keyof ConsensusRequest)[]>> = {
  acquire: ['resource', 'agent_id'],
  renew: ['resource', 'agent_id', 'fencing_token'],
  release: ['resource', 'agent_id', 'fencing_token'],
  status: ['resource'],
  validate: ['resource', 'fencing_token'],
  vote: ['proposal_id', 'agent_id', 'value', 'quorum'],
  decide: ['votes', 'quorum'],
};

/**
 * Throws VALIDATION_FAILED listing every field `body.operation` needs and lacks (and a vote
 * quorum that is not a whole number of votes).
 */
export function requireFields(body: ConsensusRequest): void {
  const details: ErrorDetail[] = [];
  for (const field of REQUIRED[body.operation]) {
    if (body[field] === undefined) details.push({ path: `/${field}`, message: `Required for operation "${body.operation}"` });
  }
  if (body.operation === 'vote' && typeof body.quorum === 'number' && (!Number.isInteger(body.quorum) || body.quorum > LIMITS.votersPerProposal)) {
    details.push({ path: '/quorum', message: `A vote quorum is a whole number of votes from 1 to ${LIMITS.votersPerProposal}, or {"fraction": f}` });
  }
  if (details.length > 0) throw createError('VALIDATION_FAILED', 'Request body failed validation', { details });
}

export class ConsensusCore {
  readonly #locks: LockStore;
  readonly #proposals: ProposalStore;
  readonly #clock: Clock;

  constructor(options: ConsensusCoreOptions) {
    this.#locks = options.locks;
    this.#proposals = options.proposals;
    this.#clock = options.clock;
  }

  /**
   * Runs one request for `tenant`. `signal` (the client went away) only matters to a waiting
   * acquire: the wait ends, and a lease granted to a caller that is gone is handed back.
   *
   * @example await core.handle('public', {operation: 'acquire', resource: 'db', agent_id: 'a1', ttl_ms: 5000})
   *   // {operation: 'acquire', resource: 'db', granted: true, fencing_token: 1767225600000001, ...}
   */
  async handle(tenant: string, body: ConsensusRequest, signal?: AbortSignal): Promise<Fields> {
    requireFields(body);
    switch (body.operation) {
      case 'acquire':
        return this.#acquire(tenant, body, signal);
      case 'renew':
        return this.#renew(tenant, body);
      case 'release':
        return this.#release(tenant, body);
      case 'status':
        return this.#status(tenant, body);
      case 'validate':
        return this.#validate(tenant, body);
      case 'vote':
        return this.#vote(tenant, body);
      case 'decide':
        return this.#decide(tenant, body);
    }
  }

  async #acquire(tenant: string, b: ConsensusRequest, signal?: AbortSignal): Promise<Fields> {
    const resource = b.resource!;
    const agentId = b.agent_id!;
    const waitMs = b.wait_ms ?? 0;
    const o = await this.#locks.acquire(tenant, {
      resource,
      agentId,
      ttlMs: b.ttl_ms ?? LIMITS.ttlDefaultMs,
      waitMs,
      token: b.fencing_token ?? null,
      ...(waitMs > 0 && signal !== undefined ? { signal } : {}),
    });
    if (o.granted && o.waitedMs > 0 && signal?.aborted) {
      // Granted from the queue to a caller that has gone: nobody would ever release it.
      await this.#locks.release(tenant, { resource, agentId, token: o.token! });
    }
    return {
      operation: 'acquire',
      resource,
      granted: o.granted,
      reason: o.reason,
      fencing_token: o.token,
      renewed: o.renewed,
      waited_ms: round3(o.waitedMs),
      ...this.#lease(o.lock),
    };
  }

  async #renew(tenant: string, b: ConsensusRequest): Promise<Fields> {
    const o = await this.#locks.renew(tenant, { resource: b.resource!, agentId: b.agent_id!, token: b.fencing_token!, ttlMs: b.ttl_ms ?? null });
    return {
      operation: 'renew',
      resource: b.resource!,
      granted: o.granted,
      reason: o.reason,
      fencing_token: o.granted ? b.fencing_token! : null,
      ...this.#lease(o.lock),
    };
  }

  async #release(tenant: string, b: ConsensusRequest): Promise<Fields> {
    const o = await this.#locks.release(tenant, { resource: b.resource!, agentId: b.agent_id!, token: b.fencing_token! });
    return {
      operation: 'release',
      resource: b.resource!,
      granted: o.released,
      released: o.released,
      reason: o.reason,
      fencing_token: b.fencing_token!,
      ...this.#lease(o.lock),
    };
  }

  async #status(tenant: string, b: ConsensusRequest): Promise<Fields> {
    const lock = await this.#locks.status(tenant, b.resource!);
    return { operation: 'status', resource: b.resource!, held: lock.holder !== null, fencing_token: lock.token, ...this.#lease(lock) };
  }

  async #validate(tenant: string, b: ConsensusRequest): Promise<Fields> {
    const o = await this.#locks.validate(tenant, b.resource!, b.fencing_token!);
    return {
      operation: 'validate',
      resource: b.resource!,
      valid: o.valid,
      reason: o.reason,
      fencing_token: b.fencing_token!,
      current_token: o.lock.token,
      ...this.#lease(o.lock),
    };
  }

  async #vote(tenant: string, b: ConsensusRequest): Promise<Fields> {
    const o = await this.#proposals.vote(tenant, {
      proposalId: b.proposal_id!,
      agentId: b.agent_id!,
      value: b.value!,
      quorum: parseQuorum(b.quorum!),
      electorate: b.electorate ?? null,
    });
    const p = o.proposal;
    const base = { operation: 'vote', proposal_id: b.proposal_id!, vote_accepted: o.accepted, reason: o.reason };
    if (p === null) {
      return {
        ...base,
        status: 'NOT_STORED',
        consensus_verified: false,
        decided_value: null,
        votes_for: 0,
        votes_total: 0,
        quorum: null,
        epoch: null,
        tie: false,
        tally: [],
        distinct_values: 0,
        electorate_size: null,
        expires_at: null,
        expires_in_ms: null,
      };
    }
    return {
      ...base,
      status: p.status,
      consensus_verified: p.status === 'DECIDED',
      decided_value: p.decidedValue,
      votes_for: p.votesFor,
      votes_total: p.votesTotal,
      quorum: p.needed,
      epoch: p.epoch,
      tie: p.tie,
      tally: p.tally,
      distinct_values: p.distinctValues,
      electorate_size: p.electorateSize,
      expires_at: this.#wallIso(p.expiresInMs),
      expires_in_ms: Math.floor(p.expiresInMs),
    };
  }

  async #decide(tenant: string, b: ConsensusRequest): Promise<Fields> {
    const votes = b.votes!.map((v) => ({ agentId: v.agent_id, value: v.value as Scalar, weight: v.weight }));
    const r = decideWeighted(votes, parseQuorum(b.quorum!), b.electorate ?? null, TALLY_MAX);
    const epoch = r.status === 'DECIDED' ? await this.#proposals.nextEpoch(tenant) : null;
    return {
      operation: 'decide',
      status: r.status,
      consensus_verified: r.status === 'DECIDED',
      decided_value: r.decidedValue,
      votes_for: r.votesFor,
      votes_total: r.votesTotal,
      quorum: r.needed,
      epoch,
      tie: r.tie,
      tally: r.tally,
      distinct_values: r.distinctValues,
      ignored_votes: r.ignored,
    };
  }

  #lease(lock: LockView): Fields {
    return {
      holder: lock.holder,
      expires_at: lock.expiresInMs === null ? null : this.#wallIso(lock.expiresInMs),
      // Rounded down: a client that plans with it never overestimates its lease.
      expires_in_ms: lock.expiresInMs === null ? null : Math.floor(lock.expiresInMs),
      waiters: lock.waiters,
    };
  }

  #wallIso(inMs: number): string {
    return new Date(this.#clock.wallNow() + inMs).toISOString();
  }
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}
