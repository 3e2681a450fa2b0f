/**
 * A leaner count loop over gpt-tokenizer's own pre-tokenizer and ranks.
 *
 * gpt-tokenizer's countTokens walks its pre-tokenizer regex with matchAll: a match array and an
 * iterator result per piece, about 0.4 MB of short-lived garbage per 10 KB of text, which makes
 * the young-generation collections that set a busy server's p99. This loop walks the same regex
 * as a sticky copy with test(), which only moves lastIndex: no match array and no piece string.
 * A piece is read from the text where it stands (its characters hashed in place) and looked up in
 * a small open-addressing table of piece -> count; only a piece the table does not hold is cut
 * out as a string and counted by the library (a long one by the heap merge of merge.ts). A 10 KB
 * count allocates next to nothing (the earlier replace() loop cut ~2,500 piece strings, ~130 KB)
 * and costs about a third less CPU (bench/micro/tokenizer.ts). The pre-tokenizer pieces follow
 * each other without gaps (every character is matched by one of its alternatives); should a
 * sticky test ever fail before the end, the text is counted by the replace() loop instead, which
 * skips such gaps as the library does.
 * It reads the library's internal piece counter (gpt-tokenizer 4.0.0, pinned in package.json). At
 * load the internals are checked for shape and the loop is compared with the public countTokens
 * on a probe text holding letters, accents, CJK, digits, contractions, whitespace runs and a
 * special-token spelling; if anything is missing or differs, the public function is used instead.
 * test/tokenizer.test.ts compares the counts with the WASM `tiktoken` on every eval prompt.
 */
import { mergeCounter } from './merge.ts';

interface PieceCore {
  readonly tokenSplitRegex: RegExp;
  getBpeRankFromString(piece: string): number | undefined;
  bytePairEncode(piece: string): { readonly length: number };
}

/**
 * Most pieces of prose repeat (" the", " of", ","), and the library's rank lookup is a Map of
 * ~200,000 strings whose probes mostly miss the CPU caches (about half of the counting time on
 * Markdown, bench/micro/tokenizer.ts). A small table from piece to its count (PieceTable) answers
 * the repeats from memory that stays in cache; the count of a piece is a pure function of the piece, so the
 * totals are unchanged. Bounded: when full it is emptied (cheaper than LRU bookkeeping; it refills
 * within a page or a prompt), and pieces longer than PIECE_CACHE_MAX_CHARS (hashes, base64,
 * whitespace runs) are never kept. ~16,000 short pieces hold about 1 MB.
 */
const PIECE_CACHE_MAX = 16_384;
const PIECE_CACHE_MAX_CHARS = 24;

/**
 * A piece that is no token itself and has at least LONG_PIECE_CHARS characters is merged by the
 * heap of merge.ts, O(m log m), not by the library's bytePairEncode, O(m²) (a run of 200,000
 * spaces took ~20 s). Shorter ones stay with the library, whose cache of merged pieces answers a
 * repeated one at once, and below 64 characters the two cost about the same (measured per piece,
 * uncached: the heap is ahead on runs and CJK from 16 characters, the library on random letters up
 * to about 48; the heap takes a third of the time on runs at 128 characters, a quarter at 512).
 */
const LONG_PIECE_CHARS = 64;

const PROBE = "Hello, world!  naïve café — 数字 1234567 don't WE'LL <|endoftext|>\n\n\t x/y.\n";

/**
 * A counter of plain text (no special tokens: their spellings are ordinary text) built on the
 * encoding module's default export, or undefined when its internals are not as expected or the
 * loop disagrees with `publicCount` on the probe text.
 */
