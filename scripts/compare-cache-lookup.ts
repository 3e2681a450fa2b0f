/**
 * API-05 lookup core, this tree against another copy of `src` (BEFORE=<dir holding src/>), in one
 * process: the same entries, the same lookups, outputs compared byte for byte, then time per lookup
 * alternating between the two trees (the machine's load hits both alike).
 *
 *   corpus 1  eval/data/cache/pairs_dev.jsonl: every text_a stored in one namespace, every text_b
 *             and every text_a looked up (threshold 0: every score is compared, hit or not)
 *   corpus 2  bench/http/semantic-cache.ts: BENCH_CACHE_N (default 100,000) distinct entries and its
 *             2,000 rotating lookups (default threshold and threshold 0)
 *
 * Entry ids are a counter in both trees, so entry_id compares too. Exits non-zero on any difference.
 *   BEFORE=/tmp/old node --import tsx --expose-gc scripts/compare-cache-lookup.ts
 * ROUNDS (default 5) timing rounds per tree of the 2,000 lookups, then of their embedding and of
 * the verifier on their candidates; ONLY_AFTER=1 skips the other
 * tree (profiling: node --cpu-prof).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildCorpus } from '../bench/http/semantic-cache.ts';

interface Tree {
  readonly name: string;
  readonly embedder: { embed(text: string): { features: unknown } ; verify(cosine: number, a: unknown, b: unknown): { score: number } };
  readonly store: { candidates(scope: { tenant: string; namespace: string }, vector: Float32Array, fingerprint: string, k: number, now: number): { cosine: number; features: unknown; exact: boolean }[] };
  readonly cache: { lookup(i: { tenant: string; namespace?: string; query: string; threshold?: number }): Promise<{ cache_hit: boolean; similarity_score: number; entry_id?: string }>; put(i: { tenant: string; namespace?: string; query: string; response: string }): Promise<{ entry_id: string }> };
  readonly defaultThreshold: number;
}

const here = path.resolve(new URL('../', import.meta.url).pathname);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const stage = (m: string): void => void process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${m}\n`);

async function load(name: string, root: string): Promise<Tree> {
  const mod = (p: string): Promise<any> => import(pathToFileURL(path.join(root, 'src', p)).href);
  const { createEmbedder } = await mod('embeddings/index.ts');
  const { SemanticCache, DEFAULT_THRESHOLD } = await mod('services/semantic-cache/core.ts');
  const { MemoryCacheStore } = await mod('services/semantic-cache/store.ts');
  const embedder = await createEmbedder({ embedder: 'glove', modelDir: null, dataDir: process.env.DATA_DIR ?? path.join(here, 'data') });
  let n = 0;
  const store = new MemoryCacheStore({ dims: embedder.dims, maxEntries: 1_000_000, newId: () => `e${n++}` });
  return { name, embedder, store, cache: new SemanticCache({ embedder, store, now: () => 1_000_000 }), defaultThreshold: DEFAULT_THRESHOLD };
}

const trees: Tree[] = [await load('after', here)];
if (process.env.ONLY_AFTER !== '1') {
  if (process.env.BEFORE === undefined) throw new Error('BEFORE=<dir with src/> (or ONLY_AFTER=1)');
  trees.push(await load('before', path.resolve(process.env.BEFORE)));
}

const pairs = readFileSync(path.join(here, 'eval/data/cache/pairs_dev.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as { text_a: string; text_b: string });
const { stores, lookups } = buildCorpus();
const N = Number(process.env.BENCH_CACHE_N ?? 100_000);

async function outputs(t: Tree, ns: string, queries: readonly string[], threshold: number): Promise<string[]> {
  const out: string[] = [];
  for (const query of queries) {
    const r = await t.cache.lookup({ tenant: 't', namespace: ns, query, threshold });
    out.push(JSON.stringify([r.cache_hit, r.similarity_score, r.entry_id ?? null]));
  }
  return out;
}

let failures = 0;
function same(label: string, results: string[][]): void {
  const [a, b] = results;
  if (b === undefined) return;
  let diff = 0;
  for (let i = 0; i < a!.length; i++) {
    if (a![i] !== b[i]) {
      if (diff++ < 5) console.error(`DIFF ${label} #${i}: after ${a![i]} before ${b[i]}`);
    }
  }
  failures += diff;
  console.log(`${label}: ${a!.length} lookups, ${diff} differ, ${a!.filter((x) => x.startsWith('[true')).length} hits`);
}

// Corpus 1: the dev pairs.
const evalQueries = [...pairs.map((p) => p.text_b), ...pairs.map((p) => p.text_a)];
for (const t of trees) for (const p of pairs) await t.cache.put({ tenant: 't', namespace: 'eval', query: p.text_a, response: 'r' });
const evalOut: string[][] = [];
for (const t of trees) evalOut.push(await outputs(t, 'eval', evalQueries, 0));
same('dev pairs, threshold 0', evalOut);

// Corpus 2: the HTTP bench's entries (distinct, topped up as there) and its 2,000 lookups.
for (const t of trees) {
  stage(`${t.name}: storing ${N} entries`);
  const ids = new Set<string>();
  let i = 0;
  while (ids.size < N) ids.add((await t.cache.put({ tenant: 't', namespace: 'bench', query: stores[i]!.query, response: stores[i++]!.response })).entry_id);
}
const queries = lookups.map((l) => l.query);
same('bench lookups, default threshold', await Promise.all(trees.map((t) => outputs(t, 'bench', queries, t.defaultThreshold))));
const zero: string[][] = [];
for (const t of trees) zero.push(await outputs(t, 'bench', queries, 0));
same('bench lookups, threshold 0', zero);

// Timing: rounds alternate between the trees.
const times = new Map<string, number[][]>(trees.map((t) => [t.name, []]));
for (let r = 0; r < ROUNDS; r++) {
  for (const t of r % 2 === 0 ? trees : [...trees].reverse()) {
    globalThis.gc?.();
    const ts: number[] = [];
    for (const query of queries) {
      const s = performance.now();
      await t.cache.lookup({ tenant: 't', namespace: 'bench', query, threshold: t.defaultThreshold });
      ts.push(performance.now() - s);
    }
    times.get(t.name)!.push(ts.sort((a, b) => a - b));
  }
}
// The parts: embedding the 2,000 queries, and the verifier on their candidates (found by this
// tree's store: the same features in both trees, the outputs above say so), per lookup.
const pairsToVerify: Array<[number, unknown, unknown]> = [];
for (const query of queries) {
  const q = trees[0]!.embedder.embed(query) as { vector: Float32Array; features: unknown };
  for (const c of trees[0]!.store.candidates({ tenant: 't', namespace: 'bench' }, q.vector, '', 5, 1_000_000)) pairsToVerify.push([c.cosine, q.features, c.features]);
}
const parts = new Map<string, { embed: number[]; verify: number[] }>(trees.map((t) => [t.name, { embed: [], verify: [] }]));
for (let r = 0; r < ROUNDS; r++) {
  for (const t of r % 2 === 0 ? trees : [...trees].reverse()) {
    let s = performance.now();
    for (const query of queries) t.embedder.embed(query);
    parts.get(t.name)!.embed.push(((performance.now() - s) * 1000) / queries.length);
    s = performance.now();
    for (const [cosine, a, b] of pairsToVerify) t.embedder.verify(cosine, a, b);
    parts.get(t.name)!.verify.push(((performance.now() - s) * 1000) / queries.length);
  }
}

const pct = (s: number[], p: number): number => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const summary: Record<string, { p50: number; p99: number; mean: number }> = {};
for (const [name, rounds] of times) {
  summary[name] = {
    p50: median(rounds.map((s) => pct(s, 50))),
    p99: median(rounds.map((s) => pct(s, 99))),
    mean: median(rounds.map((s) => s.reduce((x, y) => x + y, 0) / s.length)),
  };
  console.log(`${name}: lookup p50 ${summary[name]!.p50.toFixed(4)} ms, p99 ${summary[name]!.p99.toFixed(4)} ms, mean ${summary[name]!.mean.toFixed(4)} ms (medians of ${rounds.length} rounds x ${queries.length}); round p99s ${rounds.map((s) => pct(s, 99).toFixed(3)).join(' ')}`);
}
for (const [name, p] of parts) console.log(`${name}: embed ${median(p.embed).toFixed(1)} µs, verifier ${median(p.verify).toFixed(1)} µs per lookup (${(pairsToVerify.length / queries.length).toFixed(1)} candidates; medians of ${p.embed.length} rounds)`);
if (summary.before !== undefined) {
  const a = summary.after!;
  const b = summary.before;
  console.log(`after/before: p50 ${(a.p50 / b.p50).toFixed(2)}, p99 ${(a.p99 / b.p99).toFixed(2)}, mean ${(a.mean / b.mean).toFixed(2)}`);
  const pa = parts.get('after')!;
  const pb = parts.get('before')!;
  console.log(`after/before: embed ${(median(pa.embed) / median(pb.embed)).toFixed(2)}, verifier ${(median(pa.verify) / median(pb.verify)).toFixed(2)}`);
}
if (failures > 0) {
  console.error(`${failures} lookups differ`);
  process.exit(1);
}
