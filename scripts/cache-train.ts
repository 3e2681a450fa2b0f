/**
 * Training of the API-05 verifier on precomputed pair rows (cache-pairs.ts), shared by
 * `npm run train:cache` and the leave-one-dataset-out folds of `npm run eval:cache`.
 *
 *   rows of the training groups ─┬─ 4 of 5 (by a hash of the pair id) ─> logistic regression
 *                                └─ 1 of 5 ──────────────────────────> calibration (isotonic)
 *
 * Every group weighs the same in training and calibration (a row weighs 1 / its group's size):
 * the largest source (QQP, 20k pairs) must not decide alone what a paraphrase is. A rule rejects
 * outright when at most REJECT_MAX_RATE of the training pairs where it fires are paraphrases
 * (and it fired at least REJECT_MIN_COUNT times): "certain" is measured, not assumed.
 */
import { encodeModel, fitIsotonic, fitPlatt, FeatureHasher, hashString, trainLogistic, type ModelBundle, type SparseVector } from '../src/learn/index.ts';
import { FEATURE_NAMES, N_FEATURES, RULE, RULE_NAMES, SHORT_PAIR, type RuleName } from '../src/embeddings/pair-features.ts';
import type { Pair, PairRows } from './cache-pairs.ts';

export const TRAIN_OPTIONS = { epochs: 10, l2: 1e-5, learningRate: 0.1, seed: 1 } as const;
/**
 * Platt, not isotonic: on the left-out groups isotonic's top step reads 1.0 for pairs that are
 * right 77% of the time (QQP); the sigmoid stays below 1 and ranks the top better.
 */
export const CALIBRATION: 'platt' | 'isotonic' = 'platt';
/**
 * In short texts (queries: pair-features.ts SHORT_WORDS) every rule rejects: "install Python 2"
 * is not "install Python 3", "why" is not "how", "X to Y" is not "Y to X". The training sources
 * label some such pairs as paraphrases (QQP: 20% of its short pairs with another question word),
 * but a cache serving one for the other answers another question; long news sentences keep the
 * rules as features only (they often drop or reword a figure).
 */
export const SHORT_REJECT_RULES: readonly RuleName[] = RULE_NAMES;
export const REJECT_MAX_RATE = 0.12;
export const REJECT_MIN_COUNT = 30;
/** One pair in CALIBRATION_SHARE (by id hash) is held apart for calibration. */
const CALIBRATION_SHARE = 5;

export interface TrainConfig {
  readonly calibration?: 'isotonic' | 'platt';
  /** Reject rules to use instead of the measured ones. */
  readonly rejectRules?: readonly RuleName[];
  readonly balance?: boolean;
}

export interface TrainResult {
  readonly bundle: ModelBundle;
  readonly rejectRules: RuleName[];
}

/** Trains on `use` (indices into pairs/rows); deterministic for the same input. */
export function trainVerifier(pairs: readonly Pair[], rows: PairRows, use: readonly number[], meta: Record<string, unknown> = {}, config: TrainConfig = {}): TrainResult {
  const groupSize = new Map<string, number>();
  for (const i of use) groupSize.set(pairs[i]!.group, (groupSize.get(pairs[i]!.group) ?? 0) + 1);
  const weightOf = (i: number): number => (config.balance === false ? 1 : use.length / (groupSize.size * groupSize.get(pairs[i]!.group)!));

  // Hard rejects: rules whose pairs were (almost) never paraphrases, group-weighted.
  const rejectRules: RuleName[] = config.rejectRules === undefined ? [] : [...config.rejectRules];
  for (const name of config.rejectRules === undefined ? RULE_NAMES : []) {
    let n = 0;
    let wAll = 0;
    let wPos = 0;
    for (const i of use) {
      if ((rows.rules[i]! & RULE[name]) === 0) continue;
      n++;
      wAll += weightOf(i);
      wPos += weightOf(i) * pairs[i]!.label;
    }
    if (n >= REJECT_MIN_COUNT && wPos <= REJECT_MAX_RATE * wAll) rejectRules.push(name);
  }
  let rejectMask = 0;
  for (const r of rejectRules) rejectMask |= RULE[r];
  let shortMask = 0;
  for (const r of SHORT_REJECT_RULES) shortMask |= RULE[r];
  const rejected = (i: number): boolean => {
    const rules = rows.rules[i]!;
    return (rules & rejectMask) !== 0 || ((rules & SHORT_PAIR) !== 0 && (rules & shortMask) !== 0);
  };

  // Rejected pairs score 0 in service: they neither train nor calibrate the model.
  const fit: number[] = [];
  const cal: number[] = [];
  for (const i of use) if (!rejected(i)) (hashString(pairs[i]!.id, 7) % CALIBRATION_SHARE === 0 ? cal : fit).push(i);
  const hasher = new FeatureHasher({ bits: 1, reserved: N_FEATURES });
  const x: SparseVector[] = fit.map((i) => sparseRow(hasher, rows, i));
  const model = trainLogistic({ x, y: fit.map((i) => pairs[i]!.label), weight: fit.map(weightOf) }, hasher.dim, TRAIN_OPTIONS);

  // Calibration on the held-apart pairs.
  const calKept = cal;
  const logits = calKept.map((i) => model.logit(sparseRow(hasher, rows, i)));
  const calLabels = calKept.map((i) => pairs[i]!.label);
  const calibration = (config.calibration ?? CALIBRATION) === 'platt' ? fitPlatt(logits, calLabels) : fitIsotonic(logits, calLabels, calKept.map(weightOf));
  const bundle: ModelBundle = {
    model,
    calibration,
    meta: { features: FEATURE_NAMES, rejectRules, shortRejectRules: SHORT_REJECT_RULES, ...meta },
  };
  return { bundle, rejectRules };
}

/** Row i as a sparse vector (dense named slots only). */
export function sparseRow(hasher: FeatureHasher, rows: PairRows, i: number): SparseVector {
  hasher.begin();
  for (let k = 0; k < N_FEATURES; k++) {
    const v = rows.x[i * N_FEATURES + k]!;
    if (v !== 0) hasher.addIndex(k, v);
  }
  return hasher.end('none');
}

/** The model file bytes (float32 weights: the file is tiny either way). */
export function encodeVerifier(bundle: ModelBundle): Buffer {
  return encodeModel(bundle, { weights: 'f32' });
}
