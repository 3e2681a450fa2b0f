/**
 * The BPE merge of one long pre-tokenizer piece in O(m log m) for m bytes.
 *
 * gpt-tokenizer's bytePairMerge scans every pair for the lowest rank and splices two arrays per
 * merge: O(m²). A piece can be long on real input (a run of 200,000 spaces inside a <pre> took
 * 20-30 s; a paragraph of Chinese without punctuation is one piece), so long pieces are merged here
 * by the same rule as the library's and tiktoken's loop (merge the adjacent pair with the lowest
 * rank, the leftmost of equal ranks, until no pair is a token) with the pairs in a min-heap keyed
 * by (rank, start) over a linked list of parts. Only the count is wanted, so parts are not kept.
 *
 *   bytes    b0  b1  b2  b3  b4 ...      a part is a run of bytes, named by its first byte s
 *   next[s]  start of the part after s (m after the last one); prev[s] the one before
 *   rank[s]  rank of the pair (part s, part next[s]), NONE when it is no token or s is gone
 *   heap     (rank, start) of every pair ever ranked; an entry whose rank[start] changed since is
 *            stale and skipped when it surfaces (lazy deletion: no search inside the heap)
 *
 * Ranks come from the library's own lookup of a byte sequence, so whatever it decides is decided
 * here too (it decodes valid UTF-8 with a TextDecoder, which drops a leading byte-order mark:
 * EF BB BF + "using" gets the rank of "using"). That lookup (a subarray, a UTF-8 check, a decode,
 * a Map probe) costs more than the heap, and a long piece asks it for the same few pairs again and
 * again (a run of one character has a handful of distinct pairs), so its answers are kept in a
 * small table keyed by the pair's bytes: half to a third less time on runs, and less on random
 * CJK or letters too (their UTF-8 byte pairs repeat). Memory: about 20 bytes per byte of the piece
 * while it is merged (three Int32Arrays and the heap); a 5 MiB run of spaces adds ~120 MB for ~3 s.
 */

interface BytesCore {
  bytePairEncode(piece: string): { readonly length: number };
  getBpeRankFromBytes(bytes: Uint8Array): number | undefined;
}

/** The library's rank of a byte sequence, or undefined when the sequence is no token. */
export type BytesRank = (bytes: Uint8Array) => number | undefined;

const NONE = -1;
/** A heap key is rank * SHIFT + start: starts stay below 2^32 (a string holds under 2^29 characters, 3 bytes each at most). */
const SHIFT = 2 ** 32;
/** Ranks above this would not fit the key exactly (the two tables rank about 200,000 and 100,000 tokens). */
const MAX_RANK = 2 ** 21 - 1;
/** Slots of the lookup memo at most (a power of two); fewer for a shorter piece, whose allocation would dominate. */
const MEMO_SLOTS = 4096;

const utf8 = new TextEncoder();

/**
 * Pieces the merge is compared on at load with the library's bytePairEncode: runs (where equal
 * ranks tie and the leftmost must win), CJK and emoji (pairs inside a character), a byte-order
 * mark (the library's decoding quirk) and a lone surrogate (encoded as U+FFFD).
 */
const PROBES = [' '.repeat(130), 'a'.repeat(150), 'ab'.repeat(70), '数字中文的'.repeat(30), '👩‍💻🎉'.repeat(20), '\uFEFF' + 'using'.repeat(20), '\uFEFF\uFEFF' + 'é'.repeat(80), '\uD800' + 'x'.repeat(90), '-='.repeat(50) + '\n\n'];

/**
 * Long pieces repeat too: a separator line of 80 "=", an indentation of 100 spaces on every line.
 * The library's cache answered those at once, so their counts are kept here (the count of a piece
 * is a pure function of it), up to REPEAT_CACHE_MAX pieces of at most REPEAT_CACHE_MAX_CHARS
 * characters (~1 MB at most), emptied when full like the short-piece table of pieces.ts. Without
 * it 5,000 separator lines took 130 ms instead of 5.
 */
const REPEAT_CACHE_MAX = 512;
const REPEAT_CACHE_MAX_CHARS = 1024;

/**
 * A counter of one piece by the heap merge over the library's rank lookup, or undefined when the
 * encoding core has no such lookup or the merge disagrees with the library on a probe piece.
 *
 * @example mergeCounter(o200kApi.bytePairEncodingCoreProcessor)?.(' '.repeat(200_000)) // 1563
 */
