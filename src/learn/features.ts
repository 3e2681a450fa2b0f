/**
 * Hashed sparse features (the fastText / Vowpal Wabbit recipe): every feature key is hashed into
 * one of 2^bits buckets; a few named dense features sit in front at fixed slots.
 *
 *   index:  0 .. reserved-1        reserved + 0 .. reserved + 2^bits - 1
 *           named dense features   hashed keys (word n-grams, char n-grams, anything)
 *
 * A builder is reused across rows (begin, add..., end) so featurising a row allocates only the
 * result's two typed arrays. Deterministic: the same calls give the same vector.
 */

/** A sparse row: `index` sorted ascending and unique, `value` aligned with it. */
export interface SparseVector {
  readonly index: Uint32Array;
  readonly value: Float32Array;
}

/** How `end` normalises: nothing, the whole row to unit L2 length, or only the hashed part. */
export type Normalisation = 'none' | 'l2' | 'l2-hashed';

/**
 * MurmurHash3 (x86, 32-bit) over the UTF-16 code units of `s`, from `seed`. Stable across runs and
 * platforms, which is what makes shipped weights line up with run-time features.
 */
export function hashString(s: string, seed = 0): number {
  let h = seed >>> 0;
  const n = s.length;
  let i = 0;
  // Two code units make one 32-bit block.
  for (; i + 1 < n; i += 2) {
    let k = (s.charCodeAt(i) | (s.charCodeAt(i + 1) << 16)) >>> 0;
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  if (i < n) {
    let k = s.charCodeAt(i);
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h ^= k;
  }
  return fmix32(h ^ (n * 2));
}

/** MurmurHash3's 32-bit finaliser: every input bit reaches every output bit. */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export interface FeatureHasherOptions {
  /** log2 of the number of hash buckets (1–24). */
  readonly bits: number;
  /** Named dense slots in front of the hashed buckets (default 0). */
  readonly reserved?: number;
  /** Hash seed (default 0): part of the model's feature spec. */
  readonly seed?: number;
}

/** Builds one sparse row at a time. Not thread-safe; one per featuriser. */
export class FeatureHasher {
  readonly bits: number;
  readonly reserved: number;
  readonly seed: number;
  /** Length of a row: reserved + 2^bits. */
  readonly dim: number;
  readonly #mask: number;
  #idx: Uint32Array = new Uint32Array(256);
  #val: Float64Array = new Float64Array(256);
  #n = 0;

  constructor(options: FeatureHasherOptions) {
    const { bits, reserved = 0, seed = 0 } = options;
    if (!Number.isInteger(bits) || bits < 1 || bits > 24) throw new RangeError(`bits must be an integer from 1 to 24, got ${bits}`);
    if (!Number.isInteger(reserved) || reserved < 0 || reserved > 65536) throw new RangeError(`reserved must be an integer from 0 to 65536, got ${reserved}`);
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new RangeError(`seed must be a 32-bit unsigned integer, got ${seed}`);
    this.bits = bits;
    this.reserved = reserved;
    this.seed = seed;
    this.#mask = (1 << bits) - 1;
    this.dim = reserved + (1 << bits);
  }

  /** Starts a new row (drops anything added since the last `end`). */
  begin(): void {
    this.#n = 0;
  }

  /** Adds `weight` at a named dense slot (0 ≤ slot < reserved). */
  addIndex(slot: number, weight: number): void {
    if (!(slot >= 0 && slot < this.reserved)) throw new RangeError(`slot ${slot} is outside 0..${this.reserved - 1}`);
    this.#push(slot, weight);
  }

  /** Adds `weight` at the bucket of `key`. */
  add(key: string, weight = 1): void {
    this.#push(this.reserved + (hashString(key, this.seed) & this.#mask), weight);
  }

  /** Closes the row: sorts, merges equal indices, drops zeros, normalises. */
  end(normalisation: Normalisation = 'none'): SparseVector {
    const n = this.#n;
    const idx = this.#idx;
    const val = this.#val;
    // Insertion sort is quadratic; rows have hundreds to a few thousand entries, so sort an
    // index permutation with the engine's sort (stable, deterministic) instead.
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    order.sort((a, b) => idx[a]! - idx[b]! || a - b);
    const outIdx: number[] = [];
    const outVal: number[] = [];
    for (let j = 0; j < n; j++) {
      const i = order[j]!;
      const k = idx[i]!;
      if (outIdx.length > 0 && outIdx[outIdx.length - 1] === k) outVal[outVal.length - 1]! += val[i]!;
      else {
        outIdx.push(k);
        outVal.push(val[i]!);
      }
    }
    if (normalisation !== 'none') {
      const from = normalisation === 'l2' ? 0 : this.reserved;
      let sq = 0;
      for (let j = 0; j < outIdx.length; j++) if (outIdx[j]! >= from) sq += outVal[j]! * outVal[j]!;
      if (sq > 0) {
        const inv = 1 / Math.sqrt(sq);
        for (let j = 0; j < outIdx.length; j++) if (outIdx[j]! >= from) outVal[j]! *= inv;
      }
    }
    let m = 0;
    for (let j = 0; j < outIdx.length; j++) if (outVal[j] !== 0) m++;
    const index = new Uint32Array(m);
    const value = new Float32Array(m);
    for (let j = 0, o = 0; j < outIdx.length; j++) {
      if (outVal[j] === 0) continue;
      index[o] = outIdx[j]!;
      value[o++] = outVal[j]!;
    }
    this.#n = 0;
    return { index, value };
  }

  #push(i: number, w: number): void {
    if (w === 0 || !Number.isFinite(w)) return;
    if (this.#n === this.#idx.length) {
      const idx = new Uint32Array(this.#n * 2);
      idx.set(this.#idx);
      const val = new Float64Array(this.#n * 2);
      val.set(this.#val);
      this.#idx = idx;
      this.#val = val;
    }
    this.#idx[this.#n] = i;
    this.#val[this.#n++] = w;
  }
}

/**
 * Adds the word n-grams of `tokens` for n = 1..maxN, keys `${prefix}${n}:${a} ${b}…`.
 * Cost: O(tokens × maxN).
 */
export function addWordNgrams(h: FeatureHasher, tokens: readonly string[], maxN: number, weight = 1, prefix = 'w'): void {
  for (let i = 0; i < tokens.length; i++) {
    let key = `${prefix}1:${tokens[i]}`;
    h.add(key, weight);
    for (let n = 2; n <= maxN && i + n <= tokens.length; n++) {
      key = `${key} ${tokens[i + n - 1]}`;
      h.add(`${prefix}${n}${key.slice(key.indexOf(':'))}`, weight);
    }
  }
}

/**
 * Adds the character n-grams of `text` for n = minN..maxN (fastText's subword features; pad the
 * text with spaces first to mark word edges). Cost: O(length × (maxN − minN + 1)).
 */
export function addCharNgrams(h: FeatureHasher, text: string, minN: number, maxN: number, weight = 1, prefix = 'c'): void {
  if (minN < 1 || maxN < minN) throw new RangeError(`char n-gram range ${minN}..${maxN} is empty`);
  for (let n = minN; n <= maxN; n++) {
    const p = `${prefix}${n}:`;
    for (let i = 0; i + n <= text.length; i++) h.add(p + text.slice(i, i + n), weight);
  }
}
