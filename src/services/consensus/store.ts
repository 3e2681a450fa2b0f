/**
 * The state behind API-21, as two small interfaces so that a networked implementation can replace
 * the in-memory one. Each method is one atomic step (check-and-set): the in-memory stores run it
 * synchronously on the event loop; a Redis store runs it as one Lua script, with the lease clock
 * being the Redis server's (TIME / PEXPIRE) instead of the injected Clock. Times travel as
 * relative milliseconds (`expiresInMs`) so neither side needs the other's clock.
 * `test/helpers/consensus-store-contract.ts` is the suite every implementation must pass.
 */
import type { Scalar, QuorumSpec } from './quorum.ts';

/** Why a lock operation was refused (in the body, status 200). */
export type LockRefusal =
  /** Another agent holds the lease (acquire without wait_ms). */
  | 'LOCK_HELD'
  /** The caller already holds the lease and did not present its token (see renew). */
  | 'HELD_BY_CALLER'
  /** wait_ms elapsed and the lease was still held. */
  | 'WAIT_TIMEOUT'
  /** Too many acquires already wait on this resource. */
  | 'QUEUE_FULL'
  /** The tenant already has LOCK_MAX_RESOURCES resources locked or waited on. */
  | 'RESOURCE_LIMIT'
  /** The token is not the resource's current one (an older lease, or another resource's token). */
  | 'STALE_TOKEN'
  /** The token is current but belongs to another agent_id. */
  | 'NOT_HOLDER'
  /** Nobody holds the resource (never locked, released, or the lease expired). */
  | 'NOT_HELD'
  /** The waiting client went away (never sent). */
  | 'ABORTED'
  /** The service is closing. */
  | 'SHUTDOWN';

/** A resource's state at the operation's linearisation point. */
export interface LockView {
  readonly holder: string | null;
  readonly token: number | null;
  /** Remaining lease time; null when free. */
  readonly expiresInMs: number | null;
  /** Acquires waiting in the FIFO queue. */
  readonly waiters: number;
}

export interface AcquireInput {
  readonly resource: string;
  readonly agentId: string;
  readonly ttlMs: number;
  /** 0 = answer at once; otherwise queue (FIFO) for at most this long. */
  readonly waitMs: number;
  /** The caller's current token: when it still holds the lease, acquire renews it. */
  readonly token: number | null;
  /** Aborts a wait (the client went away). */
  readonly signal?: AbortSignal;
}

export interface AcquireOutcome {
  readonly granted: boolean;
  readonly reason: LockRefusal | null;
  /** The token of the granted lease; null when refused. */
  readonly token: number | null;
  /** true when the caller already held the lease and it was extended. */
  readonly renewed: boolean;
  readonly waitedMs: number;
  readonly lock: LockView;
}

export interface RenewInput {
  readonly resource: string;
  readonly agentId: string;
  readonly token: number;
  /** New lease length from now; null keeps the lease's own ttl. */
  readonly ttlMs: number | null;
}

export interface RenewOutcome {
  readonly granted: boolean;
  readonly reason: LockRefusal | null;
  readonly lock: LockView;
}

export interface ReleaseInput {
  readonly resource: string;
  readonly agentId: string;
  readonly token: number;
}

export interface ReleaseOutcome {
  readonly released: boolean;
  readonly reason: LockRefusal | null;
  /** The state after the release (the next waiter may already hold it). */
  readonly lock: LockView;
}

export interface ValidateOutcome {
  readonly valid: boolean;
  readonly reason: LockRefusal | null;
  readonly lock: LockView;
}

export interface LockStore {
  acquire(tenant: string, input: AcquireInput): Promise<AcquireOutcome>;
  renew(tenant: string, input: RenewInput): Promise<RenewOutcome>;
  release(tenant: string, input: ReleaseInput): Promise<ReleaseOutcome>;
  status(tenant: string, resource: string): Promise<LockView>;
  /** Is `token` the current token of a live lease on `resource`? */
  validate(tenant: string, resource: string, token: number): Promise<ValidateOutcome>;
  /** Ends every wait (SHUTDOWN) and stops timers. */
  close(): Promise<void>;
}

/** Why a vote was not counted (in the body, status 200). */
export type VoteRefusal =
  | 'DUPLICATE_VOTE'
  | 'ALREADY_DECIDED'
  | 'NOT_IN_ELECTORATE'
  | 'QUORUM_MISMATCH'
  | 'ELECTORATE_MISMATCH'
  | 'VOTER_LIMIT'
  | 'PROPOSAL_LIMIT';

export type ProposalStatus = 'PENDING' | 'DECIDED' | 'UNREACHABLE';

export interface TallyEntry {
  readonly value: Scalar;
  readonly votes: number;
}

export interface ProposalView {
  readonly status: ProposalStatus;
  readonly decidedValue: Scalar | null;
  readonly epoch: number | null;
  /** Votes for the decided value, or for the leading value while pending. */
  readonly votesFor: number;
  readonly votesTotal: number;
  /** Votes a value needs. */
  readonly needed: number;
  readonly electorateSize: number | null;
  /** Values by votes, most first (ties: first voted first), at most TALLY_MAX entries. */
  readonly tally: readonly TallyEntry[];
  readonly distinctValues: number;
  /** true when pending and the two leading values have as many votes. */
  readonly tie: boolean;
  readonly expiresInMs: number;
}

export interface VoteInput {
  readonly proposalId: string;
  readonly agentId: string;
  readonly value: Scalar;
  readonly quorum: QuorumSpec;
  readonly electorate: readonly string[] | null;
}

export interface VoteOutcome {
  readonly accepted: boolean;
  readonly reason: VoteRefusal | null;
  /** null only when the proposal could not be stored (PROPOSAL_LIMIT). */
  readonly proposal: ProposalView | null;
}

export interface ProposalStore {
  /**
   * Records a vote (the first vote creates the proposal and fixes its quorum and electorate).
   * Throws VALIDATION_FAILED when a first vote's quorum cannot work (a fraction without an
   * electorate, a count above the electorate's size).
   */
  vote(tenant: string, input: VoteInput): Promise<VoteOutcome>;
  /** The next decision epoch of the tenant (stateless `decide` takes one per decision). */
  nextEpoch(tenant: string): Promise<number>;
  close(): Promise<void>;
}

/** Longest tally a proposal view lists. */
export const TALLY_MAX = 20;
