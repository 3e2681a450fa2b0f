/**
 * A binary min-heap ordered by a numeric key, used for expiry sweeps (leases, cache entries):
 * push and pop are O(log n), so a sweep never scans every record.
 *
 *   items: T[] laid out as a binary tree, items[0] the smallest key;
 *   the children of i are 2i+1 and 2i+2.
 *
 * Callers that update records in place push a new entry and drop the stale one when it surfaces;
 * `rebuild(live)` bounds the memory when stale entries pile up.
 */
export class MinHeap<T> {
  #items: T[] = [];
  readonly #key: (item: T) => number;

  constructor(key: (item: T) => number) {
    this.#key = key;
  }

  get size(): number {
    return this.#items.length;
  }

  peek(): T | undefined {
    return this.#items[0];
  }

  push(item: T): void {
    const items = this.#items;
    const k = this.#key(item);
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.#key(items[parent]!) <= k) break;
      items[i] = items[parent]!;
      i = parent;
    }
    items[i] = item;
  }

  pop(): T | undefined {
    const items = this.#items;
    const top = items[0];
    const last = items.pop();
    if (top === undefined || last === undefined || items.length === 0) return top;
    const k = this.#key(last);
    const n = items.length;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const child = r < n && this.#key(items[r]!) < this.#key(items[l]!) ? r : l;
      if (this.#key(items[child]!) >= k) break;
      items[i] = items[child]!;
      i = child;
    }
    items[i] = last;
    return top;
  }

  /** Removes and returns the smallest item when its key is <= `limit`; undefined otherwise. */
  popIfAtMost(limit: number): T | undefined {
    const top = this.#items[0];
    return top !== undefined && this.#key(top) <= limit ? this.pop() : undefined;
  }

  /** Items in heap order (not sorted): for filtering before a rebuild. */
  items(): readonly T[] {
    return this.#items;
  }

  /** Replaces the content with `items`. */
  rebuild(items: Iterable<T>): void {
    this.#items = [];
    for (const item of items) this.push(item);
  }
}
