/**
 * The in-memory LockStore: one Map of held resources per tenant, a fence sequence per tenant,
 * an expiry heap for sweeping and a FIFO queue of waiting acquires per resource.
 *
 * Invariants, kept by every method (each runs synchronously, so each is atomic):
 *   - a record exists only while its resource is held; `records.size` is what LOCK_MAX_RESOURCES
 *     bounds (a free record is deleted at once, an expired one when it is next touched or swept);
 *   - a resource with waiters is always held: when a lease ends (release, or expiry seen by a
 *     timer, a sweep or any operation on the resource) the head waiter is granted before anything
 *     else runs, so a fresh acquire can never overtake the queue;
 *   - a lease is live while `now < expiresAt` on the monotonic clock; a token is valid only while
 *     it is the record's token and the lease is live, and once dead it never comes back.
 */
import type { Clock, TimerHandle } from './clock.ts';
import { ExpiryHeap, type ExpiryEntry } from './expiry-heap.ts';
import { FenceSequence } from './fence.ts';
import type {
  AcquireInput,
  AcquireOutcome,
  LockRefusal,
  LockStore,
  LockView,
  ReleaseInput,
  ReleaseOutcome,
  RenewInput,
  RenewOutcome,
  ValidateOutcome,
} from './store.ts';

export interface MemoryLockStoreOptions {
  readonly clock: Clock;
  /** Resources a tenant may hold (or wait on) at once: LOCK_MAX_RESOURCES. */
  readonly maxResources: number;
  /** Acquires that may wait on one resource; default 256. */
  readonly maxWaiters?: number;
}

interface Waiter {
  readonly agentId: string;
  readonly ttlMs: number;
  readonly since: number;
  readonly resolve: (outcome: AcquireOutcome) => void;
  readonly signal: AbortSignal | undefined;
  timer: TimerHandle | null;
  onAbort: (() => void) | null;
  done: boolean;
}

interface LockRecord {
  readonly resource: string;
  holder: string | null;
  token: number;
  ttlMs: number;
  expiresAt: number;
  readonly waiters: Waiter[];
  /** Armed only while somebody waits: grants the head waiter when the lease runs out. */
  timer: TimerHandle | null;
}

interface TenantLocks {
  readonly records: Map<string, LockRecord>;
  readonly heap: ExpiryHeap;
  readonly fence: FenceSequence;
}

const FREE: LockView = Object.freeze({ holder: null, token: null, expiresInMs: null, waiters: 0 });

/** Expired leases an ordinary operation sweeps on the side (a full sweep runs at the limit). */
const SWEEP_BUDGET = 4;

export class MemoryLockStore implements LockStore {
  readonly #clock: Clock;
  readonly #maxResources: number;
  readonly #maxWaiters: number;
  readonly #tenants = new Map<string, TenantLocks>();
  #closed = false;

  constructor(options: MemoryLockStoreOptions) {
    if (!Number.isSafeInteger(options.maxResources) || options.maxResources < 1) throw new RangeError('maxResources must be a positive integer');
    const maxWaiters = options.maxWaiters ?? 256;
    if (!Number.isSafeInteger(maxWaiters) || maxWaiters < 0) throw new RangeError('maxWaiters must be a non-negative integer');
    this.#clock = options.clock;
    this.#maxResources = options.maxResources;
    this.#maxWaiters = maxWaiters;
  }

