/**
 * API-21 consensus and lock arbiter. Everything runs inline on the event loop (each operation is
 * microseconds of Map work, or one Lua script with STATE_BACKEND=redis); state lives in the stores
 * this factory creates, one set per gateway: in memory, or on the gateway's Redis connection
 * (src/state), shared by every gateway on that Redis.
 */
import { RedisLockStore } from '../../state/redis-lock-store.ts';
import { RedisProposalStore } from '../../state/redis-proposal-store.ts';
import type { ServiceDeps, ServiceFactory, ServiceModule } from '../types.ts';
import { systemClock, type Clock } from './clock.ts';
import { ConsensusCore } from './core.ts';
import { MemoryLockStore } from './memory-lock-store.ts';
import { MemoryProposalStore } from './memory-proposal-store.ts';
import { consensusRoute } from './route.ts';
import { LIMITS } from './schema.ts';
import type { LockStore, ProposalStore } from './store.ts';

export interface ConsensusServiceOptions {
  /** Default: the process clock (performance.now for leases). Tests pass a ManualClock. */
  readonly clock?: Clock;
  /** Default: RedisLockStore on `deps.state.redis` when set, else MemoryLockStore (LOCK_MAX_RESOURCES). */
  readonly lockStore?: LockStore;
  /** Default: RedisProposalStore on `deps.state.redis` when set, else MemoryProposalStore (PROPOSAL_TTL_MS, PROPOSAL_MAX). */
  readonly proposalStore?: ProposalStore;
}

export function createConsensusService(deps: ServiceDeps, options: ConsensusServiceOptions = {}): ServiceModule {
  const clock = options.clock ?? systemClock();
  const { maxResources, maxProposals, proposalTtlMs } = deps.config.consensus;
  // STATE_BACKEND=redis: locks and votes shared by every gateway on that Redis (src/state).
  const redis = deps.state?.redis ?? null;
  const locks =
    options.lockStore ??
    (redis === null ? new MemoryLockStore({ clock, maxResources, maxWaiters: LIMITS.waitersPerResource }) : new RedisLockStore(redis, { maxResources, maxWaiters: LIMITS.waitersPerResource }));
  const proposals =
    options.proposalStore ??
    (redis === null
      ? new MemoryProposalStore({ clock, ttlMs: proposalTtlMs, maxProposals, maxVoters: LIMITS.votersPerProposal })
      : new RedisProposalStore(redis, { ttlMs: proposalTtlMs, maxProposals, maxVoters: LIMITS.votersPerProposal }));
  const core = new ConsensusCore({ locks, proposals, clock });
  return {
    id: 'API-21',
    routes: [consensusRoute(core)],
    // Redis unreachable: requests answer 503 OVERLOADED until it is back.
    health: () => (redis !== null && !redis.ready ? 'degraded' : 'up'),
    async close() {
      await Promise.all([locks.close(), proposals.close()]);
    },
  };
}

export const consensusFactory: ServiceFactory = (deps) => createConsensusService(deps);
