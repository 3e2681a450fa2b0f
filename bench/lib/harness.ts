/**
 * Shared reporting for benchmarks. Every bench script prints a human table and, last, one line
 * `BENCH_RESULT <json>` that `bench/run.ts` collects into the aggregate table and checks against
 * the CONTRACT.md §7 ceilings.
 */
export interface BenchRow {
  readonly label: string;
  readonly reqPerSec?: number;
  readonly opsPerSec?: number;
  readonly p50Ms?: number;
  readonly p99Ms?: number;
  readonly extra?: Readonly<Record<string, string | number>>;
}

export interface BenchReport {
  readonly name: string;
  /** The service whose §7 ceiling applies. */
  readonly service?: 'API-01' | 'API-05' | 'API-08' | 'API-09' | 'API-21' | 'API-138' | 'GATEWAY';
  /** The ceiling at p99 (ms); the aggregate fails when measuredP99Ms exceeds it. */
  readonly ceilingP99Ms?: number;
  readonly measuredP99Ms?: number;
  readonly rows: readonly BenchRow[];
  /** e.g. { 'gateway / raw uWS': 0.91 }. */
  readonly ratios?: Readonly<Record<string, number>>;
  readonly notes?: readonly string[];
}

/** CONTRACT.md §7 ceilings, server-side p99 in ms. */
export const CEILINGS_MS = { 'API-01': 30, 'API-05': 5, 'API-08': 10, 'API-09': 15, 'API-138': 20 } as const;

export const RESULT_PREFIX = 'BENCH_RESULT ';

export function benchOptions(): { duration: number; connections: number } {
  const duration = Number(process.env.BENCH_DURATION ?? 5);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
  if (!Number.isFinite(duration) || duration <= 0) throw new RangeError('BENCH_DURATION must be a positive number of seconds');
  if (!Number.isInteger(connections) || connections < 1) throw new RangeError('BENCH_CONNECTIONS must be a positive integer');
  return { duration, connections };
}

const fmt = (n: number | undefined, digits = 3): string => (n === undefined ? '' : Number.isInteger(n) && n > 100 ? String(n) : n.toFixed(digits));

export function formatTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(headers), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...rows.map(line)].join('\n');
}

export function printReport(report: BenchReport): void {
  const extraKeys = [...new Set(report.rows.flatMap((r) => Object.keys(r.extra ?? {})))];
  const headers = ['case', 'req/s', 'ops/s', 'p50 ms', 'p99 ms', ...extraKeys];
  const rows = report.rows.map((r) => [
    r.label,
    r.reqPerSec === undefined ? '' : Math.round(r.reqPerSec).toString(),
    r.opsPerSec === undefined ? '' : Math.round(r.opsPerSec).toString(),
    fmt(r.p50Ms),
    fmt(r.p99Ms),
    ...extraKeys.map((k) => String(r.extra?.[k] ?? '')),
  ]);
  console.log(`\n## ${report.name}\n`);
  console.log(formatTable(headers, rows));
  for (const [k, v] of Object.entries(report.ratios ?? {})) console.log(`ratio ${k}: ${v.toFixed(2)}`);
  if (report.ceilingP99Ms !== undefined && report.measuredP99Ms !== undefined) {
    console.log(`p99 ${report.measuredP99Ms.toFixed(3)} ms vs ceiling ${report.ceilingP99Ms} ms: ${report.measuredP99Ms <= report.ceilingP99Ms ? 'within' : 'MISSED'}`);
  }
  for (const n of report.notes ?? []) console.log(`note: ${n}`);
  console.log(RESULT_PREFIX + JSON.stringify(report));
}

/** Percentile of an ascending-sorted array (nearest rank). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}
