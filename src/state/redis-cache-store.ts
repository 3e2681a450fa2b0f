/**
 * CacheStore on Redis (API-05 across gateways). Redis holds every entry (cache-scripts.ts); each
 * gateway keeps a local mirror with its own HNSW index, the entries' word features, their expiry
 * as Redis set it, and the responses it has seen, per (tenant, namespace). A lookup searches,
 * verifies and checks the winner's Redis expiry locally, so a miss and a hit on an entry this
 * gateway stored or served before cost no round trip (the use is recorded in Redis without
 * waiting); the first hit on an entry another gateway stored costs one: CLAIM, which checks it
 * in Redis and fetches its response.
 *
 *   put / flush ──Lua──> Redis entry hashes + <prefix>c:stream (put | del | flush)
 *                                  │ XREAD BLOCK (own connection)
 *   lookup ─> local mirror ────────┘  index.search ─> verify ─> winner: expiry, response held? ─> (else CLAIM)
 *
 * Consistency: a delete, replace, eviction or flush made through another gateway reaches this
 * mirror through the stream (milliseconds; the tests require under 100 ms); until then this
 * gateway may still serve the old entry. Expiry needs no message: it is checked against the
 * expiry Redis computed (Redis clock; gateways and Redis are assumed NTP-synchronised).
 *
 * The mirror catches up from a SCAN of the entries at start and after every reconnect (a Redis that
 * restarted empty, or a stream trimmed past our position, is then seen as it is), and from the
 * stream in between. A gateway's own put and flush are applied to its mirror at once; the echo
 * from the stream is idempotent.
 */
import { MinHeap } from '../util/min-heap.ts';
import { randomUUID } from 'node:crypto';
import type { SentenceFeatures } from '../embeddings/glove.ts';
import type { Candidate, CacheStore, NewEntry, Scope, StoreStats } from '../services/semantic-cache/store.ts';
import { createVectorIndex, type IndexKind, type VectorIndex } from '../vector-index/index.ts';
import { CACHE_CLAIM, CACHE_FLUSH, CACHE_PUT, CACHE_TOUCH } from './cache-scripts.ts';
import type { LuaScript, RedisConnection } from './redis-connection.ts';
import { stateUnavailable } from './unavailable.ts';

export interface RedisCacheStoreOptions {
  readonly dims: number;
  /** Entries per tenant (CACHE_MAX_ENTRIES). */
  readonly maxEntries: number;
  readonly index?: IndexKind;
  /** Stream length kept (approximate); default 100 000. */
  readonly streamMaxLen?: number;
}

interface LocalEntry {
  readonly id: string;
  readonly label: number;
  readonly features: SentenceFeatures;
  readonly fingerprint: string;
  /** Redis ms, from the put script. */
  readonly expiresAt: number;
  /** The response, once this gateway stored or claimed the entry; null until then. */
  response: string | null;
}

interface Partition {
  readonly index: VectorIndex;
  readonly byLabel: Map<number, LocalEntry>;
  readonly byId: Map<string, LocalEntry>;
  readonly byFingerprint: Map<string, LocalEntry>;
  nextLabel: number;
}

const BLOCK_MS = 500;
/** Most expired entries one maintain() call removes (spreads a mass expiry over ticks). */
const SWEEP_BATCH = 20_000;
const RETRY_MS = 100;
/** Mirror hits' uses are sent to Redis in one script per tenant at most this often. */
const TOUCH_MS = 20;

export class RedisCacheStore implements CacheStore {
  readonly #redis: RedisConnection;
  readonly #dims: number;
  readonly #maxEntries: number;
  readonly #indexKind: IndexKind;
  readonly #maxLen: number;
  readonly #stream: string;
  readonly #s: { put: LuaScript; flush: LuaScript; claim: LuaScript; touch: LuaScript };
  readonly #partitions = new Map<string, Partition>();
  /** Local expiries, soonest first: maintain() pops what is due instead of scanning every entry. */
  readonly #expiries = new MinHeap<Expiry>((e) => e.at);
  /** Uses of mirror hits not sent yet, per tenant base, in order (flushed every TOUCH_MS and before a put). */
  readonly #touches = new Map<string, string[]>();
  #touchTimer: NodeJS.Timeout | null = null;
  #reader: RedisConnection | null = null;
  #lastId = '0-0';
  #following: Promise<void> | null = null;
  #closed = false;

