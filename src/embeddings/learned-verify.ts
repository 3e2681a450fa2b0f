/**
 * The learned verifier of API-05: a logistic regression over the pair features of
 * pair-features.ts, calibrated on pairs held apart from its training (scripts/train-cache.ts), so
 * that a candidate's score is the estimated probability that the cached answer is right for the
 * query. Rules reject outright with score 0: in short texts (queries) every rule of
 * pair-features.ts (another number, date, name, platform, unit, question word, a negation on one
 * side, swapped roles, antonyms), in any text the rules that were almost never paraphrases in
 * training (the model file lists both).
 *
 * The weights ship in cache-verifier.bin (src/learn model file, about 1 KB) and load at boot. Per
 * candidate: one feature pass (PairScorer; a rejected pair stops once its rules are known, before
 * any word vectors are compared), one dot product over N_FEATURES slots, one calibration lookup;
 * no allocation.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { calibrate, decodeModel, type Calibration, type ModelBundle } from '../learn/index.ts';
import type { SentenceFeatures } from './glove.ts';
import { FEATURE_NAMES, N_FEATURES, PairScorer, RULE, RULE_NAMES, SHORT_PAIR, type RuleName } from './pair-features.ts';
import type { Verdict, WordKnowledge } from './verify.ts';

/** The shipped model file. */
export const VERIFIER_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'cache-verifier.bin');

/** What train-cache.ts writes into the model file's meta (the parts the service reads). */
export interface VerifierMeta {
  readonly features: readonly string[];
  /** Rules that reject outright (RULE names). */
  readonly rejectRules: readonly RuleName[];
  /** Rules that reject outright when both texts are short (SHORT_WORDS content words at most: queries). */
  readonly shortRejectRules: readonly RuleName[];
  /** The default lookup threshold chosen from leave-one-dataset-out results. */
  readonly threshold?: number;
}

const COVERAGE_SLOT = FEATURE_NAMES.indexOf('cov_soft_min');

export class LearnedVerifier {
  readonly meta: VerifierMeta;
  private readonly weights: Float32Array;
  private readonly bias: number;
  private readonly calibration: Calibration;
  private readonly rejectMask: number;
  private readonly shortRejectMask: number;
  private readonly scorer: PairScorer;
  private readonly row = new Float64Array(N_FEATURES);
  /** PairScorer.compute's stop test: a rejected pair needs no features. */
  private readonly rejects = (rules: number): boolean => this.rejectedBits(rules) !== 0;

  constructor(bundle: ModelBundle, words: WordKnowledge) {
    const meta = bundle.meta as unknown as VerifierMeta;
    if (!Array.isArray(meta.features) || meta.features.join(',') !== FEATURE_NAMES.join(',')) {
      throw new TypeError('the verifier model was trained on other pair features: retrain it (npm run train:cache)');
    }
    if (bundle.model.weights.length < N_FEATURES) throw new TypeError('the verifier model has fewer weights than features');
    const maskOf = (list: readonly RuleName[] | undefined): number => {
      let mask = 0;
      for (const r of list ?? []) {
        if (!RULE_NAMES.includes(r)) throw new TypeError(`unknown reject rule ${String(r)} in the verifier model`);
        mask |= RULE[r];
      }
      return mask;
    };
    this.meta = meta;
    this.weights = bundle.model.weights;
    this.bias = bundle.model.bias;
    this.calibration = bundle.calibration;
    this.rejectMask = maskOf(meta.rejectRules);
    this.shortRejectMask = maskOf(meta.shortRejectRules);
    this.scorer = new PairScorer(words);
  }

  /** Loads a model file (default: the shipped one). */
  static load(words: WordKnowledge, file = VERIFIER_FILE): LearnedVerifier {
    return new LearnedVerifier(decodeModel(readFileSync(file)), words);
  }

  /**
   * Calibrated probability that `candidate`'s answer is right for `query`; 0 on a hard reject
   * (with coverage 0: a rejected pair's word vectors are never compared).
   */
  verify(cosine: number, query: SentenceFeatures, candidate: SentenceFeatures): Verdict {
    const rules = this.scorer.compute(cosine, query, candidate, this.row, this.rejects);
    if (this.rejectedBits(rules) !== 0) return { score: 0, reject: this.rejectedBy(rules), coverage: 0 };
    return { score: this.scoreRow(this.row, rules), reject: null, coverage: this.row[COVERAGE_SLOT]! };
  }

  /** The score of a computed pair (PairScorer.compute): its feature row and its rule bits. */
  scoreRow(row: ArrayLike<number>, rules: number): number {
    if (this.rejectedBits(rules) !== 0) return 0;
    const w = this.weights;
    let z = this.bias;
    for (let i = 0; i < N_FEATURES; i++) {
      const v = row[i]!;
      if (v !== 0) z += w[i]! * v;
    }
    return calibrate(this.calibration, z);
  }

  /** The RULE bits of `rules` that reject (a short pair has more of them). */
  rejectedBits(rules: number): number {
    return (rules & this.rejectMask) | ((rules & SHORT_PAIR) === 0 ? 0 : rules & this.shortRejectMask);
  }

  /** The first reject rule among `rules`, or null. */
  rejectedBy(rules: number): RuleName | null {
    const hit = this.rejectedBits(rules);
    return hit === 0 ? null : (RULE_NAMES.find((r) => (RULE[r] & hit) !== 0) ?? null);
  }
}
