/**
 * The rule-based verification: with EMBEDDER=glove the learned verifier (learned-verify.ts) scores
 * candidates and reuses this file's rules (antonymConflict, swappedRoles, WORD_MATCH); with
 * EMBEDDER=transformers lexical.ts runs `verify` with its hard rules only. Word averages score
 * "reset my password" vs "reset my router" about as high as a real paraphrase, hence the rules:
 *
 *   score = sqrt( cosine(sentence vectors) x min(coverage(a -> b), coverage(b -> a)) )   (0 on a hard reject)
 *
 * (without coverage, `useCoverage` false: the cosine, 0 on a hard reject).
 *
 * coverage(a -> b): the weighted share of a's content words that have a counterpart in b. A
 * counterpart is the same folded word (plural/verb forms share it, counts 1) or, when word vectors
 * are available, a word whose vector cosine c is at least WORD_MATCH (counts c^SOFT_POWER). Weights favour rare words
 * (SIF weight with a small constant, so "password" counts far more than "get").
 *
 * Hard rejects (final = 0), because word vectors place these words next to each other although
 * they change the answer:
 *   - negation on one side only ("can I" vs "can't I", "with" vs "without");
 *   - two questions of different kinds ("how" vs "why", "when" vs "where"; how/what/which are one
 *     kind, and a statement never conflicts with a question);
 *   - a conflict in a contrast class: a number, weekday, month, direction (rose/fell), buy/sell,
 *     enable/disable ... on one side, and a different member of the same class but not the same
 *     one on the other ("Tuesday" vs "Thursday", "5" vs "10", "shares rose" vs "shares fell").
 *     Such words never match softly; when the other side has no word of that class at all the
 *     word simply counts as unmatched;
 *   - antonyms (WordNet, when its table is loaded): a word on one side only whose antonym is on the
 *     other side only ("open" vs "close", "acquitted" vs "convicted", "strengthens" vs "weakens");
 *   - swapped roles: two words both sides share stand in opposite order around the same anchor,
 *     a direction word ("convert USD to EUR" vs "convert EUR to USD", "Python faster than Java"
 *     vs "Java faster than Python") or a third shared content word ("dog bites man" vs "man bites
 *     dog", in short texts only: ORDER_SHORT). The same words reordered without a common anchor
 *     between them ("password reset" vs "reset the password", "to X from Y" vs "from Y to X") are
 *     not a swap; when only one side has "by" (a passive naming the agent), only direction words
 *     count as anchors.
 *
 * Attribution words (near "said", "told", "according to"; tokenizer.ts) carry half their coverage
 * weight (glove.ts ATTRIBUTION_WEIGHT): news paraphrases add, drop or rename the source freely.
 */
import type { SentenceFeatures } from './glove.ts';

/** Word-vector cosine at or above which two different words count as counterparts. */
export const WORD_MATCH = 0.7;
/**
 * A counterpart that is a different word counts cosine^SOFT_POWER, so a near-synonym (0.8 -> 0.64)
 * weighs less than the identical word: word vectors cannot tell synonyms from co-hyponyms
 * (Nigerian/Kenyan 0.8, Tuesday/Thursday 0.99), so no soft match is worth a full one.
 */
export const SOFT_POWER = 2;

/** Word-level knowledge the verifier needs; `similarity` is absent for embedders without word vectors. */
export interface WordKnowledge {
  /** Weight of a content word for coverage (rare = heavy); id = vocabulary row or -1. */
  coverageWeight(id: number): number;
  /** Cosine of two vocabulary rows. */
  similarity?(a: number, b: number): number;
  /**
   * similarity(a, b) when it is at least `min`; otherwise any value below `min` (an implementation
   * may stop computing once the cosine cannot reach it). Optional: similarity serves without it.
   */
  similarityAtLeast?(a: number, b: number, min: number): number;
  /** Contrast class of a key: 0 = none, 1 = number, 2.. = a contrast class. */
  contrastClass(key: number): number;
  /** Group of a key inside its contrast class (members of one group are interchangeable). */
  contrastGroup(key: number): number;
  /** WordNet (optional): whether a word (key or id) has any antonym; cheap pre-check. */
  hasAntonym?(word: number): boolean;
  /** WordNet (optional): whether two words (keys or ids) are antonyms. */
  antonyms?(a: number, b: number): boolean;
}

