/**
 * Sentence vectors from GloVe word vectors, SIF-style (Arora et al., ICLR 2017, "A simple but
 * tough-to-beat baseline for sentence embeddings"): each content word weighs a / (a + p(w)), with
 * p(w) the word's corpus probability estimated from its frequency rank (Zipf's law: the binary
 * keeps rows in frequency order), then the common component (the first principal direction of
 * frequent words, computed once at load) is projected out.
 *
 * The same object answers word-to-word similarity for the verification stage (int8 rows: a dot
 * product of two rows times their scales is their cosine).
 */
import { isNumberRow, type WordVectors } from './glove-binary.ts';
import { fold, tokenize, type Tokens } from './tokenizer.ts';
import { orderCodes, type WordKnowledge } from './verify.ts';
import type { Lexicon } from './wordnet.ts';

/** SIF smoothing constant; 1e-3 is the paper's recommended range (1e-4..1e-3). */
export const SIF_A = 1e-3;
/** Coverage weights use a smaller constant than SIF: rare words (names, objects) dominate. */
export const COVERAGE_A = 3e-4;

/**
 * Contrast classes: words whose vectors sit next to each other although swapping one for another
 * changes the answer. Each class lists its groups separated by "|"; words of one group are
 * interchangeable (rose = gained), words of two groups of the same class conflict (rose vs fell).
 * Numbers form one more class in which every number is its own group.
 */
export const CONTRAST_CLASSES: readonly string[] = [
  'monday|tuesday|wednesday|thursday|friday|saturday|sunday',
  'january|february|march|april|may|june|july|august|september|october|november|december',
  'up rise rises rising rose risen gain gains gained increase increases increased higher climb climbed jump jumped surge surged soar soared advance advanced ' +
    '|down fall falls falling fell fallen drop drops dropped decline declines declined decrease decreases decreased lower slip slipped slide slid plunge plunged tumble tumbled',
  'buy buys buying bought purchase purchased|sell sells selling sold',
  'win wins winning won victory|lose loses losing defeat defeated',
  'north northern|south southern|east eastern|west western',
  'enable enabled activate activated|disable disabled deactivate deactivated',
  'install installed installing|uninstall uninstalled uninstalling',
  'import imported importing|export exported exporting',
  'upload uploaded uploading|download downloaded downloading',
  'encrypt encrypted encryption|decrypt decrypted decryption',
  'accept accepted|reject rejected',
  'allow allowed|deny denied block blocked',
  'true|false',
  'min minimum|max maximum',
  'input inputs|output outputs',
  'male|female',
  // Platforms and products: an answer for one is wrong for the other (vectors put them side by side).
  'windows|mac macos osx macbook imac|linux ubuntu debian fedora|android|ios iphone ipad',
  'chrome|firefox|safari|explorer',
  'python|java|javascript|php|ruby|perl|swift|kotlin|golang|rust|scala|cplusplus|csharp|fsharp|dotnet',
  'playstation ps4|xbox|nintendo wii',
  'google|microsoft|apple|amazon|facebook|samsung|sony|intel|nvidia|ibm|oracle',
  // Currencies and units.
  'dollar dollars usd|euro euros eur|pound pounds gbp sterling|yen jpy|yuan rmb renminbi|rupee rupees inr|bitcoin bitcoins btc',
  'second seconds|minute minutes|hour hours|day days|week weeks|month months|year years|decade decades|century centuries',
  'mm millimeter millimeters millimetre millimetres|cm centimeter centimeters centimetre centimetres|km kilometer kilometers kilometre kilometres|mile miles|meter meters metre metres|foot feet|inch inches|yard yards',
  'mg milligram milligrams|gram grams|kg kilogram kilograms kilo kilos|lb lbs|ounce ounces|ton tons tonne tonnes',
  'celsius|fahrenheit|kelvin',
  'kb kilobyte kilobytes|mb megabyte megabytes|gb gigabyte gigabytes|tb terabyte terabytes',
];

/** What each entry of CONTRAST_CLASSES is about (pair features count conflicts per kind). */
export type ContrastKind = 'date' | 'direction' | 'platform' | 'unit' | 'other';
export const CONTRAST_KINDS: readonly ContrastKind[] = [
  'date', 'date', 'direction', 'direction', 'direction', 'direction', 'other', 'other', 'other', 'other', 'other', 'other', 'other', 'other', 'other', 'other', 'other',
  'platform', 'platform', 'platform', 'platform', 'platform',
  'unit', 'unit', 'unit', 'unit', 'unit', 'unit',
];


