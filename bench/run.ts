/**
 * `npm run bench [-- --filter NAME] [--write FILE]`: runs every script under bench/micro and
 * bench/http in its own process, prints one aggregate table, and exits non-zero when a service
 * misses its §7 ceiling at p99 (or a script fails). `--write BENCHMARKS.md` also writes the run
 * (date, command, machine, summary table, per-case rows) to that file, replacing it.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { loadUws } from '../src/server/uws.ts';
import { CEILINGS_MS, formatTable, RESULT_PREFIX, type BenchReport } from './lib/harness.ts';
import { cpuTicks, stealPercent } from './lib/http.ts';
import { commandLine, gitCommit, machineInfo, writeReport, type RunRecord } from './lib/report-file.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const filterIndex = process.argv.indexOf('--filter');
const filter = filterIndex === -1 ? undefined : process.argv[filterIndex + 1];
const writeIndex = process.argv.indexOf('--write');
const writeFile = writeIndex === -1 ? undefined : process.argv[writeIndex + 1];
if (writeIndex !== -1 && (writeFile === undefined || writeFile.startsWith('--'))) {
  console.error('--write needs a file name, e.g. npm run bench -- --write BENCHMARKS.md');
  process.exit(2);
}
// BENCHMARKS.md holds a full run; a filtered one goes to another file.
if (writeFile !== undefined && filter !== undefined && path.basename(writeFile) === 'BENCHMARKS.md') {
  console.error('BENCHMARKS.md records full runs only: drop --filter, or --write another file');
  process.exit(2);
}
// Read before the run: the machine as the run found it (load average) and the command as typed.
const startedAt = new Date();
const machine = machineInfo(loadUws().native);
const command = commandLine(process.env, process.argv.slice(2));

const scripts = ['micro', 'http'].flatMap((dir) =>
  readdirSync(new URL(`./${dir}/`, import.meta.url))
    .filter((f) => f.endsWith('.ts'))
    .sort()
    .map((f) => `bench/${dir}/${f}`),
).filter((s) => filter === undefined || s.includes(filter));

function run(script: string): Promise<{ code: number; reports: BenchReport[] }> {
  return new Promise((resolve) => {
    // --expose-gc: memory rows (API-05's bytes per entry and long store loop) collect garbage
    // before they read the heap; a script that never calls gc() is unaffected.
    const child = spawn(process.execPath, ['--import', 'tsx', '--expose-gc', script], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    const reports: BenchReport[] = [];
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      let nl: number;
      while ((nl = buffered.indexOf('\n')) !== -1) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        if (line.startsWith(RESULT_PREFIX)) reports.push(JSON.parse(line.slice(RESULT_PREFIX.length)) as BenchReport);
        else process.stdout.write(`${line}\n`);
      }
    });
    child.on('exit', (code) => resolve({ code: code ?? 1, reports }));
  });
}

const summary: string[][] = [];
const failures: string[] = [];
const steal: string[] = [];
const ran: RunRecord['scripts'][number][] = [];
for (const script of scripts) {
  console.log(`\n=== ${script}`);
  const ticks = cpuTicks();
  const { code, reports } = await run(script);
  const pct = stealPercent(ticks, cpuTicks());
  ran.push({ script, code, stealPercent: pct, reports });
  if (!Number.isNaN(pct)) steal.push(`${script.replace(/^bench\//, '')} ${pct.toFixed(1)}%`);
  if (code !== 0) failures.push(`${script} exited with code ${code}`);
  for (const r of reports) {
    const ceiling = r.ceilingP99Ms ?? (r.service && r.service in CEILINGS_MS ? CEILINGS_MS[r.service as keyof typeof CEILINGS_MS] : undefined);
    let verdict = '';
    if (ceiling !== undefined && r.measuredP99Ms !== undefined) {
      verdict = r.measuredP99Ms <= ceiling ? `ok (≤ ${ceiling} ms)` : `MISSED (> ${ceiling} ms)`;
      if (r.measuredP99Ms > ceiling) failures.push(`${r.name}: p99 ${r.measuredP99Ms.toFixed(3)} ms > ${ceiling} ms`);
    }
    const ratios = Object.entries(r.ratios ?? {}).map(([k, v]) => `${k} ${v.toFixed(2)}`).join('; ');
    summary.push([r.service ?? '', r.name, r.measuredP99Ms === undefined ? '' : r.measuredP99Ms.toFixed(3), verdict, ratios]);
  }
}

console.log('\n# Summary\n');
console.log(formatTable(['service', 'benchmark', 'p99 ms', '§7 ceiling', 'ratios'], summary));
// Hypervisor steal slows everything on the machine at once: a script run under steal is slower
// for reasons outside the code (the VM's slow speed mostly shows no steal; the HTTP rows'
// `ref work ms` column, bench/lib/http.ts referenceWorkMs, catches it).
if (steal.length > 0) console.log(`\nCPU steal per script (share of both cores' time): ${steal.join(', ')}`);
if (scripts.length === 0) failures.push(`no benchmark script matches --filter ${filter}`);
if (writeFile !== undefined) {
  const target = path.resolve(process.env.INIT_CWD ?? process.cwd(), writeFile);
  const bytes = writeReport(target, { startedAt, finishedAt: new Date(), command, filter, commit: gitCommit(root, path.relative(root, target)), machine, scripts: ran, summary, failures });
  console.log(`\nwrote ${target} (${bytes} bytes)`);
}
if (failures.length > 0) {
  console.error(`\n${failures.length} failure(s):\n${failures.map((f) => `- ${f}`).join('\n')}`);
  process.exit(1);
}
