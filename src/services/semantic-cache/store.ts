/**
 * Where cache entries live. `CacheStore` is the seam for a networked implementation (Redis: one
 * hash per entry, a sorted set per tenant for LRU, key TTLs); `MemoryCacheStore` is the in-process
 * one. The core (core.ts) embeds and verifies; the store owns isolation, TTL, LRU and capacity.
 *
 *   MemoryCacheStore
 *   tenants: Map<tenantId, Tenant>
 *     Tenant ── count ≤ maxEntries
 *       │  LRU list (most recent at head): head ⇄ entry ⇄ entry ⇄ … ⇄ tail (evicted first)
 *       └─ partitions: Map<namespace, Partition>
 *            Partition ── index: VectorIndex (HNSW; label -> vector)
 *                      ├─ byLabel: Map<label, Entry>
 *                      └─ byFingerprint: Map<hash of the token sequence, Entry>   (exact repeats)
 *   expiry: min-heap of (expiresAt, Entry)   popped by maintain(); dead entries skipped lazily,
 *           compacted when stale ones outnumber live ones (memory stays bounded)
 *
 * A lookup only ever reaches one Partition, found by (tenant, namespace): no code path searches
 * across tenants. Expired entries are filtered at read time, so TTLs are exact even between sweeps.
 */
import { MinHeap } from '../../util/min-heap.ts';
import type { SentenceFeatures } from '../../embeddings/glove.ts';
import { createVectorIndex, type IndexKind, type VectorIndex } from '../../vector-index/index.ts';

export interface Scope {
  readonly tenant: string;
  readonly namespace: string;
}

export interface NewEntry {
  readonly vector: Float32Array;
  readonly features: SentenceFeatures;
  readonly fingerprint: string;
  readonly response: string;
  readonly ttlMs: number;
}

export interface Candidate {
  readonly id: string;
  /** Sentence-vector cosine from the index (1 for an exact repeat). */
  readonly cosine: number;
  readonly features: SentenceFeatures;
  readonly exact: boolean;
}

export interface StoreStats {
  readonly tenants: number;
  readonly partitions: number;
  readonly entries: number;
  readonly indexBytes: number;
}

export interface CacheStore {
  /**
   * Live entries of one (tenant, namespace) nearest to `vector`, best first; an exact repeat comes
   * first. Without their responses: only the winner's is fetched (claim), so a miss reads nothing more.
   *
   * Exact-repeat fast path: when the live entry with `fingerprint` is not in `skip`, it is the only
   * candidate (no index search): it scores 1 and no other entry can score more. `skip` holds the ids
   * the caller disregards (winners whose claim failed); with the exact entry among them the search
   * runs as without a fast path, and skipped ids may still be listed (the caller filters them).
   */
  candidates(scope: Scope, vector: Float32Array, fingerprint: string, k: number, now: number, skip?: ReadonlySet<string>): Candidate[] | Promise<Candidate[]>;
  /**
   * The response of entry `id` of `scope` when it is still live (not expired, evicted, replaced or
   * flushed, on any gateway), marking it as used (LRU); null otherwise.
   */
  claim(scope: Scope, id: string, now: number): string | null | Promise<string | null>;
  /** Stores an entry (or replaces `replaceId` of the same scope, keeping its id); evicts LRU entries past capacity. */
  put(scope: Scope, entry: NewEntry, now: number, replaceId?: string): string | Promise<string>;
  /** Deletes one namespace of one tenant; returns how many entries it held. */
  flush(scope: Scope): number | Promise<number>;
  /** Sweeps expired entries and rebuilds indexes whose deletions piled up (bounded work per call). */
  maintain(now: number): void | Promise<void>;
  stats(): StoreStats;
}

interface Entry {
  readonly id: string;
  readonly label: number;
  readonly partition: Partition;
  readonly tenant: Tenant;
  features: SentenceFeatures;
  fingerprint: string;
  response: string;
  expiresAt: number;
  lastUsed: number;
  alive: boolean;
  prev: Entry | null;
  next: Entry | null;
}

interface Partition {
  readonly namespace: string;
  readonly index: VectorIndex;
  readonly byLabel: Map<number, Entry>;
  readonly byFingerprint: Map<string, Entry>;
  nextLabel: number;
}