const NUMBER_WORDS: readonly string[] = ['zero', '', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];

/**
 * Coverage weight factor of an attribution word (tokenizer: near a reporting word such as "said",
 * "told", "according"): news paraphrases add, drop or rename the source freely ("…, the company
 * said in a statement"), so such words count half. Measured: average precision +0.5 to +1 point
 * on both halves of the dev set (docs/api-05-semantic-cache.md).
 */
export const ATTRIBUTION_WEIGHT = 0.5;

/** Distinct content words kept per sentence for verification (the heaviest ones). */
export const MAX_FEATURE_WORDS = 64;

/** Words above this frequency rank still count as content words but weigh like frequent ones. */
const COMMON_COMPONENT_WORDS = 20_000;

/** What the verification stage keeps of a sentence: word ids, never the text. */
export interface SentenceFeatures {
  /** Content words: vocabulary row of the word as written (>= 0), or -1 when unknown. */
  readonly ids: Int32Array;
  /** Matching key of each content word: folded form's row, or a negative hash for unknown words. */
  readonly keys: Int32Array;
  /** Coverage weight of each content word (same order as ids). */
  readonly weights: Float32Array;
  readonly negated: boolean;
  /** Kind of the leading question word of a question (QUESTION_KIND; 0 for statements). */
  readonly questions: number;
  /**
   * Content-word keys and order markers in text order (verify.ts orderCodes), for the order rule;
   * empty when the text is too long for it; absent in features stored before the rule existed.
   */
  readonly order?: Int32Array;
  /** The text has "by" (a passive may swap agent and object around the verb). */
  readonly passive?: boolean;
  /** Per content word (same order as ids): 1 when it is written as a name (tokenizer `proper`); absent in older entries. */
  readonly proper?: Uint8Array;
  /** Every word, stop words included, as sorted distinct hashes (wordHashes); absent in older entries. */
  readonly words?: Int32Array;
  /** Tokens.persons and Tokens.clauses; absent in older entries. */
  readonly persons?: number;
  readonly clauses?: number;
  /** symbolHash of Tokens.symbols (0: no symbols); absent in older entries. */
  readonly symbols?: number;
}

/** 32-bit FNV-1a of a symbol signature (tokenizer symbolSignature); 0 for none. */
export function symbolHash(signature: string): number {
  if (signature === '') return 0;
  let h = 0x811c9dc5;
  for (let k = 0; k < signature.length; k++) h = Math.imul(h ^ signature.charCodeAt(k), 0x01000193);
  return h === 0 ? 1 : h;
}

/** Most words kept in SentenceFeatures.words (long texts: the first ones). */
export const MAX_ALL_WORDS = 96;

/** Sorted distinct 32-bit hashes (FNV-1a) of the first MAX_ALL_WORDS tokens. */
export function wordHashes(all: readonly string[]): Int32Array {
  const n = Math.min(all.length, MAX_ALL_WORDS);
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const w = all[i]!;
    let h = 0x811c9dc5;
    for (let k = 0; k < w.length; k++) h = Math.imul(h ^ w.charCodeAt(k), 0x01000193);
    out[i] = h;
  }
  out.sort();
  let m = 0;
  for (let i = 0; i < n; i++) if (i === 0 || out[i] !== out[i - 1]) out[m++] = out[i]!;
  return out.slice(0, m);
}

export interface Embedded {
  /** Unit-length sentence vector (all zeros when no word is known). */
  readonly vector: Float32Array;
  readonly features: SentenceFeatures;
}

/** Question kinds: how/what/which often ask the same thing ("how do I" = "what is the way to"); the rest do not. */
export const QUESTION_KIND: Readonly<Record<string, number>> = {
  how: 1, what: 1, which: 1, when: 2, where: 3, why: 4, who: 5, whom: 5, whose: 5,
  'how many': 6, 'how long': 7, 'how old': 8, 'how far': 9,
};

const NUMERIC = /^[\d.,]*\d[\d.,]*$/;

/** Key of an unknown word: negative; even for numbers (contrast class "number"), odd otherwise. */
function hashWord(w: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 0x01000193);
  return -((h >>> 3) * 2 + (NUMERIC.test(w) ? 2 : 1));
}

