/**
 * Exact search: one packed Float32Array, a dot product per live row. Removal moves the last row
 * into the hole, so nothing is ever left deleted. Faster than HNSW below a few thousand vectors
 * and the reference the HNSW index is measured against.
 *
 *   rows:   [ v(slot 0) | v(slot 1) | ... | v(size-1) | unused capacity ]   Float32Array, dims per slot
 *   labels: [ label(0)  | label(1)  | ... ]                                  Int32Array, slot -> label
 *   slotOf: Map label -> slot
 */
import { checkLabel, checkVector, type SearchHit, type VectorIndex } from './types.ts';

export class BruteForceIndex implements VectorIndex {
  readonly dims: number;
  private rows: Float32Array;
  private labels: Int32Array;
  private readonly slotOf = new Map<number, number>();
  private count = 0;

  constructor(dims: number, initialCapacity = 64) {
    if (!Number.isInteger(dims) || dims < 1) throw new RangeError('dims must be a positive integer');
    this.dims = dims;
    const cap = Math.max(1, initialCapacity);
    this.rows = new Float32Array(cap * dims);
    this.labels = new Int32Array(cap);
  }

  get size(): number {
    return this.count;
  }

  get deleted(): number {
    return 0;
  }

  add(label: number, vector: Float32Array): void {
    checkLabel(label);
    checkVector(vector, this.dims);
    if (this.slotOf.has(label)) throw new RangeError(`label ${label} is already in the index`);
    if (this.count === this.labels.length) this.grow();
    this.rows.set(vector, this.count * this.dims);
    this.labels[this.count] = label;
    this.slotOf.set(label, this.count);
    this.count++;
  }

  remove(label: number): boolean {
    const slot = this.slotOf.get(label);
    if (slot === undefined) return false;
    this.slotOf.delete(label);
    const last = --this.count;
    if (slot !== last) {
      this.rows.copyWithin(slot * this.dims, last * this.dims, (last + 1) * this.dims);
      const moved = this.labels[last]!;
      this.labels[slot] = moved;
      this.slotOf.set(moved, slot);
    }
    return true;
  }

  has(label: number): boolean {
    return this.slotOf.has(label);
  }

  search(vector: Float32Array, k: number): SearchHit[] {
    checkVector(vector, this.dims);
    const want = Math.min(Math.max(0, Math.floor(k)), this.count);
    if (want === 0) return [];
    // Top-k kept sorted descending in two small arrays (k is small: insertion beats a heap).
    const topScore = new Float64Array(want).fill(-Infinity);
    const topSlot = new Int32Array(want).fill(-1);
    const { rows, dims } = this;
    for (let s = 0; s < this.count; s++) {
      const o = s * dims;
      let dot = 0;
      for (let d = 0; d < dims; d++) dot += rows[o + d]! * vector[d]!;
      if (dot <= topScore[want - 1]!) continue;
      let i = want - 1;
      while (i > 0 && topScore[i - 1]! < dot) {
        topScore[i] = topScore[i - 1]!;
        topSlot[i] = topSlot[i - 1]!;
        i--;
      }
      topScore[i] = dot;
      topSlot[i] = s;
    }
    const out: SearchHit[] = [];
    for (let i = 0; i < want; i++) out.push({ label: this.labels[topSlot[i]!]!, score: topScore[i]! });
    return out;
  }

  needsRebuild(): boolean {
    return this.labels.length > 1024 && this.count < this.labels.length / 4;
  }

  /** Shrinks the buffers to the live rows (removal never leaves holes). */
  rebuild(): void {
    const cap = Math.max(64, this.count * 2);
    const rows = new Float32Array(cap * this.dims);
    rows.set(this.rows.subarray(0, this.count * this.dims));
    const labels = new Int32Array(cap);
    labels.set(this.labels.subarray(0, this.count));
    this.rows = rows;
    this.labels = labels;
  }

  bytes(): number {
    return this.rows.byteLength + this.labels.byteLength + this.slotOf.size * 40;
  }

  private grow(): void {
    const rows = new Float32Array(this.rows.length * 2);
    rows.set(this.rows);
    const labels = new Int32Array(this.labels.length * 2);
    labels.set(this.labels);
    this.rows = rows;
    this.labels = labels;
  }
}
