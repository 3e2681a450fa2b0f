/**
 * Metering periods: calendar months in UTC (CONTRACT.md §4). A period id is `YYYY-MM`, which
 * sorts as text in time order.
 */

export interface Period {
  /** `2026-11` */
  readonly id: string;
  /** Epoch ms of the first instant of the month (UTC). */
  readonly startMs: number;
  /** Epoch ms of the first instant of the next month: the reset time. */
  readonly endMs: number;
}

/** The UTC calendar month containing `ms`. */
export function periodAt(ms: number): Period {
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  return {
    id: `${String(y).padStart(4, '0')}-${String(m + 1).padStart(2, '0')}`,
    startMs: Date.UTC(y, m, 1),
    endMs: Date.UTC(y, m + 1, 1),
  };
}

/** Whole seconds from `ms` until the period ends, at least 1 (a Retry-After of 0 invites a busy loop). */
export function secondsUntilReset(period: Period, ms: number): number {
  return Math.max(1, Math.ceil((period.endMs - ms) / 1000));
}