interface Tenant {
  readonly id: string;
  readonly partitions: Map<string, Partition>;
  count: number;
  head: Entry | null;
  tail: Entry | null;
}

export interface MemoryStoreOptions {
  readonly dims: number;
  /** Entries per tenant (CACHE_MAX_ENTRIES). */
  readonly maxEntries: number;
  readonly index?: IndexKind;
  /** Entry ids; default crypto.randomUUID. */
  readonly newId?: () => string;
  /** Most expired entries one maintain() call removes (spreads a mass expiry over ticks). */
  readonly sweepBatch?: number;
}

export class MemoryCacheStore implements CacheStore {
  private readonly dims: number;
  private readonly maxEntries: number;
  private readonly indexKind: IndexKind;
  private readonly newId: () => string;
  private readonly sweepBatch: number;
  private readonly tenants = new Map<string, Tenant>();
  private readonly byId = new Map<string, Entry>();
  private readonly heap = new MinHeap<Entry>((e) => e.expiresAt);

  constructor(options: MemoryStoreOptions) {
    if (!Number.isInteger(options.dims) || options.dims < 1) throw new RangeError('dims must be a positive integer');
    if (!Number.isInteger(options.maxEntries) || options.maxEntries < 1) throw new RangeError('maxEntries must be a positive integer');
    this.dims = options.dims;
    this.maxEntries = options.maxEntries;
    this.indexKind = options.index ?? 'hnsw';
    this.newId = options.newId ?? (() => crypto.randomUUID());
    this.sweepBatch = options.sweepBatch ?? 20_000;
  }

  candidates(scope: Scope, vector: Float32Array, fingerprint: string, k: number, now: number, skip?: ReadonlySet<string>): Candidate[] {
    const p = this.tenants.get(scope.tenant)?.partitions.get(scope.namespace);
    if (p === undefined) return [];
    const out: Candidate[] = [];
    const exact = p.byFingerprint.get(fingerprint);
    if (exact !== undefined && exact.expiresAt > now) {
      // Exact repeat: nothing can beat it, no search (see CacheStore.candidates).
      if (skip === undefined || !skip.has(exact.id)) return [toCandidate(exact, 1, true)];
      out.push(toCandidate(exact, 1, true));
    }
    // Ask for a few more than k: expired entries not swept yet are skipped here.
    for (const hit of p.index.search(vector, k + 2)) {
      const e = p.byLabel.get(hit.label);
      if (e === undefined || e === exact || e.expiresAt <= now) continue;
      out.push(toCandidate(e, hit.score, false));
      if (out.length >= k) break;
    }
    return out;
  }

  put(scope: Scope, entry: NewEntry, now: number, replaceId?: string): string {
    if (entry.vector.length !== this.dims) throw new RangeError(`vector must have ${this.dims} dimensions`);
    let id: string | undefined;
    const existing = this.tenants.get(scope.tenant);
    if (existing !== undefined) {
      // The replaced entry, and an older one with the same token sequence, go first (same id kept).
      const old = replaceId === undefined ? undefined : this.byId.get(replaceId);
      if (old !== undefined && old.tenant === existing && old.partition.namespace === scope.namespace) {
        id = old.id;
        this.remove(old);
      }
      const same = existing.partitions.get(scope.namespace)?.byFingerprint.get(entry.fingerprint);
      if (same !== undefined) {
        id ??= same.id;
        this.remove(same);
      }
      while (existing.count >= this.maxEntries && existing.tail !== null) this.remove(existing.tail);
    }
    // Removals may have dropped an emptied partition or tenant: look both up again.
    const tenant = this.tenant(scope.tenant);
    let p = tenant.partitions.get(scope.namespace);
    if (p === undefined) {
      p = { namespace: scope.namespace, index: createVectorIndex(this.indexKind, this.dims), byLabel: new Map(), byFingerprint: new Map(), nextLabel: 0 };
      tenant.partitions.set(scope.namespace, p);
    }
    const e: Entry = {
      id: id ?? this.newId(),
      label: p.nextLabel++,
      partition: p,
      tenant,
      features: entry.features,
      fingerprint: entry.fingerprint,
      response: entry.response,
      expiresAt: now + entry.ttlMs,
      lastUsed: now,
      alive: true,
      prev: null,
      next: null,
    };
    p.index.add(e.label, entry.vector);
    p.byLabel.set(e.label, e);
    p.byFingerprint.set(e.fingerprint, e);
    this.byId.set(e.id, e);
    tenant.count++;
    this.linkHead(tenant, e);
    this.heap.push(e);
    this.compactHeapIfStale();
    return e.id;
  }

