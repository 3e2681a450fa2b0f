/**
 * LockStore on Redis (API-21 across gateways): the same contract as MemoryLockStore
 * (test/helpers/consensus-store-contract.ts), with every step one Lua script (lock-scripts.ts).
 *
 * Waiting acquires (wait_ms) queue in Redis, first come first served across every gateway. The
 * grant itself happens inside Redis, in whichever script ends the lease (release, or any touch
 * after expiry); the waiting gateway learns of it:
 *   - at once, from a PUBLISH on `<prefix>lock-events` (message = the lock key),
 *   - when the holder's lease runs out (a timer, which also lets Redis hand the lease over),
 *   - at the latest every POLL_MS (a lost message or a reconnect cannot strand a waiter).
 * Its own deadline (wait_ms) or an abort asks Redis to drop it; when the grant won the race, the
 * waiter gets the lease (the core hands back a lease granted to a client that left).
 *
 * Redis errors become 503 OVERLOADED (never 500): a lock decision is never guessed.
 */
import { randomBytes } from 'node:crypto';
import type { AcquireInput, AcquireOutcome, LockRefusal, LockStore, LockView, ReleaseInput, ReleaseOutcome, RenewInput, RenewOutcome, ValidateOutcome } from '../services/consensus/store.ts';
import { ACQUIRE, INSPECT, RELEASE, RENEW, WAITER } from './lock-scripts.ts';
import type { LuaScript, RedisConnection } from './redis-connection.ts';
import { stateUnavailable } from './unavailable.ts';

export interface RedisLockStoreOptions {
  /** Resources a tenant may hold (or wait on) at once: LOCK_MAX_RESOURCES. */
  readonly maxResources: number;
  /** Acquires that may wait on one resource; default 256. */
  readonly maxWaiters?: number;
}

/** Longest a waiter goes without asking Redis (ms). */
const POLL_MS = 200;

type Reply = [kind: string, reason: string, token: string, extra: string, holder: string, holderToken: string, expiresInMs: string, waiters: number];

interface Waiter {
  readonly id: string;
  readonly tenant: string;
  readonly resource: string;
  readonly agentId: string;
  readonly lockKey: string;
  readonly since: number;
  readonly resolve: (o: AcquireOutcome) => void;
  readonly reject: (err: unknown) => void;
  readonly signal: AbortSignal | undefined;
  deadline: NodeJS.Timeout | null;
  poll: NodeJS.Timeout | null;
  onAbort: (() => void) | null;
  asking: boolean;
  done: boolean;
}

const FREE: LockView = Object.freeze({ holder: null, token: null, expiresInMs: null, waiters: 0 });

export class RedisLockStore implements LockStore {
  readonly #redis: RedisConnection;
  readonly #maxResources: number;
  readonly #maxWaiters: number;
  readonly #channel: string;
  readonly #s: Readonly<Record<'acquire' | 'waiter' | 'renew' | 'release' | 'inspect', LuaScript>>;
  /** Local waiters by lock key (what a lock-event message names). */
  readonly #waiting = new Map<string, Set<Waiter>>();
  #subscribed: Promise<void> | null = null;
  /** Acquires whose first reply has not arrived yet (close waits for them). */
  readonly #starting = new Set<Promise<unknown>>();
  #closed = false;

