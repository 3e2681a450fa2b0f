/**
 * API-09 server-side cost: slimPrompt (compression + the o200k_base counts of prompt and result)
 * on 10 KB prompts of the three eval kinds, per level, against counting the prompt's tokens twice
 * (the "floor" of a compressor that tokenises its output whole; countTokensPair may do less), in
 * the same run; then a size sweep that backs the inline/pool
 * threshold (INLINE_MAX_CHARS). Correctness is asserted before timing: retention holds and the
 * output is a fixed point. Besides wall time, each case reports CPU time per prompt (min and
 * median of 40 batches), which stays meaningful when other jobs share the cores.
 *
 *   node --import tsx bench/micro/tokenslimmer.ts
 *   BENCH_API09_BEFORE=/tmp/before node --import tsx bench/micro/tokenslimmer.ts   # and an older version, same run
 */
import { existsSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Bench } from 'tinybench';
import { LEVELS, type Level } from '../../src/services/tokenslimmer/core.ts';
import { INLINE_MAX_CHARS } from '../../src/services/tokenslimmer/index.ts';
import { checkRetention } from '../../src/services/tokenslimmer/retention.ts';
import { slimPrompt } from '../../src/services/tokenslimmer/slim.ts';
import { countTokens } from '../../src/tokenizer/index.ts';
import { CEILINGS_MS, printReport, type BenchRow } from '../lib/harness.ts';

