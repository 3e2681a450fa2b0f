/**
 * Pair features of the API-05 verifier: what the learned model (verifier.ts) sees of a query and a
 * cached query, and which of its rules fired. Computed once per HNSW candidate, into a caller's
 * Float64Array (no allocation per call).
 *
 * The features target the typical wrong hit of a word-vector cache:
 *   - how much of each side's content the other covers (soft: a word-vector neighbour counts
 *     cosine^2; exact: the same word or the same contrast group), the weaker and the stronger
 *     direction, the heaviest word left without a counterpart: one side asking for more;
 *   - conflicts in contrast classes (glove.ts CONTRAST_CLASSES), per kind: numbers ("Python 2"
 *     vs "Python 3", "5 km" vs "10 km"), dates (weekday, month), platforms and products
 *     (Mac/Windows, Java/Python), units and currencies, directions (rose/fell, buy/sell), others;
 *     a number on one side only;
 *   - a name (tokenizer `proper`) on each side with no identical counterpart (another place,
 *     person or product: names never match softly); names and unknown words on one side only, other pronouns (I / you /
 *     they), all words including stop words ("may" vs "might"): a different subject or object;
 *   - more questions or coordinations ("and", "or") on one side: one side asking for more;
 *   - a different question word (why/how/when/how many), a question against a statement;
 *   - a negation on one side only, WordNet antonyms, swapped roles, other symbols ("O+" / "O-",
 *     "5%" / "5": verify.ts);
 *   - the sentence cosine, lengths, and one-hot bins of cosine and coverage (the model is linear:
 *     bins let it bend).
 *
 * The rules that fired come back as RULE bits; the model file says which of them reject outright
 * (those whose pairs were almost never paraphrases in training: see scripts/train-cache.ts).
 */
import type { SentenceFeatures } from './glove.ts';
import { CONTRAST_KINDS, type ContrastKind } from './glove.ts';
import { antonymConflict, swappedRoles, symbolConflict, WORD_MATCH, type WordKnowledge } from './verify.ts';

/** Rule bits returned by PairScorer.compute. */
export const RULE = {
  negation: 1,
  question: 2,
  number: 4,
  date: 8,
  platform: 16,
  unit: 32,
  direction: 64,
  contrast: 128,
  antonym: 256,
  order: 512,
  entity: 1024,
  symbol: 2048,
} as const;
/** Set in compute()'s result when both texts are short (SHORT_WORDS): not a rule, a condition for rejects. */
export const SHORT_PAIR = 1 << 20;
export type RuleName = keyof typeof RULE;
export const RULE_NAMES = Object.keys(RULE) as RuleName[];

const COS_BINS = [0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95];
const COV_BINS = [0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 0.97];

/** Dense feature names, in slot order (the model file stores them: a mismatch refuses to load). */
export const FEATURE_NAMES: readonly string[] = [
  'cosine',
  'cov_soft_min',
  'cov_soft_max',
  'cov_exact_min',
  'cov_exact_max',
  'score_sqrt_cos_cov',
  'jaccard',
  'jaccard_all_words',
  'person_diff',
  'clause_diff',
  'len_min',
  'len_max',
  'len_ratio',
  'short',
  'unmatched_weight_max',
  'unmatched_names',
  'unmatched_unknown',
  'unmatched_numbers',
  'negation',
  'question_conflict',
  'question_one_side',
  'question_both',
  'conflict_number',
  'conflict_date',
  'conflict_platform',
  'conflict_unit',
  'conflict_direction',
  'conflict_other',
  'antonym',
  'order_swap',
  'conflict_entity',
  'conflict_symbol',
  // The same signals in short texts (at most SHORT_WORDS content words on each side): in a query,
  // a different number or name is a different question; in a long news sentence it often is not.
  'short_negation',
  'short_question_conflict',
  'short_conflict_number',
  'short_conflict_entity',
  'short_conflict_other',
  'short_unmatched_names',
  ...binNames('cos', COS_BINS),
  ...binNames('covmin', COV_BINS),
  ...binNames('exmin', COV_BINS),
];
export const N_FEATURES = FEATURE_NAMES.length;


function binNames(prefix: string, edges: readonly number[]): string[] {
  return Array.from({ length: edges.length + 1 }, (_, i) => `${prefix}_bin${i}`);
}

