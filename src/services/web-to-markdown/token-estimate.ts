/**
 * Calibrated estimate of the o200k_base token count of raw HTML.
 *
 * Counting 100 KB of HTML exactly costs ~7 ms with the BPE (more than the whole extraction), so
 * the HTML side of `tokens_saved_estimate` is estimated instead (CONTRACT.md §5 allows it within
 * 5%, test/extract-eval.test.ts checks it on every eval page):
 *
 *   1. one pass over the text splits it as o200k's pre-tokeniser does (words with their
 *      leading space or punctuation char, CamelCase humps, digit groups of <= 3, punctuation runs,
 *      whitespace runs), without building strings;
 *   2. each piece is counted in a histogram by (kind, length);
 *   3. the estimate is the histogram times PIECE_TOKENS, the mean exact token count of a piece
 *      of that kind and length, measured once on the development pages with the real BPE
 *      (`npm run eval:extract -- --calibrate-tokens` prints a new table; it is generic: piece
 *      shapes, nothing about any site).
 *
 * Measured on the 245 development pages (four sources, English to Chinese and Japanese): mean
 * error 1.7-1.9% per source in sample, worst page 7.6%; with the table measured without the
 * source it is tested on (`npm run eval:extract -- --held-out-tokens`) mean 1.9-3.4%, worst
 * 13.1% (a Chinese page). The estimate costs ~1/12 of exact counting (1.0 vs 11.7 ms for an
 * average eval page of 175 KB).
 */
import { PIECE_TOKENS } from './token-table.ts';

const MAX_LEN = 32;
/**
 * Piece kinds. Words: 3 case shapes ([a-z]+, [A-Z][a-z]+, [A-Z]+...) x 8 prefixes (none, space,
 * and the punctuation chars that glue to a following word in HTML: `<`, `/`, `-`/`_`, `.`,
 * quotes, `=`/`:`, any other) = 24 kinds; then non-ASCII words, punctuation runs (non-ASCII
 * punctuation included), whitespace, digits; sparse-vowel words; Han/kana/Hangul words.
 */
const KIND_NON_ASCII = 24;
const KIND_PUNCT = 25;
const KIND_SPACE = 26;
const KIND_DIGITS = 27;
/** Words of 4+ letters with under a third vowels (ids, hashes, base64) split into more tokens: kinds 28..51. */
const KIND_SPARSE_VOWELS = 28;
/**
 * Words of Han, kana or Hangul (~1 token per 1-2 characters, against ~4 for Latin words). Such
 * words run on without spaces, so one longer than MAX_LEN is counted as pieces of MAX_LEN
 * characters and a rest: its tokens grow with its length instead of stopping at the last slot.
 */
const KIND_CJK = 52;
const KINDS = 53;


/** Prefix bucket of the char glued before a word: 1 = space, 2..7 = punctuation groups. */
const PREFIX_BUCKET = new Uint8Array(128).fill(7);
PREFIX_BUCKET[32] = 1;
PREFIX_BUCKET[9] = 1;
PREFIX_BUCKET[60] = 2; // <
PREFIX_BUCKET[47] = 3; // /
PREFIX_BUCKET[45] = 4; // -
PREFIX_BUCKET[95] = 4; // _
PREFIX_BUCKET[46] = 5; // .
PREFIX_BUCKET[34] = 6; // "
PREFIX_BUCKET[39] = 6; // '
// `=`, `:` and the rest share bucket 7.


const enum C {
  Lower = 0,
  Upper = 1,
  Digit = 2,
  Space = 3,
  Newline = 4,
  Punct = 5,
  Other = 6, // non-ASCII: treated as a letter
  Cjk = 7, // Han, kana, Hangul: letters of scripts written without spaces
}

/** Character class of every UTF-16 code unit (non-ASCII counts as a letter, a few as spaces). */
const CLASS = new Uint8Array(65536).fill(C.Other);
for (let c = 0; c < 128; c++) {
  CLASS[c] =
    c >= 97 && c <= 122 ? C.Lower
    : c >= 65 && c <= 90 ? C.Upper
    : c >= 48 && c <= 57 ? C.Digit
    : c === 10 || c === 13 ? C.Newline
    : c === 32 || c === 9 || c === 11 || c === 12 ? C.Space
    : C.Punct;
}
/** Non-ASCII punctuation and symbols: no letters for the pre-tokeniser (`\p{L}`), so they end a word. */
const NON_ASCII_PUNCT: readonly [number, number][] = [
  [0xa1, 0xbf], [0xd7, 0xd7], [0xf7, 0xf7], [0x2010, 0x205e], [0x2190, 0x23ff], [0x2500, 0x27bf],
  [0x3001, 0x3004], [0x3008, 0x3020], [0x3030, 0x3030], [0x30fb, 0x30fb],
  [0xff01, 0xff0f], [0xff1a, 0xff20], [0xff3b, 0xff40], [0xff5b, 0xff65],
];
for (const [a, b] of NON_ASCII_PUNCT) for (let c = a; c <= b; c++) CLASS[c] = C.Punct;
/** Han (CJK unified ideographs and extension A, compatibility), kana, Hangul syllables. */
const CJK_LETTERS: readonly [number, number][] = [[0x3040, 0x30fa], [0x30fc, 0x30ff], [0x3400, 0x4dbf], [0x4e00, 0x9fff], [0xac00, 0xd7a3], [0xf900, 0xfaff], [0xff66, 0xff9f]];
for (const [a, b] of CJK_LETTERS) for (let c = a; c <= b; c++) CLASS[c] = C.Cjk;
for (const c of [0xa0, 0x2028, 0x2029, 0x3000]) CLASS[c] = C.Space;
/** Class with bit 3 set for ASCII vowels (one lookup per letter instead of two). */
const CLASS_V = Uint8Array.from(CLASS);
for (const ch of 'aeiouyAEIOUY') CLASS_V[ch.charCodeAt(0)]! |= 8;

