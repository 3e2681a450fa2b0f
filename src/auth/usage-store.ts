/**
 * Monthly usage counters behind one small interface, so that a networked store (Redis, one Lua
 * script per call) can replace the in-memory one without touching the gatekeeper. Both must pass
 * the shared suite in test/helpers/usage-store-suite.ts.
 *
 * A charge names one limited counter (`bucket`) and, optionally, an informational one (`tally`)
 * that moves with it: a pooled plan limits `plan` while `svc:<id>` records per-service usage.
 *
 * In-memory layout (hot path: two Map lookups and one or two increments, no allocation once a
 * subject has been seen this period):
 *
 *   periods: Map<'2026-11', Map<subject, Counters>>
 *                               │          └─ Map<bucket, number>  {'plan' → 9871, 'svc:API-01' → 4120, 'free:API-138' → 3}
 *                               └─ 'key:<16 hex>' | 'ip:<address or /64>'
 *
 * Only the newest two periods are kept (the current month and the one before, for requests that
 * straddle midnight of the first); older ones are dropped when a newer period is first charged.
 */

/** A value or a promise of it: the memory store answers synchronously, a networked one does not. */
export type MaybePromise<T> = T | Promise<T>;

export interface UsageCharge {
  /** UTC month, `YYYY-MM`. */
  readonly period: string;
  /** Whose counters: `key:<id>` or `ip:<address>`. */
  readonly subject: string;
  /** The counter that is limited. */
  readonly bucket: string;
  /** Largest value the bucket may reach. */
  readonly limit: number;
  /** An extra counter incremented and refunded together with `bucket`, never limited. */
  readonly tally?: string;
}

export interface TakeResult {
  readonly granted: boolean;
  /** The bucket's value after the call (granted: including this unit). */
  readonly used: number;
}

/** `takeWithBurst`'s answer: refused by the burst limit (`take` null), or the take's result. */
export type BurstTake = { readonly rateLimited: true; readonly retryAfterS: number; readonly take: null } | { readonly rateLimited: false; readonly retryAfterS: 0; readonly take: TakeResult };

export interface UsageStore {
  /**
   * Atomically: when bucket + 1 <= limit, add one to bucket (and tally) and grant; else change
   * nothing and refuse. Two concurrent calls can never both take the last unit.
   */
  take(charge: UsageCharge): MaybePromise<TakeResult>;
  /**
   * Optional, for networked stores: the burst limit (`rps` > 0, burst = max(1, rps), as
   * BurstLimiter) and `take` in one round trip. When the burst limit refuses, nothing is taken.
   * The gatekeeper prefers it to its BurstLimiter + `take` (two round trips) when present.
   */
  takeWithBurst?(charge: UsageCharge, rps: number): Promise<BurstTake>;
  /** Gives back one unit taken by `take` with the same charge (never below zero). */
  refund(charge: UsageCharge): MaybePromise<void>;
  /** Every counter of `subject` in `period` (bucket -> value); empty when none. */
  read(period: string, subject: string): MaybePromise<Readonly<Record<string, number>>>;
  close(): Promise<void>;
}

/** Plain-data form of the memory store: period -> subject -> bucket -> count. */
export type UsageData = Record<string, Record<string, Record<string, number>>>;

const KEEP_PERIODS = 2;

export class MemoryUsageStore implements UsageStore {
  readonly #periods = new Map<string, Map<string, Map<string, number>>>();
  #newest = '';
  #version = 0;

  /** Increases with every change; the snapshot writer compares it to skip idle writes. */
  get version(): number {
    return this.#version;
  }

  take(charge: UsageCharge): TakeResult {
    const counters = this.#counters(charge.period, charge.subject);
    const used = counters.get(charge.bucket) ?? 0;
    if (used + 1 > charge.limit) return { granted: false, used };
    counters.set(charge.bucket, used + 1);
    if (charge.tally !== undefined) counters.set(charge.tally, (counters.get(charge.tally) ?? 0) + 1);
    this.#version++;
    return { granted: true, used: used + 1 };
  }

  refund(charge: UsageCharge): void {
    const counters = this.#periods.get(charge.period)?.get(charge.subject);
    if (counters === undefined) return;
    let changed = decrement(counters, charge.bucket);
    if (charge.tally !== undefined) changed = decrement(counters, charge.tally) || changed;
    if (changed) this.#version++;
  }

  read(period: string, subject: string): Readonly<Record<string, number>> {
    const counters = this.#periods.get(period)?.get(subject);
    return counters === undefined ? {} : Object.fromEntries(counters);
  }

  async close(): Promise<void> {
    // Nothing to release: persistence is the snapshot writer's job.
  }

  /** Every counter, for the snapshot file. */
  export(): UsageData {
    const out: UsageData = {};
    for (const [period, subjects] of this.#periods) {
      const p: Record<string, Record<string, number>> = {};
      for (const [subject, counters] of subjects) if (counters.size > 0) p[subject] = Object.fromEntries(counters);
      out[period] = p;
    }
    return out;
  }

  /** Replaces every counter with `data` (boot, from a verified snapshot). */
  import(data: UsageData): void {
    this.#periods.clear();
    this.#newest = '';
    for (const period of Object.keys(data).sort()) {
      for (const [subject, counters] of Object.entries(data[period]!)) {
        const map = this.#counters(period, subject);
        for (const [bucket, n] of Object.entries(counters)) if (Number.isSafeInteger(n) && n > 0) map.set(bucket, n);
      }
    }
    this.#version++;
  }

  #counters(period: string, subject: string): Map<string, number> {
    let subjects = this.#periods.get(period);
    if (subjects === undefined) {
      subjects = new Map();
      this.#periods.set(period, subjects);
      if (period > this.#newest) {
        this.#newest = period;
        const ordered = [...this.#periods.keys()].sort();
        for (const old of ordered.slice(0, Math.max(0, ordered.length - KEEP_PERIODS))) this.#periods.delete(old);
      }
    }
    let counters = subjects.get(subject);
    if (counters === undefined) {
      counters = new Map();
      subjects.set(subject, counters);
    }
    return counters;
  }
}

function decrement(counters: Map<string, number>, bucket: string): boolean {
  const n = counters.get(bucket);
  if (n === undefined || n <= 0) return false;
  if (n === 1) counters.delete(bucket);
  else counters.set(bucket, n - 1);
  return true;
}
