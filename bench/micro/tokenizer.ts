/**
 * Token counting: gpt-tokenizer vs js-tiktoken vs the WASM `tiktoken`, o200k_base and cl100k_base,
 * on the API-09 eval prompts (every prompt counted per iteration, so merge caches see realistic
 * variety, not one string). Counts are asserted identical before anything is timed. Then the
 * pair count API-09 needs (a prompt and its compressed copy): countTokensPair (segment sums, the
 * copy tokenised only where it changed) against two whole counts, per compression level.
 *
 *   node --import tsx bench/micro/tokenizer.ts
 */
import { readFileSync } from 'node:fs';
import { Bench } from 'tinybench';
import { countTokens as gptO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { countTokens as gptCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { Tiktoken as JsTiktoken } from 'js-tiktoken/lite';
import jsO200kRanks from 'js-tiktoken/ranks/o200k_base';
import jsCl100kRanks from 'js-tiktoken/ranks/cl100k_base';
import { get_encoding } from 'tiktoken';
import { compressText, LEVELS } from '../../src/services/tokenslimmer/core.ts';
import { countTokens, countTokensPair, type Encoding } from '../../src/tokenizer/index.ts';
import { printReport, type BenchRow } from '../lib/harness.ts';

const evalFile = new URL('../../eval/data/compress/prompts_dev.jsonl', import.meta.url);
const prompts = readFileSync(evalFile, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { prompt: string }).prompt);
prompts.push('special tokens stay text: <|endoftext|> <|im_start|> done', 'emoji 👩‍💻 and ünïcödé, 数字 12345.678');
const totalBytes = prompts.reduce((s, p) => s + Buffer.byteLength(p), 0);

const noSpecial = { disallowedSpecial: new Set<string>() };
const jsO200k = new JsTiktoken(jsO200kRanks);
const jsCl100k = new JsTiktoken(jsCl100kRanks);
const wasmO200k = get_encoding('o200k_base');
const wasmCl100k = get_encoding('cl100k_base');

type Counter = (text: string) => number;
const impls: Record<Encoding, Record<string, Counter>> = {
  o200k_base: {
    'gpt-tokenizer': (t) => gptO200k(t, noSpecial),
    'js-tiktoken': (t) => jsO200k.encode(t, [], []).length,
    'tiktoken (WASM)': (t) => wasmO200k.encode_ordinary(t).length,
    'src/tokenizer': (t) => countTokens(t, 'o200k_base'),
  },
  cl100k_base: {
    'gpt-tokenizer': (t) => gptCl100k(t, noSpecial),
    'js-tiktoken': (t) => jsCl100k.encode(t, [], []).length,
    'tiktoken (WASM)': (t) => wasmCl100k.encode_ordinary(t).length,
    'src/tokenizer': (t) => countTokens(t, 'cl100k_base'),
  },
};

for (const [enc, byName] of Object.entries(impls)) {
  for (const p of prompts) {
    const counts = Object.values(byName).map((f) => f(p));
    console.assert(counts.every((c) => c === counts[0]), `${enc}: counts differ ${JSON.stringify(counts)}`);
    if (!counts.every((c) => c === counts[0])) process.exitCode = 1;
  }
}

const bench = new Bench({ time: Number(process.env.BENCH_DURATION ?? 2) * 500, warmupTime: 200 });
for (const [enc, byName] of Object.entries(impls)) {
  for (const [name, f] of Object.entries(byName)) {
    bench.add(`${enc} ${name}`, () => {
      let n = 0;
      for (const p of prompts) n += f(p);
      if (n <= 0) throw new Error('no tokens');
    });
  }
}
// Pair counts: each eval prompt with its compressed copy at each level (asserted exact first).
const pairs = Object.fromEntries(LEVELS.map((level) => [level, prompts.map((p) => [p, compressText(p, level)] as const)]));
for (const [level, list] of Object.entries(pairs)) {
  for (const [a, b] of list) {
    const [na, nb] = countTokensPair(a, b, 'o200k_base');
    if (na !== countTokens(a, 'o200k_base') || nb !== countTokens(b, 'o200k_base')) {
      console.error(`${level}: countTokensPair differs from countTokens`);
      process.exitCode = 1;
    }
  }
  bench.add(`pair ${level}: 2 x countTokens`, () => {
    for (const [a, b] of list) countTokens(a, 'o200k_base') + countTokens(b, 'o200k_base');
  });
  bench.add(`pair ${level}: countTokensPair`, () => {
    for (const [a, b] of list) countTokensPair(a, b, 'o200k_base');
  });
}
await bench.run();

const rows: BenchRow[] = [];
const meanMs: Record<string, number> = {};
for (const task of bench.tasks) {
  const r = task.result as unknown as { latency?: { mean: number; p99?: number; p50?: number }; throughput?: { mean: number } };
  const mean = r.latency?.mean ?? Number.NaN;
  meanMs[task.name] = mean;
  rows.push({
    label: task.name,
    opsPerSec: r.throughput?.mean,
    p50Ms: r.latency?.p50,
    p99Ms: r.latency?.p99,
    extra: { 'ms per 10 KB': ((mean * 10_240) / totalBytes).toFixed(3) },
  });
}
const ratios: Record<string, number> = {};
for (const enc of Object.keys(impls)) {
  const wasm = meanMs[`${enc} tiktoken (WASM)`]!;
  for (const name of ['gpt-tokenizer', 'js-tiktoken', 'src/tokenizer']) ratios[`${enc} ${name} / WASM (time)`] = meanMs[`${enc} ${name}`]! / wasm;
}
for (const level of LEVELS) ratios[`o200k_base countTokensPair / 2 x countTokens, ${level} copies (time)`] = meanMs[`pair ${level}: countTokensPair`]! / meanMs[`pair ${level}: 2 x countTokens`]!;
printReport({
  name: `tokenizer: count ${prompts.length} prompts (${(totalBytes / 1024).toFixed(0)} KB) per op`,
  rows,
  ratios,
  notes: ['counts asserted identical across the three libraries for every prompt before timing'],
});
wasmO200k.free();
wasmCl100k.free();
