/**
 * `npm run eval:cache`: quality of the API-05 verifier on labelled pairs.
 *
 * Input: --file F (repeatable) and/or --dir D (every *.jsonl in D); default
 * eval/data/cache/pairs_dev.jsonl. Records need text_a, text_b and label 0/1; others are skipped
 * and counted by reason. `dataset` (or `source`) names the origin; groups as in cache-pairs.ts.
 *
 * 1. Leave-one-dataset-out (when the input holds two groups or more): a model trained (as
 *    train:cache does) on the other groups scores each group; precision and hit rate at the
 *    default threshold per group and per dataset, min and mean, average precision, and a
 *    threshold table. These are the numbers to quote: each group is data its model never saw.
 * 2. The shipped model (src/embeddings/cache-verifier.bin) on the same pairs, per dataset and
 *    pooled. In-sample for data it was trained on.
 * 3. The cache itself with the shipped model: per group, every text_a stored in one namespace,
 *    every text_b looked up at the default threshold (HNSW candidates, verifier, best score); a hit
 *    is right when it returns the pair's own text_a on a paraphrase pair, or an entry whose text
 *    is the query itself (the same sentence occurs in several pairs); the hit rate counts the
 *    paraphrase pairs served their own text_a (or the identical text). Then every text_a looked up
 *    again: exact repeats must all hit with score 1.
 *
 * Pair scores: text_a is the cached query, text_b the new one.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LearnedVerifier } from '../src/embeddings/learned-verify.ts';
import { gloveEmbedder } from '../src/embeddings/index.ts';
import { averagePrecision } from '../src/learn/index.ts';
import { DEFAULT_THRESHOLD, SemanticCache } from '../src/services/semantic-cache/core.ts';
import { MemoryCacheStore } from '../src/services/semantic-cache/store.ts';
import { argValues, jsonlFiles, loadGlove, pairRows, readPairs, type Pair } from './cache-pairs.ts';
import { atThreshold, leaveOneDatasetOut, serviceScore, TARGET_PRECISION } from './cache-lodo.ts';

const started = performance.now();
const here = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const files = [...argValues(argv, '--file'), ...argValues(argv, '--dir').flatMap(jsonlFiles)];
if (files.length === 0) files.push(path.resolve(here, '..', 'eval', 'data', 'cache', 'pairs_dev.jsonl'));
const T = DEFAULT_THRESHOLD;

const { pairs, skipped } = readPairs(files);
console.log(`API-05 verifier eval: ${pairs.length} pairs (${pairs.filter((p) => p.label === 1).length} paraphrases) from ${files.map((f) => path.basename(f)).join(', ')}`);
for (const [why, n] of skipped) console.log(`  skipped ${n} records: ${why}`);
if (pairs.length === 0) process.exit(0);

const glove = loadGlove(process.env.DATA_DIR ?? null, (m) => console.error(m));
const shipped = LearnedVerifier.load(glove);
const rows = pairRows(glove, pairs);
const labels = pairs.map((p) => p.label);
const groups = [...new Set(pairs.map((p) => p.group))].sort();

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`.padStart(6);
const line = (name: string, idx: readonly number[], score: ArrayLike<number>, t = T): string => {
  const s = idx.map((i) => score[i]!);
  const l = idx.map((i) => labels[i]!);
  const r = atThreshold(s, l, t);
  return `  ${name.padEnd(28)} n=${String(idx.length).padStart(5)}  precision ${pct(r.precision)} (${String(r.right).padStart(4)}/${String(r.hits).padEnd(4)})  hit rate ${pct(r.hitRate)}  AP ${averagePrecision(s, l).toFixed(3)}`;
};
const byKey = (key: (p: Pair) => string): Map<string, number[]> => {
  const m = new Map<string, number[]>();
  pairs.forEach((p, i) => {
    const k = key(p);
    if (!m.has(k)) m.set(k, []);
    m.get(k)!.push(i);
  });
  return new Map([...m].sort((a, b) => a[0].localeCompare(b[0])));
};
const all = pairs.map((_, i) => i);
const datasets = byKey((p) => p.dataset);
const groupIdx = byKey((p) => p.group);

// 1. Leave-one-dataset-out.
if (groups.length >= 2) {
  const lodoStart = performance.now();
  const folds = leaveOneDatasetOut(pairs, rows, glove);
  const lodo = new Float64Array(pairs.length);
  for (const f of folds) f.index.forEach((i, k) => (lodo[i] = f.score[k]!));
  console.log(`\n1. leave-one-dataset-out at the default threshold ${T} (${folds.length} folds, ${((performance.now() - lodoStart) / 1000).toFixed(1)} s): per left-out group`);
  const stats = folds.map((f) => ({ f, r: atThreshold(f.score, f.index.map((i) => labels[i]!), T) }));
  for (const { f } of stats) console.log(line(f.group, f.index, lodo) + `  [hard rejects: ${f.rejectRules.join(', ') || 'none'}]`);
  const precisions = stats.map((s) => s.r.precision);
  const hitRates = stats.map((s) => s.r.hitRate);
  const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
  console.log(`  min / mean over groups      precision ${pct(Math.min(...precisions))} / ${pct(mean(precisions))}  hit rate ${pct(Math.min(...hitRates))} / ${pct(mean(hitRates))}  (target: precision >= ${TARGET_PRECISION * 100}% on every group)`);
  console.log(line('pooled (left-out scores)', all, lodo));
  // Exact repeats (score 1) hit whatever the model: what the verifier itself adds at T.
  const own = all.filter((i) => rows.exact[i] === 0);
  const ownHits = atThreshold(own.map((i) => lodo[i]!), own.map((i) => labels[i]!), T);
  console.log(`  of the hits, exact repeats: ${all.filter((i) => rows.exact[i] === 1 && lodo[i]! >= T).length}; the verifier's own (other text): ${ownHits.right}/${ownHits.hits} right (${pct(ownHits.precision)})`);
  console.log('  per dataset (left-out scores of its group):');
  for (const [d, idx] of datasets) console.log(line(`  ${d}`, idx, lodo));
  console.log('  threshold | min precision | mean precision | pooled precision | pooled hit rate');
  for (const t of [0.5, 0.7, 0.8, 0.9, 0.95, 0.97, 0.98, 0.99]) {
    const ps = folds.map((f) => atThreshold(f.score, f.index.map((i) => labels[i]!), t).precision);
    const pooled = atThreshold(lodo, labels, t);
    console.log(`     ${t.toFixed(2)}   |    ${pct(Math.min(...ps))}     |     ${pct(mean(ps))}     |      ${pct(pooled.precision)}      |     ${pct(pooled.hitRate)}`);
  }
  // Calibration on data the model never saw: does a score of p come true p of the time?
  console.log('  calibration of left-out scores (exact repeats aside): score range | pairs | mean score | right');
  const edges = [0, 0.5, 0.7, 0.9, 0.95, 0.98, 0.99, 1.0001];
  for (let b = 0; b + 1 < edges.length; b++) {
    const inBin = own.filter((i) => lodo[i]! >= edges[b]! && lodo[i]! < edges[b + 1]!);
    if (inBin.length === 0) continue;
    const meanScore = inBin.reduce((s, i) => s + lodo[i]!, 0) / inBin.length;
    const rate = inBin.reduce((s, i) => s + labels[i]!, 0) / inBin.length;
    console.log(`     [${edges[b]!.toFixed(2)}, ${Math.min(1, edges[b + 1]!).toFixed(2)})  ${String(inBin.length).padStart(6)}   ${pct(meanScore)}   ${pct(rate)}`);
  }
} else console.log('\n1. leave-one-dataset-out: skipped (one group only; give --dir with several datasets)');

// 2. The shipped model, pair by pair.
const mine = Float64Array.from(all, (i) => serviceScore(shipped, rows, i));
console.log(`\n2. shipped model (in-sample for pairs it was trained on) at ${T}:`);
for (const [d, idx] of datasets) console.log(line(d, idx, mine));
console.log(line('pooled', all, mine));

// 3. The cache: store text_a, look up text_b, per group.
const embedder = gloveEmbedder(glove, shipped);
let right = 0;
let para = 0;
let hits = 0;
let positives = 0;
let repeats = 0;
let repeatHits = 0;
let lookups = 0;
let lookupMs = 0;
console.log(`\n3. the cache (HNSW + shipped verifier), text_a stored, text_b looked up at ${T}, per group:`);
for (const [g, idx] of groupIdx) {
  const store = new MemoryCacheStore({ dims: embedder.dims, maxEntries: idx.length + 10 });
  const cache = new SemanticCache({ embedder, store });
  const textOf = new Map<string, string>();
  for (const i of idx) {
    const r = await cache.put({ tenant: 'eval', query: pairs[i]!.text_a, response: pairs[i]!.id });
    textOf.set(r.entry_id, pairs[i]!.text_a);
  }
  let gRight = 0;
  let gPara = 0;
  let gHits = 0;
  let gPos = 0;
  const t0 = performance.now();
  for (const i of idx) {
    const p = pairs[i]!;
    const r = await cache.lookup({ tenant: 'eval', query: p.text_b, threshold: T });
    gPos += p.label;
    if (!r.cache_hit) continue;
    gHits++;
    const text = textOf.get(r.entry_id!) ?? '';
    const same = norm(text) === norm(p.text_b);
    if ((p.label === 1 && text === p.text_a) || same) gRight++;
    if (p.label === 1 && (text === p.text_a || same)) gPara++;
  }
  lookupMs += performance.now() - t0;
  lookups += idx.length;
  for (const i of idx) {
    const r = await cache.lookup({ tenant: 'eval', query: pairs[i]!.text_a, threshold: T });
    repeats++;
    if (r.cache_hit && r.similarity_score === 1) repeatHits++;
  }
  right += gRight;
  para += gPara;
  hits += gHits;
  positives += gPos;
  console.log(`  ${g.padEnd(28)} n=${String(idx.length).padStart(5)}  precision ${pct(gHits === 0 ? 1 : gRight / gHits)} (${String(gRight).padStart(4)}/${String(gHits).padEnd(4)})  hit rate on paraphrase pairs ${pct(gPos === 0 ? 0 : gPara / gPos)}`);
}
console.log(`  pooled                       precision ${pct(hits === 0 ? 1 : right / hits)} (${right}/${hits})  hit rate on paraphrase pairs ${pct(positives === 0 ? 0 : para / positives)}`);
console.log(`  exact repeats: ${repeatHits}/${repeats} hit with score 1; lookup ${((lookupMs * 1000) / lookups).toFixed(0)} µs/query (core, one thread)`);
console.log(`\neval time ${((performance.now() - started) / 1000).toFixed(1)} s`);

function norm(t: string): string {
  return t.toLowerCase().replace(/\s+/g, ' ').trim();
}
