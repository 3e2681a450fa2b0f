/**
 * Logistic regression on sparse rows, trained by AdaGrad SGD with L2 regularisation. Everything
 * that decides the result is fixed: the seed of the shuffle, the order of rows, the float32
 * weights, so the same data and options give the same weights byte for byte on any machine.
 */
import type { SparseVector } from './features.ts';

/** Deterministic 32-bit PRNG (mulberry32); returns floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fisher–Yates shuffle driven by `rng`. */
export function shuffleInPlace<T>(items: T[] | Uint32Array, rng: () => number): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    const t = items[i]!;
    items[i] = items[j]!;
    items[j] = t;
  }
}

export function sigmoid(z: number): number {
  if (z >= 0) return 1 / (1 + Math.exp(-z));
  const e = Math.exp(z);
  return e / (1 + e);
}

/** A linear model: logit = bias + w·x. */
export class LinearModel {
  readonly weights: Float32Array;
  readonly bias: number;

  constructor(weights: Float32Array, bias: number) {
    if (!Number.isFinite(bias)) throw new TypeError('bias must be finite');
    this.weights = weights;
    this.bias = bias;
  }

  get dim(): number {
    return this.weights.length;
  }

  /** bias + w·x; indices past the model's length count as zero. */
  logit(x: SparseVector): number {
    const w = this.weights;
    const { index, value } = x;
    let z = this.bias;
    for (let j = 0; j < index.length; j++) {
      const k = index[j]!;
      if (k < w.length) z += w[k]! * value[j]!;
    }
    return z;
  }

  probability(x: SparseVector): number {
    return sigmoid(this.logit(x));
  }

  /** Per-entry contribution w_k·x_k, aligned with `x.index` (for explanations and spans). */
  contributions(x: SparseVector): Float64Array {
    const out = new Float64Array(x.index.length);
    for (let j = 0; j < x.index.length; j++) {
      const k = x.index[j]!;
      out[j] = k < this.weights.length ? this.weights[k]! * x.value[j]! : 0;
    }
    return out;
  }
}

export interface TrainData {
  readonly x: readonly SparseVector[];
  /** 0 or 1 per row. */
  readonly y: ArrayLike<number>;
  /** Optional weight per row (class balance, source balance); default 1. */
  readonly weight?: ArrayLike<number>;
}

export interface TrainOptions {
  /** Passes over the data (default 8). */
  readonly epochs?: number;
  /** L2 strength per row update (default 1e-6). */
  readonly l2?: number;
  /** AdaGrad base learning rate (default 0.2). */
  readonly learningRate?: number;
  /** Shuffle seed (default 1). */
  readonly seed?: number;
}

/**
 * Trains a logistic regression. Cost O(epochs × non-zeros). Example:
 *
 *   const model = trainLogistic({ x: rows, y: labels }, hasher.dim, { epochs: 6 });
 *   model.probability(row);
 */
export function trainLogistic(data: TrainData, dim: number, options: TrainOptions = {}): LinearModel {
  const { epochs = 8, l2 = 1e-6, learningRate = 0.2, seed = 1 } = options;
  const n = data.x.length;
  if (data.y.length !== n) throw new RangeError(`x has ${n} rows but y has ${data.y.length}`);
  if (data.weight !== undefined && data.weight.length !== n) throw new RangeError(`x has ${n} rows but weight has ${data.weight.length}`);
  if (!Number.isInteger(dim) || dim < 1) throw new RangeError(`dim must be a positive integer, got ${dim}`);
  if (!Number.isInteger(epochs) || epochs < 1) throw new RangeError(`epochs must be a positive integer, got ${epochs}`);
  if (!(l2 >= 0) || !(learningRate > 0)) throw new RangeError('l2 must be ≥ 0 and learningRate > 0');
  for (let i = 0; i < n; i++) {
    const y = data.y[i];
    if (y !== 0 && y !== 1) throw new RangeError(`y[${i}] must be 0 or 1, got ${y}`);
  }
  // Float64 while training (stable sums), float32 in the result: the shipped precision.
  const w = new Float64Array(dim);
  const g2 = new Float64Array(dim);
  let bias = 0;
  let biasG2 = 0;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const rng = mulberry32(seed);
  for (let epoch = 0; epoch < epochs; epoch++) {
    shuffleInPlace(order, rng);
    for (let o = 0; o < n; o++) {
      const i = order[o]!;
      const { index, value } = data.x[i]!;
      let z = bias;
      for (let j = 0; j < index.length; j++) z += w[index[j]!]! * value[j]!;
      const rw = data.weight === undefined ? 1 : data.weight[i]!;
      const g = (sigmoid(z) - data.y[i]!) * rw;
      for (let j = 0; j < index.length; j++) {
        const k = index[j]!;
        const gk = g * value[j]! + l2 * w[k]!;
        g2[k]! += gk * gk;
        w[k]! -= (learningRate * gk) / Math.sqrt(g2[k]! + 1e-8);
      }
      biasG2 += g * g;
      bias -= (learningRate * g) / Math.sqrt(biasG2 + 1e-8);
    }
  }
  return new LinearModel(Float32Array.from(w), Math.fround(bias));
}
