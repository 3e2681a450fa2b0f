/** Vector indexes for the semantic cache: pick one by kind. */
import { BruteForceIndex } from './brute-force.ts';
import { HnswIndex, type HnswOptions } from './hnsw.ts';
import type { IndexKind, VectorIndex } from './types.ts';

export { BruteForceIndex } from './brute-force.ts';
export { HnswIndex, HNSW_DEFAULTS, type HnswOptions } from './hnsw.ts';
export type { IndexKind, SearchHit, VectorIndex } from './types.ts';

export function createVectorIndex(kind: IndexKind, dims: number, hnsw?: HnswOptions): VectorIndex {
  return kind === 'hnsw' ? new HnswIndex(dims, hnsw) : new BruteForceIndex(dims);
}