export interface Verdict {
  readonly score: number;
  /** Why a candidate was rejected outright (a rule name: 'negation', 'question', 'contrast', ...); null otherwise. */
  readonly reject: string | null;
  readonly coverage: number;
}

/**
 * Re-scores one candidate; `cosine` is the sentence-vector similarity from the index. Without
 * `useCoverage` only the hard rules apply and the score is the cosine.
 */
export function verify(cosine: number, a: SentenceFeatures, b: SentenceFeatures, words: WordKnowledge, useCoverage = true): Verdict {
  if (a.negated !== b.negated) return { score: 0, reject: 'negation', coverage: 0 };
  if (a.questions !== 0 && b.questions !== 0 && a.questions !== b.questions) return { score: 0, reject: 'question', coverage: 0 };
  if (symbolConflict(a, b)) return { score: 0, reject: 'symbol', coverage: 0 };
  // Both directions need the same word-pair cosines: each is computed at most once.
  const cells = a.keys.length * b.keys.length;
  if (pairCosines.length < cells) pairCosines = new Float64Array(cells);
  pairCosines.fill(NaN, 0, cells);
  const ab = coverage(a, b, words, false);
  if (ab < 0) return { score: 0, reject: 'contrast', coverage: 0 };
  const ba = coverage(b, a, words, true);
  if (ba < 0) return { score: 0, reject: 'contrast', coverage: 0 };
  if (words.antonyms !== undefined && antonymConflict(a, b, words)) return { score: 0, reject: 'antonym', coverage: 0 };
  if (swappedRoles(a, b)) return { score: 0, reject: 'order', coverage: 0 };
  if (!useCoverage) return { score: Math.max(0, cosine), reject: null, coverage: 1 };
  const cov = Math.min(ab, ba);
  return { score: Math.sqrt(Math.max(0, cosine) * cov), reject: null, coverage: cov };
}

/** Word-pair cosines of the verify() call in progress, row = word of `a`, column = word of `b` (NaN = not computed yet). */
let pairCosines = new Float64Array(64 * 64);

/**
 * Weighted share of x's words with a counterpart in y; -1 on a contrast-class conflict. Word-pair
 * cosines go through `pairCosines` (x = b of verify() when `swapped`).
 */
function coverage(x: SentenceFeatures, y: SentenceFeatures, words: WordKnowledge, swapped: boolean): number {
  const n = x.keys.length;
  const m = y.keys.length;
  if (n === 0) return m === 0 ? 1 : 0;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    const key = x.keys[i]!;
    const cls = words.contrastClass(key);
    let best = 0;
    if (cls !== 0) {
      const group = words.contrastGroup(key);
      let conflict = false;
      for (let j = 0; j < m; j++) {
        const other = y.keys[j]!;
        if (other === key || (words.contrastClass(other) === cls && words.contrastGroup(other) === group)) {
          best = 1;
          break;
        }
        if (words.contrastClass(other) === cls) conflict = true;
      }
      if (best < 1 && conflict) return -1;
    } else {
      // Identical words first (an integer compare), word vectors only for the rest.
      for (let j = 0; j < m; j++) {
        if (y.keys[j] === key) {
          best = 1;
          break;
        }
      }
      const a = x.ids[i]!;
      if (best < 1 && a >= 0 && words.similarity !== undefined) {
        for (let j = 0; j < m; j++) {
          const b = y.ids[j]!;
          if (b < 0 || words.contrastClass(y.keys[j]!) !== 0) continue;
          const cell = swapped ? j * n + i : i * m + j;
          let s = pairCosines[cell]!;
          if (s !== s) s = pairCosines[cell] = words.similarity(a, b);
          if (s > best) best = s;
        }
      }
    }
    const w = x.weights[i]!;
    num += w * (best >= WORD_MATCH ? (best === 1 ? 1 : best ** SOFT_POWER) : 0);
    den += w;
  }
  return den === 0 ? 1 : num / den;
}