  private constructor(redis: RedisConnection, options: RedisCacheStoreOptions) {
    if (!Number.isInteger(options.dims) || options.dims < 1) throw new RangeError('dims must be a positive integer');
    if (!Number.isInteger(options.maxEntries) || options.maxEntries < 1) throw new RangeError('maxEntries must be a positive integer');
    this.#redis = redis;
    this.#dims = options.dims;
    this.#maxEntries = options.maxEntries;
    this.#indexKind = options.index ?? 'hnsw';
    this.#maxLen = options.streamMaxLen ?? 100_000;
    this.#stream = `${redis.keyPrefix}c:stream`;
    this.#s = { put: redis.script('cache-put', CACHE_PUT), flush: redis.script('cache-flush', CACHE_FLUSH), claim: redis.script('cache-claim', CACHE_CLAIM), touch: redis.script('cache-touch', CACHE_TOUCH) };
  }

  /** Opens the store: its own reading connection, the first catch-up, then following the stream. */
  static async open(redis: RedisConnection, options: RedisCacheStoreOptions): Promise<RedisCacheStore> {
    const store = new RedisCacheStore(redis, options);
    store.#reader = await redis.duplicate();
    await store.#resync();
    store.#following = store.#follow();
    return store;
  }

  /** Local only: the mirror's nearest live entries (Redis is asked by claim, for the winner). */
  candidates(scope: Scope, vector: Float32Array, fingerprint: string, k: number, now: number, skip?: ReadonlySet<string>): Candidate[] {
    const p = this.#partitions.get(partitionKey(scope));
    if (p === undefined) return [];
    const out: Candidate[] = [];
    const exact = p.byFingerprint.get(fingerprint);
    if (exact !== undefined && exact.expiresAt > now) {
      const c: Candidate = { id: exact.id, cosine: 1, features: exact.features, exact: true };
      // Exact repeat: nothing can beat it, no search; once its claim failed (skip) the search runs.
      if (skip === undefined || !skip.has(exact.id)) return [c];
      out.push(c);
    }
    for (const hit of p.index.search(vector, k + 2)) {
      const e = p.byLabel.get(hit.label);
      if (e === undefined || e === exact || e.expiresAt <= now) continue;
      out.push({ id: e.id, cosine: hit.score, features: e.features, exact: false });
      if (out.length >= k) break;
    }
    return out;
  }

