/**
 * Time for the lock arbiter. Leases are measured on a monotonic clock (`performance.now()`), so a
 * wall-clock step (NTP correction, an operator changing the date) never lengthens or shortens a
 * lease; the wall clock is read only to print `expires_at` and to seed fence sequences (see
 * fence.ts). Timers go through the clock too, so tests can drive time by hand (ManualClock).
 */

export interface TimerHandle {
  cancel(): void;
}

export interface Clock {
  /** Monotonic milliseconds (arbitrary origin, never goes back). */
  now(): number;
  /** Wall-clock milliseconds since the Unix epoch (may jump). */
  wallNow(): number;
  /** Runs `fn` once after at least `ms` monotonic milliseconds. */
  setTimer(fn: () => void, ms: number): TimerHandle;
}

/** The process clock: `performance.now()`, `Date.now()` and unref'd `setTimeout`. */
export function systemClock(): Clock {
  return {
    now: () => performance.now(),
    wallNow: () => Date.now(),
    setTimer(fn, ms) {
      const t = setTimeout(fn, Math.max(0, Math.ceil(ms)));
      // A waiting acquire must not keep a closing process alive on its own.
      t.unref();
      return { cancel: () => clearTimeout(t) };
    },
  };
}

interface ManualTimer {
  at: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

/**
 * A clock moved by hand, for tests: `advance(ms)` runs every timer that falls due, in time order,
 * with `now()` set to each timer's due time while it runs. `jumpWall(ms)` moves only the wall
 * clock, as an NTP step would.
 */
export class ManualClock implements Clock {
  #now: number;
  #wall: number;
  #seq = 0;
  #timers: ManualTimer[] = [];

  constructor(start: { now?: number; wall?: number } = {}) {
    this.#now = start.now ?? 1_000;
    this.#wall = start.wall ?? Date.UTC(2026, 0, 1);
  }

  now(): number {
    return this.#now;
  }

  wallNow(): number {
    return this.#wall;
  }

  setTimer(fn: () => void, ms: number): TimerHandle {
    const timer: ManualTimer = { at: this.#now + Math.max(0, ms), seq: this.#seq++, fn, cancelled: false };
    this.#timers.push(timer);
    return {
      cancel: () => {
        timer.cancelled = true;
      },
    };
  }

  /** Pending (not cancelled) timers. */
  get pendingTimers(): number {
    return this.#timers.filter((t) => !t.cancelled).length;
  }

  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError('advance(ms) needs ms >= 0');
    const target = this.#now + ms;
    for (;;) {
      this.#timers = this.#timers.filter((t) => !t.cancelled);
      let next: ManualTimer | undefined;
      for (const t of this.#timers) if (t.at <= target && (next === undefined || t.at < next.at || (t.at === next.at && t.seq < next.seq))) next = t;
      if (next === undefined) break;
      this.#wall += next.at - this.#now;
      this.#now = Math.max(this.#now, next.at);
      next.cancelled = true;
      next.fn();
    }
    this.#wall += target - this.#now;
    this.#now = target;
  }

  jumpWall(ms: number): void {
    this.#wall += ms;
  }
}
