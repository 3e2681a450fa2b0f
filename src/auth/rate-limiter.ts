/**
 * Burst limit per caller (CONTRACT.md §4): a token bucket per subject. A bucket holds at most
 * `burst` tokens and refills at `rps` tokens per second; each request takes one. The burst is one
 * second's worth of requests (`burst = max(1, rps)`), so a caller may send `rps` requests at once
 * and then `rps` per second, on average, forever.
 *
 *   buckets: Map<subject, {tokens, at}>   tokens refilled lazily on each take (no timers per key);
 *   a sweep every minute drops buckets that are full again (idle callers cost no memory).
 *
 * Time comes from a monotonic clock (injectable for tests): wall-clock jumps never mint tokens.
 */

export interface RateDecision {
  readonly allowed: boolean;
  /** Seconds until one token is available (0 when allowed). */
  readonly retryAfterS: number;
}

interface Bucket {
  tokens: number;
  at: number;
  rps: number;
}

const ALLOWED: RateDecision = Object.freeze({ allowed: true, retryAfterS: 0 });
const SWEEP_MS = 60_000;

export class TokenBucketLimiter {
  readonly #buckets = new Map<string, Bucket>();
  readonly #now: () => number;
  #lastSweep: number;

  /** `now`: monotonic milliseconds (default `performance.now`). */
  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
    this.#lastSweep = now();
  }

  /** Takes one token from `subject`'s bucket refilled at `rps`; `rps` <= 0 means unlimited. */
  take(subject: string, rps: number): RateDecision {
    if (!(rps > 0)) return ALLOWED;
    const now = this.#now();
    if (now - this.#lastSweep > SWEEP_MS) this.#sweep(now);
    const burst = Math.max(1, rps);
    let b = this.#buckets.get(subject);
    if (b === undefined) {
      b = { tokens: burst, at: now, rps };
      this.#buckets.set(subject, b);
    } else {
      // A plan change (rps differs) keeps the tokens, capped at the new burst.
      b.tokens = Math.min(burst, b.tokens + ((now - b.at) / 1000) * rps);
      b.at = now;
      b.rps = rps;
    }
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return ALLOWED;
    }
    return { allowed: false, retryAfterS: Math.max(1, Math.ceil((1 - b.tokens) / rps)) };
  }

  /** Buckets currently held (tests, metrics). */
  get size(): number {
    return this.#buckets.size;
  }

  #sweep(now: number): void {
    this.#lastSweep = now;
    for (const [subject, b] of this.#buckets) {
      if (b.tokens + ((now - b.at) / 1000) * b.rps >= Math.max(1, b.rps)) this.#buckets.delete(subject);
    }
  }
}