/** Other meaningful symbols ("O+" / "O-", "5%" / "5", "==" / "==="); entries stored without them never conflict. */
export function symbolConflict(a: SentenceFeatures, b: SentenceFeatures): boolean {
  return a.symbols !== undefined && b.symbols !== undefined && a.symbols !== b.symbols;
}

/** A word on one side only whose antonym is on the other side only. */
export function antonymConflict(a: SentenceFeatures, b: SentenceFeatures, words: WordKnowledge): boolean {
  for (let i = 0; i < a.keys.length; i++) {
    const ka = a.keys[i]!;
    const ia = a.ids[i]!;
    if (!(words.hasAntonym!(ka) || words.hasAntonym!(ia)) || b.keys.includes(ka)) continue;
    for (let j = 0; j < b.keys.length; j++) {
      const kb = b.keys[j]!;
      const ib = b.ids[j]!;
      if (!(words.hasAntonym!(kb) || words.hasAntonym!(ib)) || a.keys.includes(kb)) continue;
      if (words.antonyms!(ka, kb) || words.antonyms!(ia, ib) || words.antonyms!(ka, ib) || words.antonyms!(ia, kb)) return true;
    }
  }
  return false;
}

/**
 * A third shared content word counts as an anchor only when both sequences are at most this long
 * ("dog bites man"): longer sentences move clauses around freely ("X will face charges, Y said" vs
 * "Y said X will be charged"), and on the eval pairs such anchors rejected 16 real paraphrases
 * for 2 negatives (docs/api-05-semantic-cache.md).
 */
export const ORDER_SHORT = 4;
/** Longest sequence (content words + direction markers) the order rule looks at; longer texts skip it. */
export const ORDER_MAX = 32;
/** Codes of ORDER_MARKERS in `order` (below every word key: unknown-word hashes stay above -2^31 + 2^16). */
const MARKER_BASE = -2147483000;

/**
 * `Tokens.sequence` as integers: a content word's matching key, a marker ('>to') MARKER_BASE + a
 * small code. Empty when the sequence is longer than ORDER_MAX.
 */
export function orderCodes(sequence: readonly string[], key: (word: string) => number): Int32Array {
  if (sequence.length > ORDER_MAX) return new Int32Array(0);
  const out = new Int32Array(sequence.length);
  for (let i = 0; i < sequence.length; i++) {
    const w = sequence[i]!;
    out[i] = w.charCodeAt(0) === 62 /* > */ ? MARKER_BASE + markerCode(w) : key(w);
  }
  return out;
}

function markerCode(w: string): number {
  let h = 0;
  for (let i = 1; i < w.length; i++) h = (h * 31 + w.charCodeAt(i)) & 0xffff;
  return h;
}

const isMarker = (code: number): boolean => code < MARKER_BASE + 0x10000;

/** First position of `code` in `seq`, or -1. */
function firstIndex(seq: Int32Array, code: number): number {
  for (let i = 0; i < seq.length; i++) if (seq[i] === code) return i;
  return -1;
}

/** Two words of both sides in opposite order around a common anchor (see the module comment). */
export function swappedRoles(a: SentenceFeatures, b: SentenceFeatures): boolean {
  const sa = a.order;
  const sb = b.order;
  if (sa === undefined || sb === undefined || sa.length < 3 || sb.length < 3) return false;
  const markersOnly = (a.passive ?? false) !== (b.passive ?? false) || sa.length > ORDER_SHORT || sb.length > ORDER_SHORT;
  for (let i = 0; i < sa.length; i++) {
    const x = sa[i]!;
    if (isMarker(x) || firstIndex(sa, x) !== i) continue;
    const xb = firstIndex(sb, x);
    if (xb < 0) continue;
    for (let j = i + 2; j < sa.length; j++) {
      const y = sa[j]!;
      if (isMarker(y) || y === x || firstIndex(sa, y) !== j) continue;
      const yb = firstIndex(sb, y);
      // Swapped: x before y on a's side, y before x on b's, with room for an anchor on both.
      if (yb < 0 || yb >= xb - 1) continue;
      for (let k = i + 1; k < j; k++) {
        const m = sa[k]!;
        if (m === x || m === y || (markersOnly && !isMarker(m))) continue;
        for (let t = yb + 1; t < xb; t++) if (sb[t] === m) return true;
      }
    }
  }
  return false;
}
