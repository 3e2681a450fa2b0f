/**
 * One interface for the cache's nearest-neighbour search; `test/cache-vector-index.test.ts` runs
 * the same cases against both implementations (HNSW via hnswlib-node, and exact brute force).
 *
 * Vectors are unit length (the embedders guarantee it) and the score is their cosine.
 * Labels are small non-negative integers chosen by the caller, unique within one index.
 */
export interface SearchHit {
  readonly label: number;
  /** Cosine similarity, -1..1. */
  readonly score: number;
}

export interface VectorIndex {
  readonly dims: number;
  /** Live (searchable) vectors. */
  readonly size: number;
  /** Removed vectors still occupying memory (HNSW markDelete); 0 for brute force. */
  readonly deleted: number;
  /** Adds a vector under a new label. Throws RangeError on a wrong length or a label in use. */
  add(label: number, vector: Float32Array): void;
  /** Removes a label; false when it was not there. */
  remove(label: number): boolean;
  has(label: number): boolean;
  /** Up to k live vectors, best first. */
  search(vector: Float32Array, k: number): SearchHit[];
  /** True when removed vectors have piled up enough that `rebuild` pays for itself. */
  needsRebuild(): boolean;
  /** Rebuilds the structure from the live vectors only (drops markDeleted slots). */
  rebuild(): void;
  /** Approximate bytes held by the structure. */
  bytes(): number;
}

export type IndexKind = 'hnsw' | 'brute';

export function checkVector(vector: Float32Array, dims: number): void {
  if (!(vector instanceof Float32Array) || vector.length !== dims) {
    throw new RangeError(`vector must be a Float32Array of length ${dims}`);
  }
}

export function checkLabel(label: number): void {
  if (!Number.isInteger(label) || label < 0 || label > 0x7fffffff) throw new RangeError('label must be an integer from 0 to 2^31-1');
}
