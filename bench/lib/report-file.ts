/**
 * Writes the result of one `npm run bench` invocation as a Markdown file (BENCHMARKS.md):
 * when and how it ran, on which machine, the summary table (p99, §7 ceiling, same-run ratios),
 * a short "How to read", then each benchmark's own rows while the file stays under MAX_BYTES.
 * The file holds one run only; git keeps the earlier ones.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import type { BenchReport, BenchRow } from './harness.ts';

/** Bound for BENCHMARKS.md: one run, readable in one sitting. */
export const MAX_BYTES = 20_000;

export interface MachineInfo {
  readonly cores: number;
  readonly cpuModel: string;
  readonly memoryGiB: number;
  readonly node: string;
  readonly uwsNative: boolean;
  readonly loadAverage: readonly number[];
}

export interface RunRecord {
  readonly startedAt: Date;
  readonly finishedAt: Date;
  /** The command as a user would type it, e.g. `BENCH_DURATION=5 npm run bench -- --write BENCHMARKS.md`. */
  readonly command: string;
  readonly filter: string | undefined;
  readonly commit: string | null;
  readonly machine: MachineInfo;
  /** One entry per script that ran, in order. */
  readonly scripts: readonly { script: string; code: number; stealPercent: number; reports: readonly BenchReport[] }[];
  readonly summary: readonly (readonly string[])[];
  readonly failures: readonly string[];
}

export function machineInfo(uwsNative: boolean): MachineInfo {
  return {
    cores: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    uwsNative,
    loadAverage: os.loadavg(),
  };
}

/**
 * Short commit id, with `+ uncommitted changes` when tracked files differ from it (`except`, the
 * report file itself, does not count: a second run must not call the first one's output a change);
 * null outside git.
 */
export function gitCommit(cwd: string, except?: string): string | null {
  try {
    const head = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
    const pathspec = except === undefined ? [] : ['--', '.', `:(exclude)${except}`];
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no', ...pathspec], { cwd, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim() !== '';
    return dirty ? `${head} + uncommitted changes` : head;
  } catch {
    return null;
  }
}

/** The bench command as typed: the BENCH_* variables that were set, then npm's arguments. */
export function commandLine(env: NodeJS.ProcessEnv, args: readonly string[]): string {
  const vars = Object.keys(env)
    .filter((k) => k.startsWith('BENCH_'))
    .sort()
    .map((k) => `${k}=${env[k]}`);
  return [...vars, 'npm run bench', ...(args.length > 0 ? ['--', ...args] : [])].join(' ');
}