  acquire(tenant: string, input: AcquireInput): Promise<AcquireOutcome> {
    if (this.#closed) return refused('SHUTDOWN', FREE);
    const t = this.#tenant(tenant);
    const now = this.#clock.now();
    this.#sweep(t, now, SWEEP_BUDGET);
    const held = this.#live(t, input.resource, now);
    if (held !== undefined) {
      if (held.holder === input.agentId) {
        if (input.token === null) return refused('HELD_BY_CALLER', view(held, now));
        if (input.token !== held.token) return refused('STALE_TOKEN', view(held, now));
        this.#extend(t, held, input.ttlMs, now);
        return Promise.resolve({ granted: true, reason: null, token: held.token, renewed: true, waitedMs: 0, lock: view(held, now) });
      }
      if (input.waitMs > 0) return this.#enqueue(t, held, input, now);
      return refused('LOCK_HELD', view(held, now));
    }
    if (t.records.size >= this.#maxResources) {
      this.#sweep(t, now, Number.POSITIVE_INFINITY);
      if (t.records.size >= this.#maxResources) return refused('RESOURCE_LIMIT', FREE);
    }
    const rec: LockRecord = { resource: input.resource, holder: null, token: 0, ttlMs: 0, expiresAt: 0, waiters: [], timer: null };
    t.records.set(input.resource, rec);
    this.#grant(t, rec, input.agentId, input.ttlMs, now);
    return Promise.resolve({ granted: true, reason: null, token: rec.token, renewed: false, waitedMs: 0, lock: view(rec, now) });
  }

  renew(tenant: string, input: RenewInput): Promise<RenewOutcome> {
    const now = this.#clock.now();
    const t = this.#tenants.get(tenant);
    const rec = t === undefined ? undefined : this.#live(t, input.resource, now);
    if (t === undefined || rec === undefined) return Promise.resolve({ granted: false, reason: 'NOT_HELD', lock: FREE });
    const refusal = checkOwner(rec, input.agentId, input.token);
    if (refusal !== null) return Promise.resolve({ granted: false, reason: refusal, lock: view(rec, now) });
    this.#extend(t, rec, input.ttlMs ?? rec.ttlMs, now);
    return Promise.resolve({ granted: true, reason: null, lock: view(rec, now) });
  }

  release(tenant: string, input: ReleaseInput): Promise<ReleaseOutcome> {
    const now = this.#clock.now();
    const t = this.#tenants.get(tenant);
    const rec = t === undefined ? undefined : this.#live(t, input.resource, now);
    if (t === undefined || rec === undefined) return Promise.resolve({ released: false, reason: 'NOT_HELD', lock: FREE });
    const refusal = checkOwner(rec, input.agentId, input.token);
    if (refusal !== null) return Promise.resolve({ released: false, reason: refusal, lock: view(rec, now) });
    rec.holder = null;
    this.#handOff(t, rec, now);
    return Promise.resolve({ released: true, reason: null, lock: t.records.get(input.resource) === rec ? view(rec, now) : FREE });
  }

  status(tenant: string, resource: string): Promise<LockView> {
    const now = this.#clock.now();
    const t = this.#tenants.get(tenant);
    const rec = t === undefined ? undefined : this.#live(t, resource, now);
    return Promise.resolve(rec === undefined ? FREE : view(rec, now));
  }

  validate(tenant: string, resource: string, token: number): Promise<ValidateOutcome> {
    const now = this.#clock.now();
    const t = this.#tenants.get(tenant);
    const rec = t === undefined ? undefined : this.#live(t, resource, now);
    if (rec === undefined) return Promise.resolve({ valid: false, reason: 'NOT_HELD', lock: FREE });
    if (rec.token !== token) return Promise.resolve({ valid: false, reason: 'STALE_TOKEN', lock: view(rec, now) });
    return Promise.resolve({ valid: true, reason: null, lock: view(rec, now) });
  }

  /** Sizes, for tests and metrics: held resources, expiry-heap entries and waiting acquires. */
  stats(): { tenants: number; resources: number; heapEntries: number; waiters: number } {
    let resources = 0;
    let heapEntries = 0;
    let waiters = 0;
    for (const t of this.#tenants.values()) {
      resources += t.records.size;
      heapEntries += t.heap.size;
      for (const rec of t.records.values()) waiters += rec.waiters.length;
    }
    return { tenants: this.#tenants.size, resources, heapEntries, waiters };
  }

  close(): Promise<void> {
    this.#closed = true;
    for (const t of this.#tenants.values()) {
      for (const rec of t.records.values()) {
        rec.timer?.cancel();
        rec.timer = null;
        for (const w of rec.waiters.splice(0)) this.#finishWaiter(w, { granted: false, reason: 'SHUTDOWN', token: null, renewed: false, waitedMs: 0, lock: FREE });
      }
    }
    this.#tenants.clear();
    return Promise.resolve();
  }

  #tenant(name: string): TenantLocks {
    let t = this.#tenants.get(name);
    if (t === undefined) {
      t = { records: new Map(), heap: new ExpiryHeap(), fence: new FenceSequence(this.#clock.wallNow()) };
      this.#tenants.set(name, t);
    }
    return t;
  }

  /** The resource's record if it is held now; settles a lease that ran out first. */
  #live(t: TenantLocks, resource: string, now: number): LockRecord | undefined {
    const rec = t.records.get(resource);
    if (rec === undefined) return undefined;
    if (rec.holder !== null && rec.expiresAt <= now) {
      rec.holder = null;
      this.#handOff(t, rec, now);
    }
    return rec.holder === null ? undefined : rec;
  }

  #grant(t: TenantLocks, rec: LockRecord, agentId: string, ttlMs: number, now: number): void {
    rec.holder = agentId;
    rec.token = t.fence.next();
    this.#setLease(t, rec, ttlMs, now);
  }

  #extend(t: TenantLocks, rec: LockRecord, ttlMs: number, now: number): void {
    this.#setLease(t, rec, ttlMs, now);
    if (rec.waiters.length > 0) this.#armExpiry(t, rec, now);
  }

  #setLease(t: TenantLocks, rec: LockRecord, ttlMs: number, now: number): void {
    rec.ttlMs = ttlMs;
    rec.expiresAt = now + ttlMs;
    t.heap.push({ at: rec.expiresAt, resource: rec.resource, token: rec.token });
    if (t.heap.needsCompaction(t.records.size)) t.heap.compact(liveEntries(t.records));
  }

