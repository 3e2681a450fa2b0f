/**
 * A binary min-heap of lease expiries, so the tenant's expired locks can be swept in O(log n) each
 * without scanning every resource.
 *
 *   push(at, resource, token)          one entry per lease grant or renewal
 *   peek().at <= now  -> pop() ...     the caller checks the entry against the live record:
 *                                      a renewed, released or re-granted lease left a stale entry,
 *                                      recognised by (token, at) no longer matching, and dropped
 *
 * Stale entries are dropped as they surface; `compact(live)` rebuilds from the live leases when
 * renewals piled up more than `2 x live + 64` entries, which keeps memory linear in the resources.
 */
import { MinHeap } from '../../util/min-heap.ts';

export interface ExpiryEntry {
  readonly at: number;
  readonly resource: string;
  readonly token: number;
}

export class ExpiryHeap extends MinHeap<ExpiryEntry> {
  constructor() {
    super((e) => e.at);
  }

  /** True when stale entries outnumber live leases enough to rebuild. */
  needsCompaction(live: number): boolean {
    return this.size > 2 * live + 64;
  }

  /** Rebuilds the heap from the live leases only. */
  compact(live: Iterable<ExpiryEntry>): void {
    this.rebuild(live);
  }
}