export class GloveEmbedder implements WordKnowledge {
  readonly dims: number;
  /** Contrast class of a key (0 = none, 1 = number, 2.. = CONTRAST_CLASSES) and its group within the class. */
  private readonly contrastClassOf: Uint8Array;
  private readonly contrastGroupOf: Int32Array;
  private readonly vectors: WordVectors;
  private readonly logZipf: number;
  private readonly common: Float32Array;
  private readonly row: Float32Array;
  /** similarityAtLeast: the dimensions after which it checks its bound, and per check and row the norm of the rest of the int8 row. */
  private readonly tailStop: Int32Array;
  private readonly tailNorms: Float32Array;
  /** WordKnowledge from WordNet (wordnet.ts); absent when no table is loaded, which turns those rules off. */
  readonly hasAntonym?: (word: number) => boolean;
  readonly antonyms?: (a: number, b: number) => boolean;
  readonly lexicon: Lexicon | null;

  constructor(vectors: WordVectors, lexicon: Lexicon | null = null) {
    this.vectors = vectors;
    this.tailStop = Int32Array.from(TAIL_STOPS, (f) => Math.floor(f * vectors.dims));
    this.tailNorms = tailNorms(vectors, this.tailStop);
    this.lexicon = lexicon;
    if (lexicon !== null) {
      this.hasAntonym = lexicon.hasAntonym;
      this.antonyms = lexicon.antonyms;
    }
    this.dims = vectors.dims;
    // Zipf: p(rank r) ~ 1 / ((r + 1) * H), H = harmonic number of the vocabulary ~ ln(V) + 0.577
    this.logZipf = Math.log(vectors.size) + 0.5772;
    this.row = new Float32Array(vectors.dims);
    this.common = this.commonComponent();
    this.contrastClassOf = new Uint8Array(vectors.size);
    this.contrastGroupOf = new Int32Array(vectors.size);
    for (let r = 0; r < vectors.size; r++) {
      if (isNumberRow(vectors, r)) {
        this.contrastClassOf[r] = 1;
        this.contrastGroupOf[r] = r;
      }
    }
    // Spelled numbers join the digits' groups: "three" = "3", "three" conflicts with "two".
    NUMBER_WORDS.forEach((w, n) => {
      const r = vectors.index.get(w);
      if (r === undefined || w === '') return;
      this.contrastClassOf[r] = 1;
      this.contrastGroupOf[r] = this.key(String(n));
    });
    CONTRAST_CLASSES.forEach((cls, c) => {
      cls.split('|').forEach((group, g) => {
        for (const w of group.trim().split(/\s+/)) {
          for (const r of [vectors.index.get(w), this.key(w)]) {
            if (r === undefined || r < 0) continue;
            this.contrastClassOf[r] = c + 2;
            this.contrastGroupOf[r] = g;
          }
        }
      });
    });
  }

  /** WordKnowledge: coverage weight of a content word (unknown words weigh like the rarest). */
  coverageWeight(row: number): number {
    const p = this.probability(row < 0 ? this.vectors.size : row);
    return COVERAGE_A / (COVERAGE_A + p);
  }

  /** WordKnowledge: contrast class of a key (0 none, 1 number, 2.. a CONTRAST_CLASSES entry); only identical keys match such words. */
  contrastClass(key: number): number {
    if (key < 0) return -key % 2 === 0 ? 1 : 0;
    return this.contrastClassOf[key]!;
  }

  /** WordKnowledge: group of a key within its contrast class. */
  contrastGroup(key: number): number {
    if (key < 0) return key;
    return this.contrastGroupOf[key]!;
  }

  /** WordKnowledge: cosine of two vocabulary rows. */
  similarity(a: number, b: number): number {
    return this.wordSimilarity(a, b);
  }

  /** Corpus probability estimate of the word at frequency rank `row`. */
  probability(row: number): number {
    return 1 / ((row + 1) * this.logZipf);
  }

  /** SIF weight of a vocabulary row; unknown words weigh like the rarest known word. */
  weight(row: number): number {
    const p = row < 0 ? this.probability(this.vectors.size) : this.probability(row);
    return SIF_A / (SIF_A + p);
  }

  /** Vocabulary row of a word, trying its folded form when the word itself is unknown. */
  lookup(word: string): number {
    const idx = this.vectors.index;
    const r = idx.get(word);
    if (r !== undefined) return r;
    const f = fold(word, (w) => idx.has(w));
    return idx.get(f) ?? -1;
  }

  /** Matching key of a word: folded row (plural/verb forms share it) or a hash for unknown words. */
  key(word: string): number {
    const idx = this.vectors.index;
    const f = fold(word, (w) => idx.has(w));
    const r = idx.get(f);
    return r ?? hashWord(f);
  }