const records = readFileSync(new URL('../../eval/data/compress/prompts_dev.jsonl', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as { kind: string; prompt: string });

/** The first `bytes` characters of the kind's prompts joined (cut at a line end). */
function sample(kind: string, chars: number): string {
  let s = '';
  for (const r of records.filter((x) => x.kind === kind)) {
    s += r.prompt + '\n\n';
    if (s.length >= chars) break;
  }
  s = s.slice(0, chars);
  return s.slice(0, s.lastIndexOf('\n') + 1 || s.length);
}

const KINDS = ['cot_fewshot', 'meeting_transcript', 'rag_context'];
const prompts10k = KINDS.map((k) => ({ kind: k, prompt: sample(k, 10_240) }));

/**
 * Structured content (structure.ts's passes: tool JSON, e-mails, README tables, code, API-01
 * pages): the records of structured_dev.jsonl joined and cut into three ~10 KB prompts at line
 * ends, each a mix of kinds. Timed beside the three prose kinds, not in the ceiling row.
 */
const structuredText = readFileSync(new URL('../../eval/data/compress/structured_dev.jsonl', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .map((l) => (JSON.parse(l) as { prompt: string }).prompt)
  .join('\n\n');
const structured10k = [0, 1, 2].map((i) => {
  const s = structuredText.slice(i * 10_240, (i + 1) * 10_240);
  return { kind: 'structured', prompt: s.slice(s.indexOf('\n') + 1, s.lastIndexOf('\n') + 1) };
});

for (const { kind, prompt } of [...prompts10k, ...structured10k]) {
  for (const level of LEVELS) {
    const r = slimPrompt({ prompt, level });
    console.assert(checkRetention(prompt, r.compressed_content, level).ok, `${kind} ${level}: retention`);
    console.assert(slimPrompt({ prompt: r.compressed_content, level }).status === 'UNCHANGED', `${kind} ${level}: idempotent`);
  }
}

const time = Number(process.env.BENCH_DURATION ?? 2) * 400;
const bench = new Bench({ time, warmupTime: 200 });
bench.add('floor: count 10 KB twice (o200k_base)', () => {
  for (const { prompt } of prompts10k) {
    countTokens(prompt, 'o200k_base');
    countTokens(prompt, 'o200k_base');
  }
});
for (const level of LEVELS) {
  bench.add(`slimPrompt 10 KB structured ${level}`, () => {
    for (const { prompt } of structured10k) slimPrompt({ prompt, level: level as Level });
  });
}
for (const level of LEVELS) {
  bench.add(`slimPrompt 10 KB ${level}`, () => {
    for (const { prompt } of prompts10k) slimPrompt({ prompt, level: level as Level });
  });
}
await bench.run();

interface Stats {
  latency: { mean: number; p50?: number; p99?: number };
  throughput: { mean: number };
}
const stats = (name: string): Stats => bench.tasks.find((t) => t.name === name)!.result as unknown as Stats;
const n = prompts10k.length;

/**
 * CPU time per prompt (process.cpuUsage over batches of all three prompts): on a machine shared
 * with other jobs, wall time mostly measures waiting for a core, CPU time the work itself.
 */
function cpuMsPerPrompt(f: () => void, batches = 40): { min: number; median: number } {
  const xs: number[] = [];
  for (let b = 0; b < batches; b++) {
    const c0 = process.cpuUsage();
    f();
    const c = process.cpuUsage(c0);
    xs.push((c.user + c.system) / 1000 / n);
  }
  xs.sort((a, b) => a - b);
  return { min: xs[0]!, median: xs[xs.length >> 1]! };
}
const cpu = new Map<string, { min: number; median: number }>();
cpu.set('floor: count 10 KB twice (o200k_base)', cpuMsPerPrompt(() => prompts10k.forEach(({ prompt }) => countTokens(prompt, 'o200k_base') + countTokens(prompt, 'o200k_base'))));
for (const level of LEVELS) cpu.set(`slimPrompt 10 KB ${level}`, cpuMsPerPrompt(() => prompts10k.forEach(({ prompt }) => slimPrompt({ prompt, level }))));
for (const level of LEVELS) cpu.set(`slimPrompt 10 KB structured ${level}`, cpuMsPerPrompt(() => structured10k.forEach(({ prompt }) => slimPrompt({ prompt, level }))));

/**
 * Optional: BENCH_API09_BEFORE=<directory of an older checkout> (e.g. `git archive <commit>
 * package.json src workers | tar -x -C /tmp/before`, node_modules linked; without package.json
 * tsx loads the copy as CommonJS, ~4% slower, which flatters "now") times that version's slimPrompt against
 * this one, alternating batches in this process (CPU time), after asserting that both give the
 * same responses on every eval prompt and the 10 KB samples at every level.
 */
const beforeDir = process.env.BENCH_API09_BEFORE;
const beforeRatios: Record<string, number> = {};
const beforeNotes: string[] = [];
if (beforeDir !== undefined) {
  if (!existsSync(`${beforeDir}/package.json`)) throw new Error(`BENCH_API09_BEFORE: ${beforeDir}/package.json is missing (the copy would load as CommonJS and run slower)`);
  const before = (await import(pathToFileURL(`${beforeDir}/src/services/tokenslimmer/slim.ts`).href)) as { slimPrompt: typeof slimPrompt };
  let differ = 0;
  for (const level of LEVELS) {
    for (const prompt of [...records.map((r) => r.prompt), ...prompts10k.map((p) => p.prompt)]) {
      if (JSON.stringify(before.slimPrompt({ prompt, level })) !== JSON.stringify(slimPrompt({ prompt, level }))) differ++;
    }
  }
  console.assert(differ === 0, `${differ} responses differ from ${beforeDir}`);
  beforeNotes.push(`before = ${beforeDir}: ${differ} of ${LEVELS.length * (records.length + prompts10k.length)} responses differ`);
  for (const level of LEVELS) {
    const xs: Record<'now' | 'before', number[]> = { now: [], before: [] };
    for (let round = 0; round < 12; round++) {
      for (const [name, f] of (round % 2 === 0 ? [['now', slimPrompt], ['before', before.slimPrompt]] : [['before', before.slimPrompt], ['now', slimPrompt]]) as ['now' | 'before', typeof slimPrompt][]) {
        xs[name].push(cpuMsPerPrompt(() => prompts10k.forEach(({ prompt }) => f({ prompt, level })), 5).median);
      }
    }
    const median = (v: number[]): number => [...v].sort((a, b) => a - b)[v.length >> 1]!;
    beforeRatios[`slimPrompt ${level}: now / before (median CPU time)`] = median(xs.now) / median(xs.before);
    beforeNotes.push(`${level}: CPU ms per 10 KB prompt, median of 12 alternating rounds: before ${median(xs.before).toFixed(3)}, now ${median(xs.now).toFixed(3)}`);
  }
}

const rows: BenchRow[] = bench.tasks.map((t) => {
  const r = stats(t.name);
  const c = cpu.get(t.name);
  return {
    label: `${t.name} (per prompt)`,
    opsPerSec: r.throughput.mean * n,
    p50Ms: (r.latency.p50 ?? r.latency.mean) / n,
    p99Ms: (r.latency.p99 ?? r.latency.mean) / n,
    ...(c === undefined ? {} : { extra: { 'CPU ms min': c.min.toFixed(3), 'CPU ms median': c.median.toFixed(3) } }),
  };
});

// Size sweep (balanced, transcript + RAG mix): mean ms per prompt, to place the pool threshold.
const sweep = new Bench({ time: time / 2, warmupTime: 100 });
const sizes = [2_048, 4_096, 8_192, 16_384, 32_768];
const bySize = new Map(sizes.map((c) => [c, KINDS.map((k) => sample(k, c))]));
for (const c of sizes) sweep.add(`${c / 1024} KB`, () => bySize.get(c)!.forEach((p) => slimPrompt({ prompt: p, level: 'balanced' })));
await sweep.run();
const sweepNotes = sweep.tasks.map((t) => {
  const r = t.result as unknown as Stats;
  return `${t.name}: ${(r.latency.mean / KINDS.length).toFixed(3)} ms mean per prompt (balanced)`;
});

const worstP99 = Math.max(...LEVELS.map((l) => (stats(`slimPrompt 10 KB ${l}`).latency.p99 ?? 0) / n));
const floor = stats('floor: count 10 KB twice (o200k_base)').latency.mean;
printReport({
  name: 'API-09 slimPrompt, 10 KB prompts (cot_fewshot, meeting_transcript, rag_context), inline',
  service: 'API-09',
  ceilingP99Ms: CEILINGS_MS['API-09'],
  measuredP99Ms: worstP99,
  rows,
  ratios: Object.fromEntries([
    ...Object.entries(beforeRatios),
    ...LEVELS.flatMap((l) => [
      [`slimPrompt ${l} / token-count floor (mean time)`, stats(`slimPrompt 10 KB ${l}`).latency.mean / floor],
      [`slimPrompt ${l} / token-count floor (median CPU time)`, cpu.get(`slimPrompt 10 KB ${l}`)!.median / cpu.get('floor: count 10 KB twice (o200k_base)')!.median],
    ]),
  ]),
  notes: [
    ...beforeNotes,
    `aim: p99 <= ${CEILINGS_MS['API-09'] / 10} ms for 10 KB (a tenth of the ceiling); prompts over ${INLINE_MAX_CHARS} chars run on the worker pool`,
    ...sweepNotes,
    'numbers are wall time on a shared machine: compare the ratios, not the absolute values',
  ],
});