  /** The lease ended (holder already cleared): the head waiter gets it, or the record goes. */
  #handOff(t: TenantLocks, rec: LockRecord, now: number): void {
    const next = rec.waiters.shift();
    if (next === undefined) {
      rec.timer?.cancel();
      rec.timer = null;
      t.records.delete(rec.resource);
      return;
    }
    this.#grant(t, rec, next.agentId, next.ttlMs, now);
    this.#armExpiry(t, rec, now);
    this.#finishWaiter(next, { granted: true, reason: null, token: rec.token, renewed: false, waitedMs: now - next.since, lock: view(rec, now) });
  }

  /** While somebody waits, a timer hands the lease over the moment it runs out. */
  #armExpiry(t: TenantLocks, rec: LockRecord, now: number): void {
    rec.timer?.cancel();
    rec.timer = null;
    if (rec.waiters.length === 0 || rec.holder === null) return;
    rec.timer = this.#clock.setTimer(() => {
      rec.timer = null;
      if (t.records.get(rec.resource) !== rec) return;
      const at = this.#clock.now();
      // A renewal moved the end, or the timer fired a fraction of a millisecond early.
      if (this.#live(t, rec.resource, at) === rec && rec.timer === null) this.#armExpiry(t, rec, at);
    }, rec.expiresAt - now);
  }

  #enqueue(t: TenantLocks, rec: LockRecord, input: AcquireInput, now: number): Promise<AcquireOutcome> {
    if (input.signal?.aborted) return refused('ABORTED', view(rec, now));
    if (rec.waiters.length >= this.#maxWaiters) return refused('QUEUE_FULL', view(rec, now));
    return new Promise<AcquireOutcome>((resolve) => {
      const w: Waiter = { agentId: input.agentId, ttlMs: input.ttlMs, since: now, resolve, signal: input.signal, timer: null, onAbort: null, done: false };
      w.timer = this.#clock.setTimer(() => this.#dropWaiter(t, rec, w, 'WAIT_TIMEOUT'), input.waitMs);
      if (w.signal !== undefined) {
        w.onAbort = () => this.#dropWaiter(t, rec, w, 'ABORTED');
        w.signal.addEventListener('abort', w.onAbort, { once: true });
      }
      rec.waiters.push(w);
      if (rec.waiters.length === 1) this.#armExpiry(t, rec, now);
    });
  }

  #dropWaiter(t: TenantLocks, rec: LockRecord, w: Waiter, reason: LockRefusal): void {
    if (w.done) return;
    const now = this.#clock.now();
    // The lease may have run out a hair before its timer: settle it first, fairly.
    if (t.records.get(rec.resource) === rec) this.#live(t, rec.resource, now);
    if (w.done) return;
    const i = rec.waiters.indexOf(w);
    if (i !== -1) rec.waiters.splice(i, 1);
    if (rec.waiters.length === 0) {
      rec.timer?.cancel();
      rec.timer = null;
    }
    const lock = t.records.get(rec.resource) === rec && rec.holder !== null ? view(rec, now) : FREE;
    this.#finishWaiter(w, { granted: false, reason, token: null, renewed: false, waitedMs: now - w.since, lock });
  }

  #finishWaiter(w: Waiter, outcome: AcquireOutcome): void {
    if (w.done) return;
    w.done = true;
    w.timer?.cancel();
    w.timer = null;
    if (w.onAbort !== null) w.signal?.removeEventListener('abort', w.onAbort);
    w.resolve(outcome);
  }

  #sweep(t: TenantLocks, now: number, budget: number): void {
    for (let n = 0; n < budget; n++) {
      const e = t.heap.peek();
      if (e === undefined || e.at > now) return;
      t.heap.pop();
      const rec = t.records.get(e.resource);
      if (rec !== undefined && rec.holder !== null && rec.token === e.token && rec.expiresAt === e.at) {
        rec.holder = null;
        this.#handOff(t, rec, now);
      }
    }
  }
}

function checkOwner(rec: LockRecord, agentId: string, token: number): LockRefusal | null {
  if (rec.token !== token) return 'STALE_TOKEN';
  if (rec.holder !== agentId) return 'NOT_HOLDER';
  return null;
}

function view(rec: LockRecord, now: number): LockView {
  return { holder: rec.holder, token: rec.token, expiresInMs: Math.max(0, rec.expiresAt - now), waiters: rec.waiters.length };
}

function refused(reason: LockRefusal, lock: LockView): Promise<AcquireOutcome> {
  return Promise.resolve({ granted: false, reason, token: null, renewed: false, waitedMs: 0, lock });
}

function* liveEntries(records: Map<string, LockRecord>): Iterable<ExpiryEntry> {
  for (const rec of records.values()) if (rec.holder !== null) yield { at: rec.expiresAt, resource: rec.resource, token: rec.token };
}