const slot = (name: string): number => {
  const i = FEATURE_NAMES.indexOf(name);
  if (i < 0) throw new Error(`unknown feature ${name}`);
  return i;
};
const S = {
  cosine: slot('cosine'),
  covSoftMin: slot('cov_soft_min'),
  covSoftMax: slot('cov_soft_max'),
  covExactMin: slot('cov_exact_min'),
  covExactMax: slot('cov_exact_max'),
  score: slot('score_sqrt_cos_cov'),
  jaccard: slot('jaccard'),
  jaccardAll: slot('jaccard_all_words'),
  personDiff: slot('person_diff'),
  clauseDiff: slot('clause_diff'),
  lenMin: slot('len_min'),
  lenMax: slot('len_max'),
  lenRatio: slot('len_ratio'),
  short: slot('short'),
  unmatchedWeight: slot('unmatched_weight_max'),
  unmatchedNames: slot('unmatched_names'),
  unmatchedUnknown: slot('unmatched_unknown'),
  unmatchedNumbers: slot('unmatched_numbers'),
  negation: slot('negation'),
  questionConflict: slot('question_conflict'),
  questionOneSide: slot('question_one_side'),
  questionBoth: slot('question_both'),
  number: slot('conflict_number'),
  date: slot('conflict_date'),
  platform: slot('conflict_platform'),
  unit: slot('conflict_unit'),
  direction: slot('conflict_direction'),
  other: slot('conflict_other'),
  antonym: slot('antonym'),
  order: slot('order_swap'),
  entity: slot('conflict_entity'),
  symbol: slot('conflict_symbol'),
  shortNegation: slot('short_negation'),
  shortQuestion: slot('short_question_conflict'),
  shortNumber: slot('short_conflict_number'),
  shortEntity: slot('short_conflict_entity'),
  shortOther: slot('short_conflict_other'),
  shortNames: slot('short_unmatched_names'),
  cosBin: slot('cos_bin0'),
  covBin: slot('covmin_bin0'),
  exBin: slot('exmin_bin0'),
};

/** Texts with at most this many content words on each side count as short (queries). */
export const SHORT_WORDS = 12;
const OTHER_CONFLICTS = RULE.date | RULE.platform | RULE.unit | RULE.direction | RULE.contrast | RULE.antonym | RULE.order | RULE.symbol;

const KIND_RULE: Readonly<Record<ContrastKind, number>> = { date: RULE.date, direction: RULE.direction, platform: RULE.platform, unit: RULE.unit, other: RULE.contrast };

/** One direction of the scan: x's words against y's. */
interface Side {
  soft: number;
  exact: number;
  unmatchedMax: number;
  names: number;
  unknown: number;
  numbers: number;
  shared: number;
  rules: number;
}

/** Per-word state of a scan (PairScorer): no counterpart yet, an identical one, word vectors to compare. */
const NONE = 0;
const SAME = 1;
const PENDING = 2;

/**
 * Computes pair features; holds scratch buffers, so one instance per thread (not shared across
 * concurrent calls: the core calls it synchronously).
 *
 * Two passes per direction: `match` finds identical words and contrast conflicts (integer compares:
 * every RULE bit comes from it and the checks in compute), `cover` compares the remaining words'
 * vectors and sums coverage in word order. A caller that only needs the rules of a rejected pair
 * (LearnedVerifier) stops after the first pass; the features of a pair it does finish are the same.
 */
export class PairScorer {
  private readonly words: WordKnowledge;
  private cells = new Float64Array(64 * 64);
  private readonly sideA: Side = newSide();
  private readonly sideB: Side = newSide();
  /** Per word of a / of b: NONE, SAME or PENDING (set by match, read by cover). */
  private stateA = new Uint8Array(64);
  private stateB = new Uint8Array(64);

  constructor(words: WordKnowledge) {
    this.words = words;
  }