const ROW = MAX_LEN + 1;

/** Slots of a histogram: counts[kind * (MAX_LEN + 1) + min(len, MAX_LEN)]. */
export const HISTOGRAM_SLOTS = KINDS * ROW;

/** Characters per chunk of a whole-page scan (split-estimate.ts uses the same chunks). */
export const CHUNK_CHARS = 16_384;

/**
 * Histogram of pre-tokeniser pieces: counts[kind * (MAX_LEN + 1) + len]. `starts`, when given,
 * receives each piece's start offset and histogram slot (calibration tooling uses it).
 */
export function pieceHistogram(text: string, starts?: number[]): Uint32Array {
  // Integer counts: an increment never allocates, even before the function is optimised.
  const counts = new Uint32Array(HISTOGRAM_SLOTS);
  const cuts = pieceCuts(text, CHUNK_CHARS);
  for (let k = 0; k + 1 < cuts.length; k++) scanPieces(text, cuts[k]!, cuts[k + 1]!, counts, starts);
  return counts;
}

/**
 * The chunk being scanned, as UTF-16 code units. The scan reads a typed array instead of calling
 * charCodeAt: V8 (Node 20) stops inlining charCodeAt in a whole isolate once any code subclasses
 * String (node-redis's RESP decoder declares `class VerbatimString extends String`, and the
 * gateway's event loop loads it), after which a charCodeAt loop runs ~4x slower (7 -> 41 ns per
 * character here); typed-array loads are not affected (~9 ns, the copy included). One scratch
 * array per thread, grown to the largest chunk.
 */
let scratch = new Uint16Array(0);
let scratchBytes = Buffer.alloc(0);

function codesOf(text: string, from: number, end: number): Uint16Array {
  const len = end - from;
  if (scratch.length < len) {
    scratch = new Uint16Array(Math.max(len, CHUNK_CHARS + 64));
    scratchBytes = Buffer.from(scratch.buffer, scratch.byteOffset, scratch.byteLength);
  }
  // utf16le copies the code units as they are (lone surrogates included).
  scratchBytes.write(from === 0 && end === text.length ? text : text.slice(from, end), 0, len * 2, 'utf16le');
  return scratch;
}

/**
 * Adds the pieces of `text` from `from` up to `to` into `counts`. `from` must be 0 or a piece
 * boundary (see pieceCuts), and the scan stops at the first piece boundary at or past `to`, so
 * scanning consecutive ranges between cuts adds up to exactly the histogram of one whole pass.
 */
export function scanPieces(text: string, from: number, to: number, counts: Uint32Array, starts?: number[]): void {
  // A piece ending at `to` is decided by reading the character at `to`: copy one past it.
  const end = Math.min(text.length, to + 1);
  scanCodes(codesOf(text, from, end), end - from, to - from, from, counts, starts);
}