  /**
   * WordKnowledge: wordSimilarity(a, b) when it is at least `min`, else -1 or the cosine. The int8
   * dot product runs in stretches (TAIL_STOPS); after each one, Cauchy-Schwarz on the rest of both rows (norms
   * kept per row at load) bounds what the sum can still reach: the integer dot product is exact,
   * and the bound goes through the same multiplications by the scales (monotone), so a stop never
   * drops a cosine that would have reached `min`.
   */
  similarityAtLeast(a: number, b: number, min: number): number {
    if (a === b) return 1;
    if (a < 0 || b < 0) return 0;
    const { matrix, scales, dims } = this.vectors;
    const sa = scales[a]!;
    const sb = scales[b]!;
    const tails = this.tailNorms;
    const oa = a * dims;
    const ob = b * dims;
    let dot = 0;
    let d = 0;
    for (let q = 0; q < this.tailStop.length; q++) {
      const end = this.tailStop[q]!;
      // Four products per step (integers: any order gives the same sum).
      for (; d + 3 < end; d += 4) {
        dot += matrix[oa + d]! * matrix[ob + d]! + matrix[oa + d + 1]! * matrix[ob + d + 1]! + matrix[oa + d + 2]! * matrix[ob + d + 2]! + matrix[oa + d + 3]! * matrix[ob + d + 3]!;
      }
      for (; d < end; d++) dot += matrix[oa + d]! * matrix[ob + d]!;
      const t = q * this.vectors.size;
      // +1: the integer rest is at most floor(|a_rest| |b_rest|); the float product may round under it.
      if ((dot + Math.floor(tails[t + a]! * tails[t + b]!) + 1) * sa * sb < min) return -1;
    }
    for (; d + 3 < dims; d += 4) {
      dot += matrix[oa + d]! * matrix[ob + d]! + matrix[oa + d + 1]! * matrix[ob + d + 1]! + matrix[oa + d + 2]! * matrix[ob + d + 2]! + matrix[oa + d + 3]! * matrix[ob + d + 3]!;
    }
    for (; d < dims; d++) dot += matrix[oa + d]! * matrix[ob + d]!;
    return dot * sa * sb;
  }

  /** Cosine of two vocabulary rows (1 for the same row, 0 when either is unknown). */
  wordSimilarity(a: number, b: number): number {
    if (a === b) return 1;
    if (a < 0 || b < 0) return 0;
    const { matrix, scales, dims } = this.vectors;
    const oa = a * dims;
    const ob = b * dims;
    let dot = 0;
    for (let d = 0; d < dims; d++) dot += matrix[oa + d]! * matrix[ob + d]!;
    return dot * scales[a]! * scales[b]!;
  }

  /** Embeds a text: SIF-weighted average of its content words, common component removed, unit length. */
  embed(text: string): Embedded {
    return this.embedTokens(tokenize(text));
  }