  /**
   * Fills `out` (length >= N_FEATURES) with the features of (a, b) and returns the RULE bits that
   * fired. `cosine` is the sentence-vector cosine. Symmetric: swapping a and b gives the same.
   * When `stop` returns true for the rule bits, compute returns them at once and `out` is left
   * unspecified (a rejected pair needs no features).
   */
  compute(cosine: number, a: SentenceFeatures, b: SentenceFeatures, out: Float64Array, stop?: (rules: number) => boolean): number {
    const n = a.keys.length;
    const m = b.keys.length;
    if (this.stateA.length < n) this.stateA = new Uint8Array(n);
    if (this.stateB.length < m) this.stateB = new Uint8Array(m);
    this.match(a, b, this.sideA, this.stateA);
    this.match(b, a, this.sideB, this.stateB);
    const sa = this.sideA;
    const sb = this.sideB;
    let rules = sa.rules | sb.rules;
    // A name on each side without an identical counterpart: another place, person or product.
    if (sa.names > 0 && sb.names > 0) rules |= RULE.entity;
    if (a.negated !== b.negated) rules |= RULE.negation;
    if (a.questions !== 0 && b.questions !== 0 && a.questions !== b.questions) rules |= RULE.question;
    if (this.words.antonyms !== undefined && antonymConflict(a, b, this.words)) rules |= RULE.antonym;
    if (swappedRoles(a, b)) rules |= RULE.order;
    if (symbolConflict(a, b)) rules |= RULE.symbol;
    const short = Math.max(n, m) <= SHORT_WORDS;
    if (short) rules |= SHORT_PAIR;
    if (stop !== undefined && stop(rules)) return rules;

    if (this.cells.length < n * m) this.cells = new Float64Array(n * m);
    this.cells.fill(NaN, 0, n * m);
    this.cover(a, b, false, sa, this.stateA);
    this.cover(b, a, true, sb, this.stateB);
    out.fill(0, 0, N_FEATURES);
    const cos = Math.max(0, cosine);
    const covMin = Math.min(sa.soft, sb.soft);
    const exMin = Math.min(sa.exact, sb.exact);
    out[S.cosine] = cos;
    out[S.covSoftMin] = covMin;
    out[S.covSoftMax] = Math.max(sa.soft, sb.soft);
    out[S.covExactMin] = exMin;
    out[S.covExactMax] = Math.max(sa.exact, sb.exact);
    out[S.score] = Math.sqrt(cos * covMin);
    const union = n + m - sa.shared;
    out[S.jaccard] = union === 0 ? 1 : sa.shared / union;
    out[S.jaccardAll] = a.words === undefined || b.words === undefined ? out[S.jaccard]! : sortedJaccard(a.words, b.words);
    out[S.personDiff] = popcount3((a.persons ?? 0) ^ (b.persons ?? 0)) / 3;
    out[S.clauseDiff] = Math.min(2, Math.abs((a.clauses ?? 0) - (b.clauses ?? 0))) / 2;
    out[S.lenMin] = Math.log1p(Math.min(n, m)) / 4;
    out[S.lenMax] = Math.log1p(Math.max(n, m)) / 4;
    out[S.lenRatio] = Math.abs(Math.log1p(n) - Math.log1p(m));
    out[S.short] = Math.min(n, m) <= 2 ? 1 : 0;
    out[S.unmatchedWeight] = Math.max(sa.unmatchedMax, sb.unmatchedMax);
    out[S.unmatchedNames] = Math.min(3, sa.names + sb.names) / 3;
    out[S.unmatchedUnknown] = Math.min(3, sa.unknown + sb.unknown) / 3;
    out[S.unmatchedNumbers] = Math.min(3, sa.numbers + sb.numbers) / 3;
    out[S.negation] = rules & RULE.negation ? 1 : 0;
    out[S.questionConflict] = rules & RULE.question ? 1 : 0;
    out[S.questionOneSide] = (a.questions === 0) !== (b.questions === 0) ? 1 : 0;
    out[S.questionBoth] = a.questions !== 0 && b.questions !== 0 ? 1 : 0;
    out[S.number] = rules & RULE.number ? 1 : 0;
    out[S.date] = rules & RULE.date ? 1 : 0;
    out[S.platform] = rules & RULE.platform ? 1 : 0;
    out[S.unit] = rules & RULE.unit ? 1 : 0;
    out[S.direction] = rules & RULE.direction ? 1 : 0;
    out[S.other] = rules & RULE.contrast ? 1 : 0;
    out[S.antonym] = rules & RULE.antonym ? 1 : 0;
    out[S.order] = rules & RULE.order ? 1 : 0;
    out[S.entity] = rules & RULE.entity ? 1 : 0;
    out[S.symbol] = rules & RULE.symbol ? 1 : 0;
    if (short) {
      out[S.shortNegation] = out[S.negation]!;
      out[S.shortQuestion] = out[S.questionConflict]!;
      out[S.shortNumber] = out[S.number]!;
      out[S.shortEntity] = out[S.entity]!;
      out[S.shortOther] = rules & OTHER_CONFLICTS ? 1 : 0;
      out[S.shortNames] = out[S.unmatchedNames]!;
    }
    out[S.cosBin + bin(cos, COS_BINS)] = 1;
    out[S.covBin + bin(covMin, COV_BINS)] = 1;
    out[S.exBin + bin(exMin, COV_BINS)] = 1;
    return rules;
  }