/** scanPieces over `codes[0, n)`, a copy of the text from `offset`; stops at `to` (local). */
function scanCodes(codes: Uint16Array, n: number, to: number, offset: number, counts: Uint32Array, starts?: number[]): void {
  let i = 0;
  while (i < to) {
    const c = CLASS[codes[i]!]!;
    let kind: number;
    let len: number;
    let j: number;
    // A word, possibly with one leading space/punctuation char (o200k's `[^\r\n\p{L}\p{N}]?` prefix).
    let start = i;
    let prefix = -1;
    if ((c === C.Space || c === C.Punct) && i + 1 < n) {
      const next = CLASS[codes[i + 1]!]!;
      if (next === C.Lower || next === C.Upper || next === C.Other || next === C.Cjk) {
        const code = codes[i]!;
        prefix = code < 128 ? PREFIX_BUCKET[code]! : 1;
        start = i + 1;
      }
    }
    const w = prefix >= 0 ? CLASS[codes[start]!]! : c;
    if (w === C.Lower || w === C.Upper || w === C.Other || w === C.Cjk) {
      j = start;
      let uppers = 0;
      let vowels = 0;
      let other = false;
      let cjk = 0;
      // [Upper]*[lower]+ or [Upper]+[lower]*: a run of capitals, then lower case.
      while (j < n) {
        const k = CLASS_V[codes[j]!]!;
        if ((k & 7) !== C.Upper) break;
        uppers++;
        vowels += k >> 3;
        j++;
      }
      while (j < n) {
        const k = CLASS_V[codes[j]!]!;
        const cls = k & 7;
        if (cls === C.Lower) {
          vowels += k >> 3;
          j++;
        } else if (cls === C.Other) {
          other = true;
          j++;
        } else if (cls === C.Cjk) {
          other = true;
          cjk++;
          j++;
        } else break;
      }
      if (j === start) {
        j++;
        other = true;
      }
      const wordLen = j - start;
      len = wordLen + (prefix >= 0 ? 1 : 0);
      if (!other) {
        const shape = uppers === 0 ? 0 : uppers === 1 && wordLen > 1 ? 1 : 2;
        kind = (prefix < 0 ? 0 : prefix) * 3 + shape;
        if (wordLen >= 4 && vowels * 3 < wordLen) kind += KIND_SPARSE_VOWELS;
      } else if (cjk * 2 > wordLen) {
        kind = KIND_CJK;
        // Whole MAX_LEN pieces first (the prefix char rides with the first), then the rest below.
        let at = i;
        let rest = len;
        while (rest > MAX_LEN) {
          counts[KIND_CJK * ROW + MAX_LEN]!++;
          if (starts !== undefined) starts.push(at + offset, KIND_CJK * ROW + MAX_LEN);
          at += MAX_LEN;
          rest -= MAX_LEN;
        }
        i = at;
        len = rest;
      } else kind = KIND_NON_ASCII;
    } else if (c === C.Digit) {
      j = i;
      while (j < n && j - i < 3 && CLASS[codes[j]!] === C.Digit) j++;
      kind = KIND_DIGITS;
      len = j - i;
    } else if (c === C.Punct || (c === C.Space && i + 1 < n && CLASS[codes[i + 1]!] === C.Punct)) {
      j = c === C.Space ? i + 1 : i;
      while (j < n && CLASS[codes[j]!] === C.Punct) j++;
      while (j < n) {
        const ch = codes[j]!;
        if (ch === 10 || ch === 13 || ch === 47) j++;
        else break;
      }
      kind = KIND_PUNCT;
      len = j - i;
    } else {
      // Whitespace run; the last space before a word or punctuation goes to that piece.
      j = i;
      while (j < n) {
        const k = CLASS[codes[j]!];
        if (k === C.Space || k === C.Newline) j++;
        else break;
      }
      if (j < n && j - i > 1 && CLASS[codes[j - 1]!] === C.Space) j--;
      kind = KIND_SPACE;
      len = j - i;
    }
    const slot = kind * ROW + (len > MAX_LEN ? MAX_LEN : len);
    counts[slot]!++;
    if (starts !== undefined) starts.push(i + offset, slot);
    i = j;
  }
}

/**
 * Offsets that split `text` into ranges of about `chunkChars` characters, each cut at a piece
 * boundary: from 0 to text.length, increasing. Every piece holding a letter is a word (letters
 * appear in no other kind), and a word ends at the first character that is no letter, so the
 * position after a letter and before a digit, space, line break or punctuation character always
 * starts a new piece, whatever came before. Ranges between cuts are scanned independently
 * (scanPieces), by different threads if need be, and their histograms add up to the whole one.
 */
export function pieceCuts(text: string, chunkChars: number): number[] {
  const n = text.length;
  const cuts = [0];
  for (let at = chunkChars; at < n; at += chunkChars) {
    let p = Math.max(at, cuts[cuts.length - 1]! + 1);
    while (p < n && !(isLetter(CLASS[text.charCodeAt(p - 1)]!) && !isLetter(CLASS[text.charCodeAt(p)]!))) p++;
    if (p >= n) break;
    cuts.push(p);
    at = p;
  }
  cuts.push(n);
  return cuts;
}

function isLetter(c: number): boolean {
  return c === C.Lower || c === C.Upper || c === C.Other || c === C.Cjk;
}

/** Estimated o200k_base tokens of `text` (HTML), within a few percent of the exact count. */
export function estimateHtmlTokens(text: string): number {
  if (text.length === 0) return 0;
  return estimateFromHistogram(pieceHistogram(text));
}

/** Histogram times a table of mean tokens per slot (the calibration tooling passes its own). */
export function estimateFromHistogram(h: Uint32Array, table: Float64Array = PIECE_TOKENS): number {
  let total = 0;
  for (let i = 0; i < h.length; i++) if (h[i] !== 0) total += h[i]! * table[i]!;
  return Math.round(total);
}

/** Table layout, for the calibration tooling. */
export const PIECE_TABLE_SHAPE = { kinds: KINDS, maxLen: MAX_LEN } as const;