  /**
   * The winner's response: from the mirror when it holds it (no round trip; the use is sent to
   * Redis without waiting), else fetched once by CLAIM, which also checks the entry in Redis.
   * Null when the entry expired (by its Redis expiry) or is gone.
   */
  claim(scope: Scope, id: string, now: number): string | null | Promise<string | null> {
    const key = partitionKey(scope);
    const p = this.#partitions.get(key);
    const e = p?.byId.get(id);
    if (p === undefined || e === undefined || e.expiresAt <= now) return null;
    const base = tenantBase(this.#redis.keyPrefix, scope.tenant);
    if (e.response !== null) {
      this.#touchLater(base, id);
      return e.response;
    }
    return this.#eval<string | null>(this.#s.claim, [this.#redis.keyPrefix, scope.tenant, scope.namespace, base, id]).then((response) => {
      if (response === null) {
        // Gone in Redis before the stream said so: drop it here too.
        if (p.byId.get(id) === e) this.#removeFrom(key, p, e);
      } else if (p.byId.get(id) === e) {
        e.response = response;
      }
      return response;
    });
  }

  async put(scope: Scope, entry: NewEntry, _now: number, replaceId?: string): Promise<string> {
    if (entry.vector.length !== this.#dims) throw new RangeError(`vector must have ${this.#dims} dimensions`);
    // Uses recorded before this put decide what it evicts: they go first on the same connection.
    this.#flushTouches();
    const vec = b64(entry.vector);
    const feat = encodeFeatures(entry.features);
    const [id, x, ...gone] = await this.#eval<string[]>(this.#s.put, [
      ...this.#head(scope.tenant),
      scope.namespace,
      randomUUID(),
      replaceId ?? '',
      entry.fingerprint,
      vec,
      feat,
      entry.response,
      Math.max(1, Math.round(entry.ttlMs)),
      this.#maxEntries,
    ]);
    // Our own lookups see it at once; the stream echo (and the deletes it implied) follow.
    if (replaceId !== undefined && replaceId !== id) this.#remove(scope.tenant, scope.namespace, replaceId);
    for (let i = 0; i + 1 < gone.length; i += 2) this.#remove(scope.tenant, gone[i + 1]!, gone[i]!);
    this.#upsert(scope.tenant, scope.namespace, { id: id!, vector: entry.vector, features: entry.features, fingerprint: entry.fingerprint, expiresAt: Number(x), response: entry.response });
    return id;
  }

  async flush(scope: Scope): Promise<number> {
    const n = await this.#eval<number>(this.#s.flush, [...this.#head(scope.tenant), scope.namespace]);
    this.#dropPartition(scope.tenant, scope.namespace);
    return n;
  }

  maintain(now: number): void {
    for (let n = 0; n < SWEEP_BATCH; n++) {
      const due = this.#expiries.popIfAtMost(now);
      if (due === undefined) break;
      const p = this.#partitions.get(due.partition);
      const e = p?.byId.get(due.id);
      // A replaced or removed entry left a stale slot: only the entry it was pushed for goes.
      if (p !== undefined && e !== undefined && e.expiresAt === due.at) this.#removeFrom(due.partition, p, e);
    }
    if (this.#expiries.size > 2 * this.#liveEntries() + 1024) {
      this.#expiries.rebuild([...this.#partitions].flatMap(([key, p]) => [...p.byId.values()].map((e) => ({ at: e.expiresAt, partition: key, id: e.id }))));
    }
    // One rebuild per call at most: it is the expensive step.
    for (const p of this.#partitions.values()) {
      if (p.index.needsRebuild()) {
        p.index.rebuild();
        return;
      }
    }
  }

  #liveEntries(): number {
    let n = 0;
    for (const p of this.#partitions.values()) n += p.byId.size;
    return n;
  }

  stats(): StoreStats {
    const tenants = new Set<string>();
    let entries = 0;
    let indexBytes = 0;
    for (const [key, p] of this.#partitions) {
      tenants.add(key.slice(0, key.indexOf('\u0000')));
      entries += p.byId.size;
      indexBytes += p.index.bytes();
    }
    return { tenants: tenants.size, partitions: this.#partitions.size, entries, indexBytes };
  }

  /** Records a mirror hit's use in Redis later, batched (recency is advisory: a lost batch only changes which entry is evicted first). */
  #touchLater(base: string, id: string): void {
    let ids = this.#touches.get(base);
    if (ids === undefined) {
      ids = [];
      this.#touches.set(base, ids);
    }
    ids.push(id);
    if (ids.length >= 1000) this.#flushTouches();
    else if (this.#touchTimer === null) {
      this.#touchTimer = setTimeout(() => this.#flushTouches(), TOUCH_MS);
      this.#touchTimer.unref();
    }
  }

  #flushTouches(): void {
    if (this.#touchTimer !== null) {
      clearTimeout(this.#touchTimer);
      this.#touchTimer = null;
    }
    for (const [base, ids] of this.#touches) this.#redis.eval(this.#s.touch, [], [base, ...ids]).catch(() => undefined);
    this.#touches.clear();
  }

  /** Stops following the stream and closes the reading connection (the shared one is the backend's). */
  async close(): Promise<void> {
    this.#flushTouches();
    this.#closed = true;
    await this.#reader?.close();
    await this.#following?.catch(() => undefined);
    this.#partitions.clear();
  }

  #head(tenant: string): [string, string, string, number] {
    return [this.#redis.keyPrefix, tenant, tenantBase(this.#redis.keyPrefix, tenant), this.#maxLen];
  }

  async #eval<T>(script: LuaScript, args: readonly (string | number)[]): Promise<T> {
    try {
      return await this.#redis.eval<T>(script, [], args);
    } catch (err) {
      throw stateUnavailable(err);
    }
  }

  /** Follows the stream until closed; after any error, catches up from a full scan. */
  async #follow(): Promise<void> {
    let stale = false;
    while (!this.#closed) {
      try {
        if (stale) await this.#resync();
        stale = false;
        const r = await this.#reader!.command<[string, [string, string[]][]][] | null>(['XREAD', 'COUNT', '1000', 'BLOCK', String(BLOCK_MS), 'STREAMS', this.#stream, this.#lastId], BLOCK_MS + 2000);
        if (r === null) continue;
        for (const [, messages] of r) {
          for (const [id, fields] of messages) {
            this.#apply(fields);
            this.#lastId = id;
          }
        }
      } catch {
        if (this.#closed) return;
        stale = true;
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
  }

  /** Rebuilds the mirror from Redis: the stream position first, then every entry (events in between replay idempotently). */
  async #resync(): Promise<void> {
    const reader = this.#reader!;
    const last = await reader.command<[string, string[]][]>(['XREVRANGE', this.#stream, '+', '-', 'COUNT', '1']);
    const position = last.length > 0 ? last[0]![0] : '0-0';
    const entries: [string, string[]][] = [];
    let cursor = '0';
    do {
      const [next, keys] = await reader.command<[string, string[]]>(['SCAN', cursor, 'MATCH', `${this.#redis.keyPrefix}c:e:*`, 'COUNT', '1000']);
      cursor = next;
      const rows = await Promise.all(keys.map((k) => reader.command<(string | null)[]>(['HMGET', k, 't', 'n', 'v', 'f', 'fp', 'x'])));
      keys.forEach((k, i) => entries.push([k.slice(`${this.#redis.keyPrefix}c:e:`.length), rows[i] as string[]]));
    } while (cursor !== '0');
    this.#partitions.clear();
    this.#expiries.rebuild([]);
    for (const [id, [t, n, v, f, fp, x]] of entries) {
      if (t === null || t === undefined || n == null || v == null || f == null || fp == null || x == null) continue;
      this.#upsert(t, n, { id, vector: floats(v), features: decodeFeatures(f), fingerprint: fp, expiresAt: Number(x) });
    }
    this.#lastId = position;
  }

  #apply(fields: string[]): void {
    const m = new Map<string, string>();
    for (let i = 0; i + 1 < fields.length; i += 2) m.set(fields[i]!, fields[i + 1]!);
    const t = m.get('t')!;
    const n = m.get('n')!;
    switch (m.get('op')) {
      case 'put':
        this.#upsert(t, n, { id: m.get('id')!, vector: floats(m.get('v')!), features: decodeFeatures(m.get('f')!), fingerprint: m.get('fp')!, expiresAt: Number(m.get('x')) });
        break;
      case 'del':
        this.#remove(t, n, m.get('id')!);
        break;
      case 'flush':
        this.#dropPartition(t, n);
        break;
    }
  }

  #upsert(tenant: string, namespace: string, e: { id: string; vector: Float32Array; features: SentenceFeatures; fingerprint: string; expiresAt: number; response?: string }): void {
    const key = partitionKey({ tenant, namespace });
    let p = this.#partitions.get(key);
    if (p === undefined) {
      p = { index: createVectorIndex(this.#indexKind, this.#dims), byLabel: new Map(), byId: new Map(), byFingerprint: new Map(), nextLabel: 0 };
      this.#partitions.set(key, p);
    }
    const old = p.byId.get(e.id);
    if (old !== undefined) {
      if (old.expiresAt === e.expiresAt && old.fingerprint === e.fingerprint) {
        // The same entry (our own put and its stream echo, in either order): keep a known response.
        if (e.response !== undefined) old.response = e.response;
        return;
      }
      this.#removeFrom(key, p, old, false);
    }
    const same = p.byFingerprint.get(e.fingerprint);
    if (same !== undefined) this.#removeFrom(key, p, same, false);
    const local: LocalEntry = { id: e.id, label: p.nextLabel++, features: e.features, fingerprint: e.fingerprint, expiresAt: e.expiresAt, response: e.response ?? null };
    p.index.add(local.label, e.vector);
    p.byLabel.set(local.label, local);
    p.byId.set(local.id, local);
    p.byFingerprint.set(local.fingerprint, local);
    this.#expiries.push({ at: local.expiresAt, partition: key, id: local.id });
  }

  #remove(tenant: string, namespace: string, id: string): void {
    const key = partitionKey({ tenant, namespace });
    const p = this.#partitions.get(key);
    const e = p?.byId.get(id);
    if (p !== undefined && e !== undefined) this.#removeFrom(key, p, e);
  }

  #removeFrom(key: string, p: Partition, e: LocalEntry, dropEmpty = true): void {
    p.index.remove(e.label);
    p.byLabel.delete(e.label);
    p.byId.delete(e.id);
    if (p.byFingerprint.get(e.fingerprint) === e) p.byFingerprint.delete(e.fingerprint);
    if (dropEmpty && p.byId.size === 0) this.#partitions.delete(key);
  }

  #dropPartition(tenant: string, namespace: string): void {
    this.#partitions.delete(partitionKey({ tenant, namespace }));
  }
}

