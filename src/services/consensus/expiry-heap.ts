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
export interface ExpiryEntry {
  readonly at: number;
  readonly resource: string;
  readonly token: number;
}

export class ExpiryHeap {
  #items: ExpiryEntry[] = [];

  get size(): number {
    return this.#items.length;
  }

  peek(): ExpiryEntry | undefined {
    return this.#items[0];
  }

  push(entry: ExpiryEntry): void {
    const items = this.#items;
    items.push(entry);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (items[parent]!.at <= entry.at) break;
      items[i] = items[parent]!;
      i = parent;
    }
    items[i] = entry;
  }

  pop(): ExpiryEntry | undefined {
    const items = this.#items;
    const top = items[0];
    const last = items.pop();
    if (top === undefined || last === undefined || items.length === 0) return top;
    let i = 0;
    const n = items.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const child = r < n && items[r]!.at < items[l]!.at ? r : l;
      if (items[child]!.at >= last.at) break;
      items[i] = items[child]!;
      i = child;
    }
    items[i] = last;
    return top;
  }

  /** True when stale entries outnumber live leases enough to rebuild. */
  needsCompaction(live: number): boolean {
    return this.#items.length > 2 * live + 64;
  }

  /** Rebuilds the heap from the live leases only. */
  compact(live: Iterable<ExpiryEntry>): void {
    this.#items = [];
    for (const e of live) this.push(e);
  }
}
