/**
 * `npm run train:cache -- --data DIR`: trains the API-05 verifier and writes its model file.
 *
 *   pairs: every *.jsonl of DIR, then the development pairs (eval/data/cache/pairs_dev.jsonl;
 *          --no-dev leaves them out, --dev FILE takes another file)
 *   1. pair features (cache-pairs.ts), once
 *   2. leave-one-dataset-out (cache-lodo.ts): the default threshold = the smallest at which
 *      precision >= 95% on every left-out group; when no threshold does that, the one with the
 *      best worst-group precision (printed as such)
 *   3. the shipped model on every pair (cache-train.ts), threshold and sources in its meta
 *   --out FILE (default src/embeddings/cache-verifier.bin), --limit N (first N usable pairs of
 *   each file: the determinism test trains on a slice).
 *
 * Deterministic: same data, same bytes (fixed seed and order; no date in the file).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { VERIFIER_FILE } from '../src/embeddings/learned-verify.ts';
import { argValues, jsonlFiles, loadGlove, pairRows, readPairs, type Pair } from './cache-pairs.ts';
import { atThreshold, chooseThreshold, leaveOneDatasetOut, TARGET_PRECISION, THRESHOLD_GRID, type Fold } from './cache-lodo.ts';
import { encodeVerifier, trainVerifier } from './cache-train.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const dataDir = argValues(argv, '--data')[0];
if (dataDir === undefined) {
  console.error('usage: npm run train:cache -- --data DIR [--dev FILE | --no-dev] [--out FILE] [--limit N]');
  process.exit(2);
}
const devFile = argv.includes('--no-dev') ? null : (argValues(argv, '--dev')[0] ?? path.resolve(here, '..', 'eval', 'data', 'cache', 'pairs_dev.jsonl'));
const out = argValues(argv, '--out')[0] ?? VERIFIER_FILE;
const limit = Number(argValues(argv, '--limit')[0] ?? Infinity);

const files = [...jsonlFiles(dataDir), ...(devFile === null ? [] : [devFile])];
const { pairs, skipped } = readPairs(files, limit);
for (const [why, n] of skipped) console.log(`skipped ${n} records: ${why}`);
if (pairs.length === 0) {
  console.error('no usable pairs');
  process.exit(1);
}
const glove = loadGlove(process.env.DATA_DIR ?? null, (m) => console.error(m));
const rows = pairRows(glove, pairs);
const labelOf = (i: number): number => pairs[i]!.label;

const folds = leaveOneDatasetOut(pairs, rows, glove);
let threshold = chooseThreshold(folds, labelOf);
const met = threshold !== null;
threshold ??= bestWorstCase(folds, labelOf);
console.log(`leave-one-dataset-out: default threshold ${threshold.toFixed(2)} (${met ? `precision >= ${TARGET_PRECISION * 100}% on every left-out group` : `no threshold gives ${TARGET_PRECISION * 100}% on every group: best worst-group precision`})`);
for (const f of folds) {
  const r = atThreshold(f.score, f.index.map(labelOf), threshold);
  console.log(`  ${f.group.padEnd(12)} precision ${pct(r.precision)}  hit rate ${pct(r.hitRate)}  (${r.right}/${r.hits} hits right, ${r.positives} paraphrases)`);
}

const all = pairs.map((_, i) => i);
const { bundle, rejectRules } = trainVerifier(pairs, rows, all, { threshold, trainedOn: sources(pairs) });
const bytes = encodeVerifier(bundle);
writeFileSync(out, bytes);
console.log(`hard rejects: ${rejectRules.join(', ') || 'none'}`);
console.log(`wrote ${out} (${bytes.length} bytes) from ${pairs.length} pairs`);

/** The grid threshold whose lowest group precision is highest (the lower threshold on ties). */
function bestWorstCase(list: readonly Fold[], label: (i: number) => number): number {
  let best = THRESHOLD_GRID[THRESHOLD_GRID.length - 1]!;
  let bestMin = -1;
  for (const t of THRESHOLD_GRID) {
    const min = Math.min(...list.map((f) => atThreshold(f.score, f.index.map(label), t).precision));
    if (min > bestMin) {
      bestMin = min;
      best = t;
    }
  }
  return best;
}

function sources(list: readonly Pair[]): Array<{ dataset: string; pairs: number; paraphrases: number }> {
  const m = new Map<string, { pairs: number; paraphrases: number }>();
  for (const p of list) {
    const s = m.get(p.dataset) ?? { pairs: 0, paraphrases: 0 };
    s.pairs++;
    s.paraphrases += p.label;
    m.set(p.dataset, s);
  }
  return [...m].sort((a, b) => a[0].localeCompare(b[0])).map(([dataset, s]) => ({ dataset, ...s }));
}

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`.padStart(6);
}