  constructor(redis: RedisConnection, options: RedisLockStoreOptions) {
    if (!Number.isSafeInteger(options.maxResources) || options.maxResources < 1) throw new RangeError('maxResources must be a positive integer');
    const maxWaiters = options.maxWaiters ?? 256;
    if (!Number.isSafeInteger(maxWaiters) || maxWaiters < 0) throw new RangeError('maxWaiters must be a non-negative integer');
    this.#redis = redis;
    this.#maxResources = options.maxResources;
    this.#maxWaiters = maxWaiters;
    this.#channel = `${redis.keyPrefix}lock-events`;
    this.#s = {
      acquire: redis.script('lock-acquire', ACQUIRE),
      waiter: redis.script('lock-waiter', WAITER),
      renew: redis.script('lock-renew', RENEW),
      release: redis.script('lock-release', RELEASE),
      inspect: redis.script('lock-inspect', INSPECT),
    };
  }

  async acquire(tenant: string, input: AcquireInput): Promise<AcquireOutcome> {
    if (this.#closed) return refused('SHUTDOWN', FREE);
    if (input.waitMs > 0 && input.signal?.aborted) return refused('ABORTED', FREE);
    const id = input.waitMs > 0 ? randomBytes(9).toString('base64url') : '';
    const sent = this.#run(this.#s.acquire, tenant, input.resource, [input.agentId, input.ttlMs, input.waitMs, input.token === null ? '' : input.token, this.#maxResources, this.#maxWaiters, id]);
    this.#starting.add(sent);
    let r: Reply;
    try {
      r = await sent;
    } finally {
      this.#starting.delete(sent);
    }
    if (r[0] === 'G') return { granted: true, reason: null, token: Number(r[2]), renewed: r[3] === '1', waitedMs: 0, lock: viewOf(r) };
    if (r[0] === 'R') return refused(r[1] as LockRefusal, viewOf(r));
    return this.#wait(tenant, input, id, viewOf(r));
  }

  async renew(tenant: string, input: RenewInput): Promise<RenewOutcome> {
    const r = await this.#run(this.#s.renew, tenant, input.resource, [input.agentId, input.token, input.ttlMs === null ? '' : input.ttlMs]);
    return { granted: r[0] === 'G', reason: r[0] === 'G' ? null : (r[1] as LockRefusal), lock: viewOf(r) };
  }

  async release(tenant: string, input: ReleaseInput): Promise<ReleaseOutcome> {
    const r = await this.#run(this.#s.release, tenant, input.resource, [input.agentId, input.token]);
    return { released: r[0] === 'G', reason: r[0] === 'G' ? null : (r[1] as LockRefusal), lock: viewOf(r) };
  }

  async status(tenant: string, resource: string): Promise<LockView> {
    return viewOf(await this.#run(this.#s.inspect, tenant, resource, ['']));
  }

  async validate(tenant: string, resource: string, token: number): Promise<ValidateOutcome> {
    const r = await this.#run(this.#s.inspect, tenant, resource, [token]);
    return { valid: r[0] === 'G', reason: r[0] === 'G' ? null : (r[1] as LockRefusal), lock: viewOf(r) };
  }

  /** Ends every local wait with SHUTDOWN and takes it out of the Redis queue (a lease granted meanwhile is handed back). */
  async close(): Promise<void> {
    this.#closed = true;
    // An acquire already sent may still come back as a waiter: #wait then ends it with SHUTDOWN.
    await Promise.allSettled([...this.#starting]);
    const all = [...this.#waiting.values()].flatMap((set) => [...set]);
    await Promise.all(
      all.map(async (w) => {
        this.#stopTimers(w);
        try {
          const r = await this.#run(this.#s.waiter, w.tenant, w.resource, [w.id, '1']);
          if (r[0] === 'G') await this.#run(this.#s.release, w.tenant, w.resource, [w.agentId, r[2]]).catch(() => undefined);
        } catch {
          // Redis is gone: the queue entry expires with its deadline.
        }
        this.#finish(w, { granted: false, reason: 'SHUTDOWN', token: null, renewed: false, waitedMs: 0, lock: FREE });
      }),
    );
  }

  #wait(tenant: string, input: AcquireInput, id: string, lock: LockView): Promise<AcquireOutcome> {
    const lockKey = `${tenantBase(this.#redis.keyPrefix, tenant)}l:${input.resource}`;
    return new Promise<AcquireOutcome>((resolve, reject) => {
      const w: Waiter = { id, tenant, resource: input.resource, agentId: input.agentId, lockKey, since: performance.now(), resolve, reject, signal: input.signal, deadline: null, poll: null, onAbort: null, asking: false, done: false };
      let set = this.#waiting.get(lockKey);
      if (set === undefined) {
        set = new Set();
        this.#waiting.set(lockKey, set);
      }
      set.add(w);
      w.deadline = setTimeout(() => void this.#drop(w, 'WAIT_TIMEOUT'), input.waitMs);
      if (w.signal !== undefined) {
        w.onAbort = () => void this.#drop(w, 'ABORTED');
        w.signal.addEventListener('abort', w.onAbort, { once: true });
      }
      // Aborted or closed while the acquire was on its way: leave the queue at once.
      if (w.signal?.aborted) return void this.#drop(w, 'ABORTED');
      if (this.#closed) return void this.#drop(w, 'SHUTDOWN');
      this.#schedule(w, lock.expiresInMs);
      this.#subscribed ??= this.#redis.subscribe(this.#channel, (key) => this.#onEvent(key)).catch(() => {
        // Without messages the timers still find the grant; try again with the next waiter.
        this.#subscribed = null;
      });
      // A release between our enqueue and the subscription would go unheard: ask once it is up.
      void this.#subscribed?.then(() => this.#ask(w));
    });
  }

  #onEvent(lockKey: string): void {
    const set = this.#waiting.get(lockKey);
    if (set !== undefined) for (const w of set) void this.#ask(w);
  }

  /** Next time to ask: when the holder's lease ends (Redis then hands it over), at most POLL_MS away. */
  #schedule(w: Waiter, expiresInMs: number | null): void {
    if (w.done) return;
    if (w.poll !== null) clearTimeout(w.poll);
    const ms = expiresInMs === null ? POLL_MS : Math.min(POLL_MS, Math.ceil(expiresInMs) + 1);
    w.poll = setTimeout(() => void this.#ask(w), ms);
  }

  async #ask(w: Waiter): Promise<void> {
    if (w.done || w.asking) return;
    w.asking = true;
    try {
      const r = await this.#run(this.#s.waiter, w.tenant, w.resource, [w.id, '0']);
      if (r[0] === 'G') this.#finish(w, { granted: true, reason: null, token: Number(r[2]), renewed: false, waitedMs: Number(r[3]), lock: viewOf(r) });
      else if (r[0] === 'T') this.#finish(w, refusal('WAIT_TIMEOUT', performance.now() - w.since, viewOf(r)));
      else this.#schedule(w, viewOf(r).expiresInMs);
    } catch {
      // Redis unreachable for now: keep asking until the deadline, which answers 503 if it still is.
      this.#schedule(w, null);
    } finally {
      w.asking = false;
    }
  }

  async #drop(w: Waiter, reason: 'WAIT_TIMEOUT' | 'ABORTED' | 'SHUTDOWN'): Promise<void> {
    if (w.done) return;
    this.#stopTimers(w);
    try {
      const r = await this.#run(this.#s.waiter, w.tenant, w.resource, [w.id, '1']);
      // The grant won the race: the lease is the caller's (an aborted caller's is handed back by the core).
      if (r[0] === 'G') this.#finish(w, { granted: true, reason: null, token: Number(r[2]), renewed: false, waitedMs: Number(r[3]), lock: viewOf(r) });
      else this.#finish(w, refusal(reason, performance.now() - w.since, viewOf(r)));
    } catch (err) {
      if (w.done) return;
      w.done = true;
      this.#forget(w);
      w.reject(err);
    }
  }

  #stopTimers(w: Waiter): void {
    if (w.deadline !== null) clearTimeout(w.deadline);
    if (w.poll !== null) clearTimeout(w.poll);
    w.deadline = null;
    w.poll = null;
    if (w.onAbort !== null) w.signal?.removeEventListener('abort', w.onAbort);
    w.onAbort = null;
  }

  #finish(w: Waiter, outcome: AcquireOutcome): void {
    if (w.done) return;
    w.done = true;
    this.#stopTimers(w);
    this.#forget(w);
    w.resolve(outcome);
  }

  #forget(w: Waiter): void {
    const set = this.#waiting.get(w.lockKey);
    set?.delete(w);
    if (set?.size === 0) this.#waiting.delete(w.lockKey);
  }

  async #run(script: LuaScript, tenant: string, resource: string, args: readonly (string | number)[]): Promise<Reply> {
    try {
      return await this.#redis.eval<Reply>(script, [], [tenantBase(this.#redis.keyPrefix, tenant), resource, this.#channel, ...args]);
    } catch (err) {
      throw stateUnavailable(err);
    }
  }
}

function tenantBase(prefix: string, tenant: string): string {
  return `${prefix}lk:${tenant.length}:${tenant}:`;
}

function viewOf(r: Reply): LockView {
  if (r[4] === '') return r[7] === 0 ? FREE : { holder: null, token: null, expiresInMs: null, waiters: r[7] };
  return { holder: r[4], token: Number(r[5]), expiresInMs: Number(r[6]), waiters: r[7] };
}

function refusal(reason: LockRefusal, waitedMs: number, lock: LockView): AcquireOutcome {
  return { granted: false, reason, token: null, renewed: false, waitedMs, lock };
}

function refused(reason: LockRefusal, lock: LockView): AcquireOutcome {
  return refusal(reason, 0, lock);
}