export function pieceCounter(api: unknown, publicCount: (text: string) => number): ((text: string) => number) | undefined {
  const core = (api as { bytePairEncodingCoreProcessor?: Partial<PieceCore> } | undefined)?.bytePairEncodingCoreProcessor;
  if (core === undefined || core === null) return undefined;
  const re = core.tokenSplitRegex;
  if (!(re instanceof RegExp) || !re.global || typeof core.getBpeRankFromString !== 'function' || typeof core.bytePairEncode !== 'function') return undefined;
  const known = core as PieceCore;
  // undefined when the library has no byte-sequence lookup as merge.ts expects: then its own merge counts every piece.
  const merged = mergeCounter(core);
  const pieceCount = (piece: string): number => {
    if (known.getBpeRankFromString(piece) !== undefined) return 1;
    return merged !== undefined && piece.length >= LONG_PIECE_CHARS ? merged(piece) : known.bytePairEncode(piece).length;
  };
  const table = new PieceTable(pieceCount);
  // The library's regex walked piece by piece: sticky, so each test() must match right where the last piece ended.
  const sticky = new RegExp(re.source, re.flags.replace(/[gy]/g, '') + 'y');
  const count = (text: string): number => {
    const n = text.length;
    let total = 0;
    let start = 0;
    sticky.lastIndex = 0;
    while (start < n) {
      if (!sticky.test(text) || sticky.lastIndex <= start) return countWithGaps(text);
      const end = sticky.lastIndex;
      total += table.count(text, start, end);
      start = end;
    }
    return total;
  };
  /** The replace() loop: pieces wherever the regex finds them, characters between them skipped. */
  const countWithGaps = (text: string): number => {
    let total = 0;
    text.replace(re, (piece: string) => {
      total += pieceCount(piece);
      return '';
    });
    return total;
  };
  try {
    return count(PROBE) === publicCount(PROBE) && countWithGaps(PROBE) === publicCount(PROBE) ? count : undefined;
  } catch {
    return undefined;
  }
}

/** Slots of the piece table: a power of two, twice PIECE_CACHE_MAX so that probes stay short. */
const TABLE_SLOTS = 2 * PIECE_CACHE_MAX;

/**
 * Piece -> token count for pieces of up to PIECE_CACHE_MAX_CHARS characters, looked up by a hash
 * of the characters where they stand in the text (linear probing; a hit compares the characters,
 * so a hash collision never gives a wrong count). Emptied when it holds PIECE_CACHE_MAX pieces.
 */
export class PieceTable {
  readonly #hashes = new Int32Array(TABLE_SLOTS);
  readonly #counts = new Int32Array(TABLE_SLOTS);
  readonly #pieces: (string | undefined)[] = new Array<string | undefined>(TABLE_SLOTS).fill(undefined);
  #size = 0;

  /** `pieceCount`: the count of a piece, computed on a miss. */
  constructor(readonly pieceCount: (piece: string) => number) {}

  /** Pieces held now (for tests). */
  get size(): number {
    return this.#size;
  }

  /** The token count of the piece text[start, end). */
  count(text: string, start: number, end: number): number {
    const length = end - start;
    if (length > PIECE_CACHE_MAX_CHARS) return this.pieceCount(text.slice(start, end));
    let h = length;
    for (let i = start; i < end; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
    h ^= h >>> 15;
    const mask = TABLE_SLOTS - 1;
    const pieces = this.#pieces;
    let slot = h & mask;
    for (let piece = pieces[slot]; piece !== undefined; piece = pieces[(slot = (slot + 1) & mask)]) {
      if (this.#hashes[slot] !== h || piece.length !== length) continue;
      let i = 0;
      while (i < length && piece.charCodeAt(i) === text.charCodeAt(start + i)) i++;
      if (i === length) return this.#counts[slot]!;
    }
    const piece = text.slice(start, end);
    const c = this.pieceCount(piece);
    if (this.#size >= PIECE_CACHE_MAX) {
      pieces.fill(undefined);
      this.#size = 0;
      slot = h & mask;
    }
    this.#hashes[slot] = h;
    this.#counts[slot] = c;
    pieces[slot] = piece;
    this.#size++;
    return c;
  }
}