  claim(scope: Scope, id: string, now: number): string | null {
    const e = this.byId.get(id);
    if (e === undefined || !e.alive || e.expiresAt <= now || e.tenant.id !== scope.tenant || e.partition.namespace !== scope.namespace) return null;
    e.lastUsed = now;
    this.unlink(e.tenant, e);
    this.linkHead(e.tenant, e);
    return e.response;
  }

  flush(scope: Scope): number {
    const tenant = this.tenants.get(scope.tenant);
    const p = tenant?.partitions.get(scope.namespace);
    if (tenant === undefined || p === undefined) return 0;
    const n = p.byLabel.size;
    for (const e of p.byLabel.values()) {
      e.alive = false;
      this.unlink(tenant, e);
      this.byId.delete(e.id);
      e.response = '';
    }
    tenant.count -= n;
    tenant.partitions.delete(scope.namespace);
    if (tenant.count === 0) this.tenants.delete(tenant.id);
    this.compactHeapIfStale();
    return n;
  }

  maintain(now: number): void {
    let removed = 0;
    while (this.heap.size > 0 && removed < this.sweepBatch) {
      const top = this.heap.peek()!;
      if (top.alive && top.expiresAt > now) break;
      this.heap.pop();
      if (top.alive) {
        this.remove(top);
        removed++;
      }
    }
    this.compactHeapIfStale();
    // One rebuild per call at most: it is the expensive step.
    for (const tenant of this.tenants.values()) {
      for (const p of tenant.partitions.values()) {
        if (p.index.needsRebuild()) {
          p.index.rebuild();
          return;
        }
      }
    }
  }

  stats(): StoreStats {
    let partitions = 0;
    let indexBytes = 0;
    for (const t of this.tenants.values()) {
      partitions += t.partitions.size;
      for (const p of t.partitions.values()) indexBytes += p.index.bytes();
    }
    return { tenants: this.tenants.size, partitions, entries: this.byId.size, indexBytes };
  }

  /** Entries of one tenant (tests and metrics). */
  tenantSize(tenant: string): number {
    return this.tenants.get(tenant)?.count ?? 0;
  }

  /** Pending heap slots (tests: proves the expiry heap stays bounded). */
  heapSize(): number {
    return this.heap.size;
  }

  private tenant(id: string): Tenant {
    let t = this.tenants.get(id);
    if (t === undefined) {
      t = { id, partitions: new Map(), count: 0, head: null, tail: null };
      this.tenants.set(id, t);
    }
    return t;
  }

  private remove(e: Entry): void {
    if (!e.alive) return;
    e.alive = false;
    const p = e.partition;
    p.index.remove(e.label);
    p.byLabel.delete(e.label);
    if (p.byFingerprint.get(e.fingerprint) === e) p.byFingerprint.delete(e.fingerprint);
    this.byId.delete(e.id);
    this.unlink(e.tenant, e);
    e.response = '';
    e.tenant.count--;
    if (p.byLabel.size === 0) e.tenant.partitions.delete(p.namespace);
    if (e.tenant.count === 0) this.tenants.delete(e.tenant.id);
  }

  private linkHead(t: Tenant, e: Entry): void {
    e.prev = null;
    e.next = t.head;
    if (t.head !== null) t.head.prev = e;
    t.head = e;
    if (t.tail === null) t.tail = e;
  }

  private unlink(t: Tenant, e: Entry): void {
    if (e.prev !== null) e.prev.next = e.next;
    else if (t.head === e) t.head = e.next;
    if (e.next !== null) e.next.prev = e.prev;
    else if (t.tail === e) t.tail = e.prev;
    e.prev = null;
    e.next = null;
  }

  /** Dead entries (evicted, replaced, flushed) stay in the heap until they surface; bound them. */
  private compactHeapIfStale(): void {
    if (this.heap.size <= 1024 || this.heap.size <= 2 * this.byId.size) return;
    this.heap.rebuild(this.heap.items().filter((e) => e.alive));
  }
}

function toCandidate(e: Entry, cosine: number, exact: boolean): Candidate {
  return { id: e.id, cosine, features: e.features, exact };
}