  embedTokens(tokens: Tokens): Embedded {
    const { matrix, scales } = this.vectors;
    const dims = this.dims;
    const vector = new Float32Array(dims);
    // Every content word feeds the vector; the verification features keep each distinct word
    // once, and at most MAX_FEATURE_WORDS of the heaviest (bounds verification time and memory).
    const seen = new Map<number, number>();
    const rows: number[] = [];
    const attributed: boolean[] = [];
    const proper: boolean[] = [];
    // Long texts repeat words: resolve each distinct word once (row, weight, key).
    const resolved = new Map<string, { r: number; wt: number; k: number }>();
    for (let t = 0; t < tokens.content.length; t++) {
      const w = tokens.content[t]!;
      let info = resolved.get(w);
      if (info === undefined) {
        const r = this.lookup(w);
        info = { r, wt: this.weight(r), k: this.key(w) };
        resolved.set(w, info);
      }
      const { r, wt, k } = info;
      if (r >= 0) {
        const s = scales[r]! * wt;
        const o = r * dims;
        for (let d = 0; d < dims; d++) vector[d] += matrix[o + d]! * s;
      }
      if (!seen.has(k)) {
        seen.set(k, rows.length);
        rows.push(r);
        attributed.push(tokens.attributed[t] === true);
        proper.push(tokens.proper[t] === true);
      } else if (tokens.proper[t] === true) proper[seen.get(k)!] = true;
    }
    const weightOf = (slot: number): number => this.coverageWeight(rows[slot]!) * (attributed[slot] ? ATTRIBUTION_WEIGHT : 1);
    let order = [...seen.keys()];
    if (order.length > MAX_FEATURE_WORDS) {
      order = order
        .map((k, i) => ({ k, i, w: weightOf(seen.get(k)!) }))
        .sort((a, b) => b.w - a.w || a.i - b.i)
        .slice(0, MAX_FEATURE_WORDS)
        .sort((a, b) => a.i - b.i)
        .map((x) => x.k);
    }
    const n = order.length;
    const ids = new Int32Array(n);
    const keys = new Int32Array(n);
    const weights = new Float32Array(n);
    const names = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      keys[i] = order[i]!;
      const slot = seen.get(order[i]!)!;
      ids[i] = rows[slot]!;
      weights[i] = weightOf(slot);
      names[i] = proper[slot] ? 1 : 0;
    }
    removeAndNormalise(vector, this.common);
    const questions = tokens.question === null ? 0 : (QUESTION_KIND[tokens.question] ?? 0);
    const codes = orderCodes(tokens.sequence, (w) => resolved.get(w)?.k ?? this.key(w));
    return { vector, features: { ids, keys, weights, negated: tokens.negated, questions, order: codes, passive: tokens.passive, proper: names, words: wordHashes(tokens.all), persons: tokens.persons, clauses: tokens.clauses, symbols: symbolHash(tokens.symbols) } };
  }

  /** First principal direction of the frequency-weighted frequent-word vectors (power iteration). */
  private commonComponent(): Float32Array {
    const { matrix, scales, dims } = this.vectors;
    const n = Math.min(COMMON_COMPONENT_WORDS, this.vectors.size);
    let u = new Float32Array(dims).fill(1 / Math.sqrt(dims));
    const x = this.row;
    for (let iter = 0; iter < 10; iter++) {
      const next = new Float32Array(dims);
      for (let r = 0; r < n; r++) {
        const wt = this.weight(r);
        const o = r * dims;
        let dot = 0;
        for (let d = 0; d < dims; d++) {
          x[d] = matrix[o + d]! * scales[r]! * wt;
          dot += x[d]! * u[d]!;
        }
        for (let d = 0; d < dims; d++) next[d] += dot * x[d]!;
      }
      let norm = 0;
      for (let d = 0; d < dims; d++) norm += next[d]! * next[d]!;
      norm = Math.sqrt(norm) || 1;
      for (let d = 0; d < dims; d++) next[d]! /= norm;
      u = next;
    }
    return u;
  }
}

/**
 * Where GloveEmbedder.similarityAtLeast checks its bound, as fractions of the dimensions. On the
 * word pairs of verification most cosines are far below WORD_MATCH: about half of the dimensions
 * are summed on average instead of all (each check costs a float per row: 4 x 1.4 MB at 341k words).
 */
const TAIL_STOPS = [0.3, 0.45, 0.6, 0.8];

/** Per stop q and row r (index q * size + r): Euclidean norm of the int8 row r from dimension stops[q] on. */
function tailNorms(vectors: WordVectors, stops: Int32Array): Float32Array {
  const { matrix, dims, size } = vectors;
  const out = new Float32Array(stops.length * size);
  for (let r = 0; r < size; r++) {
    const o = r * dims;
    let sum = 0;
    let q = stops.length - 1;
    for (let d = dims - 1; d >= 0 && q >= 0; d--) {
      sum += matrix[o + d]! * matrix[o + d]!;
      if (d === stops[q]) {
        // Rounded up to float32: the bound must not shrink.
        const norm = Math.sqrt(sum);
        let f = Math.fround(norm);
        if (f < norm) f = Math.fround(norm * (1 + 2 ** -23));
        out[q * size + r] = f;
        q--;
      }
    }
  }
  return out;
}

/** v <- unit(v - (v.u) u); leaves an all-zero vector at zero. */
function removeAndNormalise(v: Float32Array, u: Float32Array): void {
  let dot = 0;
  for (let d = 0; d < v.length; d++) dot += v[d]! * u[d]!;
  let norm = 0;
  for (let d = 0; d < v.length; d++) {
    v[d] -= dot * u[d]!;
    norm += v[d]! * v[d]!;
  }
  if (norm === 0) return;
  const inv = 1 / Math.sqrt(norm);
  for (let d = 0; d < v.length; d++) v[d]! *= inv;
}

/** Cosine of two unit vectors (0 when either is all zeros). */
export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let d = 0; d < a.length; d++) s += a[d]! * b[d]!;
  return s;
}
