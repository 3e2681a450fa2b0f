/**
 * Leave-one-dataset-out for the API-05 verifier: for each group, train on every other group
 * (cache-train.ts), score the left-out group's pairs, and pick the default threshold as the
 * smallest one at which precision holds on every left-out group (and at every higher threshold).
 */
import type { WordKnowledge } from '../src/embeddings/verify.ts';
import { LearnedVerifier } from '../src/embeddings/learned-verify.ts';
import { N_FEATURES } from '../src/embeddings/pair-features.ts';
import type { Pair, PairRows } from './cache-pairs.ts';
import { trainVerifier, type TrainConfig } from './cache-train.ts';

/** Precision the default threshold must hold on every left-out group. */
export const TARGET_PRECISION = 0.95;
/** Thresholds tried: 0.50, 0.51, ..., 0.99. */
export const THRESHOLD_GRID: readonly number[] = Array.from({ length: 50 }, (_, i) => Math.round((0.5 + i * 0.01) * 100) / 100);

export interface Fold {
  readonly group: string;
  /** Indices of the group's pairs. */
  readonly index: number[];
  /** Calibrated score of each of them, from a model that never saw the group. */
  readonly score: Float64Array;
  readonly rejectRules: string[];
}

/** Scores as the service sends them: 4 decimals; an exact repeat is 1. */
export function serviceScore(verifier: LearnedVerifier, rows: PairRows, i: number): number {
  if (rows.exact[i] === 1) return 1;
  const s = verifier.scoreRow(rows.x.subarray(i * N_FEATURES, (i + 1) * N_FEATURES), rows.rules[i]!);
  return Math.round(Math.min(1, Math.max(0, s)) * 10_000) / 10_000;
}

export function leaveOneDatasetOut(pairs: readonly Pair[], rows: PairRows, words: WordKnowledge, config: TrainConfig = {}): Fold[] {
  const groups = [...new Set(pairs.map((p) => p.group))].sort();
  const folds: Fold[] = [];
  for (const g of groups) {
    const train: number[] = [];
    const index: number[] = [];
    pairs.forEach((p, i) => (p.group === g ? index : train).push(i));
    if (train.length === 0) continue;
    const { bundle, rejectRules } = trainVerifier(pairs, rows, train, {}, config);
    const verifier = new LearnedVerifier(bundle, words);
    folds.push({ group: g, index, score: Float64Array.from(index, (i) => serviceScore(verifier, rows, i)), rejectRules });
  }
  return folds;
}

export interface AtThreshold {
  readonly hits: number;
  readonly right: number;
  readonly positives: number;
  /** right / hits; 1 when nothing hits. */
  readonly precision: number;
  /** right / positives. */
  readonly hitRate: number;
}

export function atThreshold(score: ArrayLike<number>, label: ArrayLike<number>, t: number): AtThreshold {
  let hits = 0;
  let right = 0;
  let positives = 0;
  for (let i = 0; i < score.length; i++) {
    positives += label[i]!;
    if (score[i]! < t) continue;
    hits++;
    right += label[i]!;
  }
  return { hits, right, positives, precision: hits === 0 ? 1 : right / hits, hitRate: positives === 0 ? 0 : right / positives };
}

/**
 * The smallest grid threshold t such that at t and every higher grid threshold, precision is at
 * least `target` on every fold; null when none is.
 */
export function chooseThreshold(folds: readonly Fold[], labelOf: (i: number) => number, target = TARGET_PRECISION): number | null {
  let chosen: number | null = null;
  for (let k = THRESHOLD_GRID.length - 1; k >= 0; k--) {
    const t = THRESHOLD_GRID[k]!;
    const ok = folds.every((f) => atThreshold(f.score, f.index.map(labelOf), t).precision >= target);
    if (!ok) break;
    chosen = t;
  }
  return chosen;
}
