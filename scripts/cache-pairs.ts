/**
 * Labelled pairs for the API-05 verifier (train:cache, eval:cache): reading JSONL files that
 * tolerate bad records, the dataset groups of leave-one-dataset-out, and the pair features.
 *
 * A record needs `text_a`, `text_b` (non-empty strings) and `label` (0 or 1); `dataset` (or
 * `source`) names its origin. Anything else is skipped and counted by reason.
 */
import { jsonObjects } from './lib/jsonl.ts';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { readGloveBinary } from '../src/embeddings/glove-binary.ts';
import { dot, GloveEmbedder } from '../src/embeddings/glove.ts';
import { embedWithGlove, type EmbeddedText } from '../src/embeddings/index.ts';
import { ensureGloveBinary } from '../src/embeddings/prepare.ts';
import { ensureWordnetTable, readWordnetTable } from '../src/embeddings/wordnet.ts';
import { N_FEATURES, PairScorer } from '../src/embeddings/pair-features.ts';

export interface Pair {
  readonly id: string;
  readonly text_a: string;
  readonly text_b: string;
  readonly label: 0 | 1;
  /** The record's `dataset` (or `source`), "unknown" when absent. */
  readonly dataset: string;
  /** Leave-one-dataset-out group (groupOf). */
  readonly group: string;
}

export interface Loaded {
  readonly pairs: Pair[];
  /** Skipped records by reason. */
  readonly skipped: Map<string, number>;
}

/**
 * Dataset -> group of leave-one-dataset-out: one group per upstream corpus (the STS benchmark's
 * files and the SemEval STS years are one corpus; MRPC's train and dev splits are one).
 */
export function groupOf(dataset: string): string {
  if (/^(STSB|SemEval-STS)/i.test(dataset)) return 'STSB';
  if (/^MRPC/i.test(dataset)) return 'MRPC';
  if (/^SemEval2016-Task3/i.test(dataset)) return 'SemEval-QL';
  if (/^PAN/i.test(dataset)) return 'PAN';
  return dataset;
}

/** The .jsonl files of `dir` (sorted, so the order and the trained weights are stable). */
export function jsonlFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl') && statSync(path.join(dir, f)).isFile())
    .sort()
    .map((f) => path.join(dir, f));
}

/** Reads JSONL files (at most `limit` usable pairs of each); never throws on a record (bad ones are counted in `skipped`). */
export function readPairs(files: readonly string[], limit = Infinity): Loaded {
  const pairs: Pair[] = [];
  const skipped = new Map<string, number>();
  const skip = (why: string): void => void skipped.set(why, (skipped.get(why) ?? 0) + 1);
  for (const file of files) {
    let kept = 0;
    for (const { record: r, line } of jsonObjects(readFileSync(file, 'utf8'), skip)) {
      if (kept >= limit) break;
      if (typeof r.text_a !== 'string' || r.text_a.trim() === '') { skip('text_a missing, null or empty'); continue; }
      if (typeof r.text_b !== 'string' || r.text_b.trim() === '') { skip('text_b missing, null or empty'); continue; }
      if (r.label !== 0 && r.label !== 1) { skip('label not 0 or 1'); continue; }
      const dataset = typeof r.dataset === 'string' && r.dataset !== '' ? r.dataset : typeof r.source === 'string' && r.source !== '' ? r.source : 'unknown';
      const id = typeof r.id === 'string' ? r.id : `${path.basename(file)}:${line}`;
      pairs.push({ id, text_a: r.text_a, text_b: r.text_b, label: r.label, dataset, group: groupOf(dataset) });
      kept++;
    }
  }
  return { pairs, skipped };
}

export interface PairRows {
  /** N_FEATURES values per pair, row-major. */
  readonly x: Float64Array;
  /** RULE bits per pair. */
  readonly rules: Uint32Array;
  readonly cosine: Float64Array;
  /** Same normalised text on both sides (an exact repeat: the cache serves it with score 1). */
  readonly exact: Uint8Array;
}

/** Pair features of every pair (text_b is the query, text_a the cached entry, as the cache sees it). */
export function pairRows(glove: GloveEmbedder, pairs: readonly Pair[]): PairRows {
  const scorer = new PairScorer(glove);
  const x = new Float64Array(pairs.length * N_FEATURES);
  const rules = new Uint32Array(pairs.length);
  const cosine = new Float64Array(pairs.length);
  const exact = new Uint8Array(pairs.length);
  const row = new Float64Array(N_FEATURES);

  const memo = new Map<string, EmbeddedText>();
  const embed = (t: string): EmbeddedText => {
    let e = memo.get(t);
    if (e === undefined) {
      e = embedWithGlove(glove, t);
      memo.set(t, e);
    }
    return e;
  };
  pairs.forEach((p, i) => {
    const a = embed(p.text_a);
    const b = embed(p.text_b);
    cosine[i] = dot(a.vector, b.vector);
    exact[i] = a.fingerprint === b.fingerprint ? 1 : 0;
    rules[i] = scorer.compute(cosine[i]!, b.features, a.features, row);
    x.set(row, i * N_FEATURES);
  });
  return { x, rules, cosine, exact };
}

/** The GloVe embedder with WordNet, as the service loads it (DATA_DIR or the package cache). */
export function loadGlove(dataDir: string | null, log: (msg: string) => void = () => undefined): GloveEmbedder {
  const vectors = readGloveBinary(ensureGloveBinary(dataDir, log).file);
  const table = ensureWordnetTable(dataDir, vectors, { dictDir: null, log });
  return new GloveEmbedder(vectors, table === null ? null : readWordnetTable(table.file, vectors));
}

/** Value of `--name value` in argv, every one of them for `all`. */
export function argValues(argv: readonly string[], name: string): string[] {
  const out: string[] = [];
  argv.forEach((a, i) => {
    if (a === name && i + 1 < argv.length) out.push(argv[i + 1]!);
    else if (a.startsWith(`${name}=`)) out.push(a.slice(name.length + 1));
  });
  return out;
}