export function mergeCounter(core: unknown): ((piece: string) => number) | undefined {
  const known = core as Partial<BytesCore> | undefined | null;
  if (typeof known?.getBpeRankFromBytes !== 'function' || typeof known.bytePairEncode !== 'function') return undefined;
  const { bytePairEncode, getBpeRankFromBytes } = known as BytesCore;
  const rankOf: BytesRank = (bytes) => getBpeRankFromBytes.call(core, bytes);
  const seen = new Map<string, number>();
  const count = (piece: string): number => {
    if (piece.length > REPEAT_CACHE_MAX_CHARS) return mergedCount(utf8.encode(piece), rankOf);
    let c = seen.get(piece);
    if (c === undefined) {
      c = mergedCount(utf8.encode(piece), rankOf);
      if (seen.size >= REPEAT_CACHE_MAX) seen.clear();
      seen.set(piece, c);
    }
    return c;
  };
  try {
    return PROBES.every((p) => count(p) === bytePairEncode.call(core, p).length) ? count : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The number of parts gpt-tokenizer's bytePairMerge leaves of `bytes`, that is the token count.
 * A popped entry is live when rank[start] still holds its rank: then the current pair at that
 * start has that key, and no current pair has a smaller one (each has its own entry in the heap).
 * Throws a RangeError on a rank past MAX_RANK (never with o200k_base or cl100k_base).
 */
export function mergedCount(bytes: Uint8Array, rankOf: BytesRank): number {
  const m = bytes.length;
  if (m < 2) return m;
  const next = new Int32Array(m);
  const prev = new Int32Array(m);
  const rank = new Int32Array(m);
  // The memo: direct-mapped by a hash of the pair's bytes, an entry naming where they stand in
  // `bytes`; a hit compares them, so a collision costs a lookup, never a wrong rank.
  let slots = 64;
  while (slots < m && slots < MEMO_SLOTS) slots *= 2;
  const memoStart = new Int32Array(slots);
  const memoLength = new Int32Array(slots); // 0: empty (a pair has 2 bytes or more)
  const memoRank = new Int32Array(slots);
  const lookup = (start: number, end: number): number => {
    const length = end - start;
    let h = length;
    for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
    const slot = (h ^ (h >>> 15)) & (slots - 1);
    if (memoLength[slot] === length) {
      let a = memoStart[slot]!;
      let i = start;
      while (i < end && bytes[a] === bytes[i]) {
        a++;
        i++;
      }
      if (i === end) return memoRank[slot]!;
    }
    const r = rankOf(bytes.subarray(start, end)) ?? NONE;
    if (r > MAX_RANK) throw new RangeError(`rank ${r} is past ${MAX_RANK}`);
    memoStart[slot] = start;
    memoLength[slot] = length;
    memoRank[slot] = r;
    return r;
  };
  const heap = new PairHeap(m);
  for (let i = 0; i < m; i++) {
    next[i] = i + 1;
    prev[i] = i - 1;
    rank[i] = i + 2 <= m ? lookup(i, i + 2) : NONE;
    if (rank[i] !== NONE) heap.append(rank[i]! * SHIFT + i);
  }
  heap.heapify();
  let parts = m;
  while (heap.size > 0) {
    const key = heap.top();
    heap.pop();
    const r = Math.floor(key / SHIFT);
    const s = key - r * SHIFT;
    if (rank[s] !== r) continue;
    const gone = next[s]!;
    const end = next[gone]!;
    next[s] = end;
    if (end < m) prev[end] = s;
    rank[gone] = NONE;
    parts--;
    rank[s] = end < m ? lookup(s, next[end]!) : NONE;
    if (rank[s] !== NONE) heap.push(rank[s]! * SHIFT + s);
    // The first part always starts at 0, so any other start has a part before it.
    if (s > 0) {
      const p = prev[s]!;
      rank[p] = lookup(p, end);
      if (rank[p] !== NONE) heap.push(rank[p]! * SHIFT + p);
    }
  }
  return parts;
}

/**
 * A binary min-heap of pairs, each held as one number rank * SHIFT + start, so one comparison
 * orders by rank, then by start (the leftmost pair of equal rank merges first, as in the library's
 * scan; exact while rank <= MAX_RANK). Grows by doubling: each merge pushes at most two entries.
 */
class PairHeap {
  #keys: Float64Array;
  size = 0;

  constructor(capacity: number) {
    this.#keys = new Float64Array(capacity);
  }

  /** The smallest key (the heap is not empty). */
  top(): number {
    return this.#keys[0]!;
  }

  /** Adds a key without ordering; heapify() orders them all in O(n). */
  append(key: number): void {
    if (this.size === this.#keys.length) this.#grow();
    this.#keys[this.size++] = key;
  }

  heapify(): void {
    for (let i = (this.size >> 1) - 1; i >= 0; i--) this.#siftDown(i, this.#keys[i]!);
  }

  push(key: number): void {
    if (this.size === this.#keys.length) this.#grow();
    const keys = this.#keys;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (keys[parent]! <= key) break;
      keys[i] = keys[parent]!;
      i = parent;
    }
    keys[i] = key;
  }

  pop(): void {
    const last = --this.size;
    if (last > 0) this.#siftDown(0, this.#keys[last]!);
  }

  /** Puts `key` at i or below, moving smaller children up; entries at and past `size` are ignored. */
  #siftDown(i: number, key: number): void {
    const keys = this.#keys;
    const n = this.size;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && keys[c + 1]! < keys[c]!) c++;
      if (keys[c]! >= key) break;
      keys[i] = keys[c]!;
      i = c;
    }
    keys[i] = key;
  }

  #grow(): void {
    const keys = new Float64Array(2 * this.#keys.length + 16);
    keys.set(this.#keys);
    this.#keys = keys;
  }
}