function partitionKey(scope: Scope): string {
  return `${scope.tenant}\u0000${scope.namespace}`;
}

function tenantBase(prefix: string, tenant: string): string {
  return `${prefix}c:${tenant.length}:${tenant}:`;
}

function b64(a: Float32Array | Int32Array | Uint8Array): string {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
}

/** base64 -> a fresh (aligned) ArrayBuffer. */
function bytes(s: string): ArrayBuffer {
  const b = Buffer.from(s, 'base64');
  const ab = new ArrayBuffer(b.length);
  new Uint8Array(ab).set(b);
  return ab;
}

function floats(s: string): Float32Array {
  return new Float32Array(bytes(s));
}

export function encodeFeatures(f: SentenceFeatures): string {
  return JSON.stringify({
    i: b64(f.ids),
    k: b64(f.keys),
    w: b64(f.weights),
    n: f.negated,
    q: f.questions,
    ...(f.order === undefined ? {} : { o: b64(f.order), p: f.passive === true }),
    ...(f.proper === undefined ? {} : { g: b64(f.proper) }),
    ...(f.words === undefined ? {} : { a: b64(f.words), r: f.persons ?? 0, c: f.clauses ?? 0 }),
    ...(f.symbols === undefined ? {} : { y: f.symbols }),
  });
}

export function decodeFeatures(s: string): SentenceFeatures {
  const o = JSON.parse(s) as { i: string; k: string; w: string; n: boolean; q: number; o?: string; p?: boolean; g?: string; a?: string; r?: number; c?: number; y?: number };
  const f: SentenceFeatures = {
    ids: new Int32Array(bytes(o.i)),
    keys: new Int32Array(bytes(o.k)),
    weights: new Float32Array(bytes(o.w)),
    negated: o.n,
    questions: o.q,
    // Entries written before the order rule carry no sequence (the rule skips them), older ones no name flags.
    ...(o.o === undefined ? {} : { order: new Int32Array(bytes(o.o)), passive: o.p === true }),
    ...(o.g === undefined ? {} : { proper: new Uint8Array(bytes(o.g)) }),
    ...(o.a === undefined ? {} : { words: new Int32Array(bytes(o.a)), persons: o.r ?? 0, clauses: o.c ?? 0 }),
    ...(typeof o.y === 'number' ? { symbols: o.y } : {}),
  };
  return f;
}

interface Expiry {
  readonly at: number;
  readonly partition: string;
  readonly id: string;
}