const utc = (d: Date): string => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
// A `|` inside a cell would end it.
const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  return [`| ${headers.join(' | ')} |`, `| ${headers.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n');
}

const num = (n: number | undefined, digits: number): string => (n === undefined || !Number.isFinite(n) ? '' : n.toFixed(digits));

function rowsTable(rows: readonly BenchRow[], withExtras: boolean): string {
  const extraKeys = withExtras ? [...new Set(rows.flatMap((r) => Object.keys(r.extra ?? {})))] : [];
  const has = (pick: (r: BenchRow) => number | undefined) => rows.some((r) => pick(r) !== undefined);
  const cols: { head: string; value: (r: BenchRow) => string }[] = [{ head: 'case', value: (r) => r.label }];
  if (has((r) => r.reqPerSec)) cols.push({ head: 'req/s', value: (r) => num(r.reqPerSec, 0) });
  if (has((r) => r.opsPerSec)) cols.push({ head: 'ops/s', value: (r) => num(r.opsPerSec, 0) });
  if (has((r) => r.p50Ms)) cols.push({ head: 'p50 ms', value: (r) => num(r.p50Ms, 3) });
  if (has((r) => r.p99Ms)) cols.push({ head: 'p99 ms', value: (r) => num(r.p99Ms, 3) });
  for (const k of extraKeys) cols.push({ head: k, value: (r) => String(r.extra?.[k] ?? '') });
  return table(cols.map((c) => c.head), rows.map((r) => cols.map((c) => c.value(r))));
}

const HOW_TO_READ = `## How to read

- **p99 ms** is server time at the 99th percentile: the \`latency_ms\` of the responses for HTTP
  rows (the load client shares the machine, its own round trip is not in it), in-process time for
  micro rows. **§7 ceiling** is the interface's per-service p99 limit (docs/api.md, "Latency
  ceilings"), or the project's own aim where the interface sets none (API-21); the run exits
  non-zero when a row misses it.
- **Ratios** compare the gateway with a baseline measured in the same invocation (raw uWS or a
  Fastify server running the same handler, or a peer library); each name says which side is
  divided by which. On a small shared machine absolute numbers move between runs by tens of
  percent; the ratios are what holds, so compare ratios, not req/s, across runs.
- A row's own script prints more (every case, notes); re-run one with
  \`npm run bench -- --filter <name>\` (\`BENCH_DURATION\` seconds per case, default 5;
  \`BENCH_CONNECTIONS\`, default 50).`;

/** The Markdown text of one run; details are dropped (extras first) to stay under maxBytes. */
export function renderReport(run: RunRecord, maxBytes = MAX_BYTES): string {
  const m = run.machine;
  const minutes = Math.max(1, Math.round((run.finishedAt.getTime() - run.startedAt.getTime()) / 60_000));
  const passed = run.failures.length === 0;
  const head = [
    '# Benchmarks',
    '',
    run.filter === undefined
      ? 'The latest full run of every benchmark (`bench/micro/*`, `bench/http/*`); git history keeps earlier runs.'
      : `A **filtered** run (\`--filter ${run.filter}\`): only the scripts whose path contains that string; not a full run.`,
    '',
    `- Date: ${utc(run.startedAt)} (${minutes} min)`,
    `- Command: \`${run.command}\``,
    `- Commit: ${run.commit === null ? 'unknown (not a git checkout)' : `\`${run.commit}\``}`,
    `- Machine: ${m.cores} cores (\`nproc\`), ${m.cpuModel}, ${m.memoryGiB} GiB, Node ${m.node}, uWebSockets.js ${m.uwsNative ? 'native' : '**pure-JS fallback** (not native: numbers far below normal)'}, load average ${m.loadAverage.map((l) => l.toFixed(2)).join(' ')} at the start`,
    `- Result: ${passed ? 'exit code 0, every service within its §7 ceiling at p99' : `exit code 1, ${run.failures.length} failure(s): ${run.failures.join('; ')}`}`,
  ];
  const steal = run.scripts.filter((s) => Number.isFinite(s.stealPercent) && s.stealPercent >= 0.5);
  if (steal.length > 0) head.push(`- Hypervisor CPU steal (a script under steal ran slower for reasons outside the code): ${steal.map((s) => `${s.script.replace(/^bench\//, '')} ${s.stealPercent.toFixed(1)}%`).join(', ')}`);

  const summary = [
    '## Summary',
    '',
    table(
      ['service', 'benchmark', 'p99 ms', '§7 ceiling', 'ratios (same run)'],
      run.summary.map(([service, name, p99, verdict, ratios]) => [service || '—', name ?? '', p99 || '—', verdict || '—', (ratios ?? '').split('; ').filter(Boolean).join('<br>') || '—']),
    ),
  ];

  const details = (withExtras: boolean): string[] => [
    '## Details',
    '',
    ...run.scripts.flatMap((s) =>
      s.reports.flatMap((r) => [`### ${r.name}`, '', `\`${s.script}\``, '', rowsTable(r.rows, withExtras), ...(r.notes ?? []).map((n, i) => `${i === 0 ? '\n' : ''}- ${n}`), '']),
    ),
  ];

  const build = (detailLines: string[] | null, omitted: string): string =>
    [...head, '', ...summary, '', HOW_TO_READ, '', ...(detailLines ?? [omitted]), ''].join('\n');
  for (const withExtras of [true, false]) {
    const text = build(details(withExtras), '');
    if (Buffer.byteLength(text) <= maxBytes) return text;
  }
  return build(null, `Per-case rows are left out to keep this file under ${Math.round(maxBytes / 1000)} KB; the run's log has them.\n`);
}

export function writeReport(file: string, run: RunRecord): number {
  const text = renderReport(run);
  writeFileSync(file, text);
  return Buffer.byteLength(text);
}
