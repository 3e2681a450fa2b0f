/**
 * Calibration: turn a model's raw score into a probability that users can read as one. Fit on data
 * held apart from training (a model's scores on its own training rows are over-confident).
 *
 * - Platt scaling: p = sigmoid(a·s + b), two numbers, smooth, fine with little data.
 * - Isotonic regression (pool adjacent violators): a monotone step function through the
 *   observed rates, linearly interpolated; needs more data, fits any monotone shape.
 */
import { sigmoid } from './linear.ts';

export type Calibration =
  | { readonly kind: 'identity' }
  | { readonly kind: 'platt'; readonly a: number; readonly b: number }
  | { readonly kind: 'isotonic'; readonly x: readonly number[]; readonly y: readonly number[] };

/** Applies a calibration to a raw score (a logit for Platt, any monotone score for isotonic). */
export function calibrate(cal: Calibration, score: number): number {
  switch (cal.kind) {
    case 'identity':
      return score;
    case 'platt':
      return sigmoid(cal.a * score + cal.b);
    case 'isotonic': {
      const { x, y } = cal;
      if (x.length === 0) return 0;
      if (score <= x[0]!) return y[0]!;
      if (score >= x[x.length - 1]!) return y[y.length - 1]!;
      let lo = 0;
      let hi = x.length - 1;
      while (hi - lo > 1) {
        const mid = (lo + hi) >> 1;
        if (x[mid]! <= score) lo = mid;
        else hi = mid;
      }
      const span = x[hi]! - x[lo]!;
      return span === 0 ? y[hi]! : y[lo]! + ((y[hi]! - y[lo]!) * (score - x[lo]!)) / span;
    }
  }
}

/**
 * Platt scaling by Newton's method on the log loss, with Platt's smoothed targets
 * ((n₊+1)/(n₊+2) and 1/(n₋+2)) so that separable data does not push a to infinity.
 */
export function fitPlatt(scores: ArrayLike<number>, labels: ArrayLike<number>): Calibration {
  const n = scores.length;
  if (labels.length !== n || n === 0) throw new RangeError('fitPlatt needs as many labels as scores, and at least one');
  let pos = 0;
  for (let i = 0; i < n; i++) pos += labels[i] === 1 ? 1 : 0;
  const hiT = (pos + 1) / (pos + 2);
  const loT = 1 / (n - pos + 2);
  let a = 1;
  let b = 0;
  for (let iter = 0; iter < 100; iter++) {
    let g0 = 0, g1 = 0, h00 = 1e-9, h01 = 0, h11 = 1e-9;
    for (let i = 0; i < n; i++) {
      const s = scores[i]!;
      const t = labels[i] === 1 ? hiT : loT;
      const p = sigmoid(a * s + b);
      const d = p - t;
      const v = p * (1 - p);
      g0 += d * s;
      g1 += d;
      h00 += v * s * s;
      h01 += v * s;
      h11 += v;
    }
    const det = h00 * h11 - h01 * h01;
    if (!(Math.abs(det) > 1e-12)) break;
    const da = (h11 * g0 - h01 * g1) / det;
    const db = (h00 * g1 - h01 * g0) / det;
    a -= da;
    b -= db;
    if (Math.abs(da) < 1e-10 && Math.abs(db) < 1e-10) break;
  }
  return { kind: 'platt', a, b };
}

/**
 * Isotonic regression by pool adjacent violators. The result keeps one knot per pooled block
 * (its mean score and its rate), so `calibrate` interpolates between block centres.
 */
export function fitIsotonic(scores: ArrayLike<number>, labels: ArrayLike<number>, weights?: ArrayLike<number>): Calibration {
  const n = scores.length;
  if (labels.length !== n || n === 0) throw new RangeError('fitIsotonic needs as many labels as scores, and at least one');
  const order = Array.from({ length: n }, (_, i) => i).sort((i, j) => scores[i]! - scores[j]! || i - j);
  const sumW: number[] = [];
  const sumY: number[] = [];
  const sumX: number[] = [];
  for (const i of order) {
    const w = weights === undefined ? 1 : weights[i]!;
    sumW.push(w);
    sumY.push(w * (labels[i] === 1 ? 1 : 0));
    sumX.push(w * scores[i]!);
    // Pool while the last block's rate is below the one before it.
    while (sumW.length > 1) {
      const k = sumW.length - 1;
      if (sumY[k - 1]! / sumW[k - 1]! <= sumY[k]! / sumW[k]!) break;
      sumW[k - 1]! += sumW[k]!;
      sumY[k - 1]! += sumY[k]!;
      sumX[k - 1]! += sumX[k]!;
      sumW.pop();
      sumY.pop();
      sumX.pop();
    }
  }
  const x = sumW.map((w, k) => sumX[k]! / w);
  const y = sumW.map((w, k) => sumY[k]! / w);
  return { kind: 'isotonic', x, y };
}

/** Average precision (area under the precision–recall curve, step-wise, ties broken by order). */
export function averagePrecision(scores: ArrayLike<number>, labels: ArrayLike<number>): number {
  const n = scores.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((i, j) => scores[j]! - scores[i]! || i - j);
  let positives = 0;
  for (let i = 0; i < n; i++) positives += labels[i] === 1 ? 1 : 0;
  if (positives === 0) return 0;
  let tp = 0;
  let sum = 0;
  for (let r = 0; r < n; r++) {
    if (labels[order[r]!] === 1) {
      tp++;
      sum += tp / (r + 1);
    }
  }
  return sum / positives;
}