  /**
   * First pass, x's words against y's: identical words (SAME), contrast words (a conflict sets a
   * RULE bit), names and unknown words left without an identical counterpart; words whose vectors
   * cover() compares are PENDING.
   */
  private match(x: SentenceFeatures, y: SentenceFeatures, out: Side, state: Uint8Array): void {
    const words = this.words;
    const n = x.keys.length;
    const m = y.keys.length;
    out.soft = 0;
    out.exact = 0;
    out.unmatchedMax = 0;
    out.names = 0;
    out.unknown = 0;
    out.numbers = 0;
    out.shared = 0;
    out.rules = 0;
    if (n === 0) return;
    const vectors = words.similarity !== undefined;
    let yHasNumber = false;
    for (let j = 0; j < m; j++) if (words.contrastClass(y.keys[j]!) === 1) yHasNumber = true;
    for (let i = 0; i < n; i++) {
      const key = x.keys[i]!;
      const cls = words.contrastClass(key);
      let same = false;
      if (cls !== 0) {
        const group = words.contrastGroup(key);
        let conflict = false;
        for (let j = 0; j < m; j++) {
          const other = y.keys[j]!;
          if (other === key || (words.contrastClass(other) === cls && words.contrastGroup(other) === group)) {
            same = true;
            break;
          }
          if (words.contrastClass(other) === cls) conflict = true;
        }
        if (!same && conflict) out.rules |= cls === 1 ? RULE.number : KIND_RULE[CONTRAST_KINDS[cls - 2] ?? 'other'];
        if (!same && cls === 1 && !yHasNumber) out.numbers++;
      } else {
        for (let j = 0; j < m; j++) {
          if (y.keys[j] === key) {
            same = true;
            break;
          }
        }
      }
      if (same) {
        state[i] = SAME;
        out.shared++;
        continue;
      }
      // A name only matches itself: "Cochin" and "Mussoorie" are close in vector space, not the same hotel.
      const proper = x.proper !== undefined && x.proper[i] === 1;
      if (proper) out.names++;
      const id = x.ids[i]!;
      state[i] = cls === 0 && id >= 0 && vectors ? PENDING : NONE;
      if (id < 0 && cls === 0 && !proper) out.unknown++;
    }
  }

  /**
   * Second pass: the best word-vector counterpart of each PENDING word (the cells are shared by both
   * directions: each cosine is computed once), then coverage in word order.
   */
  private cover(x: SentenceFeatures, y: SentenceFeatures, swapped: boolean, out: Side, state: Uint8Array): void {
    const words = this.words;
    const n = x.keys.length;
    const m = y.keys.length;
    if (n === 0) {
      out.soft = out.exact = m === 0 ? 1 : 0;
      return;
    }
    const atLeast = words.similarityAtLeast !== undefined;
    let soft = 0;
    let exact = 0;
    let den = 0;
    for (let i = 0; i < n; i++) {
      const w = x.weights[i]!;
      den += w;
      const st = state[i]!;
      if (st === SAME) {
        soft += w;
        exact += w;
        continue;
      }
      let best = 0;
      if (st === PENDING) {
        const id = x.ids[i]!;
        for (let j = 0; j < m; j++) {
          const other = y.ids[j]!;
          if (other < 0 || words.contrastClass(y.keys[j]!) !== 0) continue;
          const cell = swapped ? j * n + i : i * m + j;
          let s = this.cells[cell]!;
          // Below WORD_MATCH a cosine counts as no counterpart whatever its value: similarityAtLeast
          // may stop early there (and say -1).
          if (s !== s) s = this.cells[cell] = atLeast ? words.similarityAtLeast!(id, other, WORD_MATCH) : words.similarity!(id, other);
          if (s > best) best = s;
        }
      }
      if (best >= WORD_MATCH) {
        soft += w * best * best;
        continue;
      }
      if (w > out.unmatchedMax) out.unmatchedMax = w;
    }
    out.soft = den === 0 ? 1 : soft / den;
    out.exact = den === 0 ? 1 : exact / den;
  }
}

function newSide(): Side {
  return { soft: 0, exact: 0, unmatchedMax: 0, names: 0, unknown: 0, numbers: 0, shared: 0, rules: 0 };
}

/** Jaccard similarity of two sorted distinct integer lists (1 when both are empty). */
function sortedJaccard(a: Int32Array, b: Int32Array): number {
  let i = 0;
  let j = 0;
  let common = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      common++;
      i++;
      j++;
    } else if (a[i]! < b[j]!) i++;
    else j++;
  }
  const union = a.length + b.length - common;
  return union === 0 ? 1 : common / union;
}

const popcount3 = (x: number): number => (x & 1) + ((x >> 1) & 1) + ((x >> 2) & 1);

function bin(x: number, edges: readonly number[]): number {
  let i = 0;
  while (i < edges.length && x >= edges[i]!) i++;
  return i;
}
