/**
 * `npm run eval:extract`: main-text quality of API-01 on every *.jsonl of eval/data/extract/
 * (or `--dir D`, or one or more `--file F`), and, in the same run, of the baseline
 * @mozilla/readability + linkedom + turndown. Numbers are printed per source (the file's name)
 * and pooled.
 *
 * Records with `expected_text` (scrapinghub, cwced): word precision/recall/F1 (Han and kana
 * tokenised by character: those scripts write no spaces), per page normalised tp/fp/fn averaged
 * over pages as the scrapinghub benchmark's evaluate.py does, its own 4-gram shingle F1 of `\w+`
 * tokens beside it, and how many pages came back with less than a fifth of the reference's
 * visible characters. Records with `must_contain` (mercury): the share of snippets found with
 * all white space removed on both sides. Markdown is reduced to plain text first (links dropped
 * via include_links=false, fence lines removed). Pages are decoded as a fetch without a
 * Content-Type charset would decode them (BOM, <meta>, sniffing); the record's `charset`, where
 * given, is checked against that. Unusable records are skipped and counted, never fatal.
 *
 * It also checks the calibrated HTML token estimate against the exact o200k_base count.
 *
 *   npm run eval:extract [-- --verbose] [-- --misses] [-- --outside] [-- --dir D | --file F ...] [-- --no-baseline] [-- --no-tokens] [-- --no-names] [-- --plain-tags]
 *   npm run eval:extract -- --calibrate-tokens | --held-out-tokens
 *
 * --misses lists the reference's sentences missing from our output; --outside lists our output's
 * sentences found nowhere in the reference (the boilerplate proxy), marking those the baseline keeps too.
 * --no-names scores the pages with every class and id attribute removed: names are what a page of
 * an unseen CMS does not share with these, so the gap shows how much of a number rests on them.
 * --plain-tags reads <article>, <main>, <nav>, <aside>, <header>, <footer> and <section> as <div>
 * and drops role attributes (a page written before HTML5); with --no-names, a page of bare divs.
 * --calibrate-tokens re-measures the piece table of token-estimate.ts on every page of the folder
 * (mean exact tokens per piece kind and length, each source weighted equally) and prints it as
 * token-table.ts source. --held-out-tokens prints the estimate's error on pages its table was
 * not measured on (leave one source out, and even/odd halves).
 */
import { jsonObjects } from './lib/jsonl.ts';
import { readabilityBaseline } from './lib/readability-baseline.ts';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { decodeBody } from '../src/fetch/charset.ts';
import { extractMarkdown } from '../src/services/web-to-markdown/core.ts';
import { estimateFromHistogram, estimateHtmlTokens, pieceHistogram, PIECE_TABLE_SHAPE } from '../src/services/web-to-markdown/token-estimate.ts';
import { countTokens } from '../src/tokenizer/index.ts';

interface Page {
  id: string;
  file: string;
  url: string;
  expected_text: string;
}
/** One usable record of any extract file: a full reference (`expected`) or snippets (`mustContain`). */
export interface EvalRecord {
  readonly id: string;
  readonly source: string;
  readonly url: string;
  readonly html: string;
  readonly expected: string | null;
  readonly mustContain: readonly string[];
  /** The charset the record says the page decodes with, if it says. */
  readonly charset: string | null;
  /** The charset decodeBody chose (no header: BOM, <meta>, then sniffing, as a fetch without one). */
  readonly decodedAs: string;
}
type Counts = [tp: number, fp: number, fn: number];


const args = process.argv.slice(2);
const verbose = args.includes('--verbose');
const argValue = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
export const EXTRACT_DIR = path.resolve(import.meta.dirname, '../eval/data/extract');
const dir = argValue('--dir') ?? EXTRACT_DIR;
/** `--no-names`: class and id attributes (a page of a CMS whose names no rule knows; what the choice rests on besides names). */
const NAME_ATTR_RE = /\s(?:class|id)\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+)/gi;
/** `--plain-tags`: HTML5 sectioning tags read as <div> and no role attribute (a page written before HTML5). */
const SECTIONING_TAG_RE = /<(\/?)(?:article|main|nav|aside|header|footer|section)(?=[\s>\/])/gi;
const ROLE_ATTR_RE = /\srole\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+)/gi;

/** The benchmark's tokens (evaluate.py: `\w+`). */
const TOKEN = /[\p{L}\p{N}\p{M}_]+/gu;
/** Words, but every Han, Hiragana and Katakana character a token of its own (those scripts write no spaces). */
const TOKEN_CJK = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]|(?:(?![\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}])[\p{L}\p{N}\p{M}_])+/gu;

function shingles(text: string, n: number, byChar: boolean): Map<string, number> {
  const tokens = text.match(byChar ? TOKEN_CJK : TOKEN) ?? [];
  const out = new Map<string, number>();
  for (let i = 0; i < Math.max(1, tokens.length - n + 1); i++) {
    const s = tokens.slice(i, i + n);
    if (s.length === 0) continue;
    const key = s.join('\u0001');
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}

/** evaluate.py string_shingle_matching: normalised tp/fp/fn of one page. */
export function shingleMatch(truth: string, pred: string, n = 4, cjkByChar = false): Counts {
  const t = shingles(truth, n, cjkByChar);
  const p = shingles(pred, n, cjkByChar);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const key of new Set([...t.keys(), ...p.keys()])) {
    const tc = t.get(key) ?? 0;
    const pc = p.get(key) ?? 0;
    tp += Math.min(tc, pc);
    fp += Math.max(0, pc - tc);
    fn += Math.max(0, tc - pc);
  }
  const s = tp + fp + fn;
  return s > 0 ? [tp / s, fp / s, fn / s] : [0, 0, 0];
}

export function prf(counts: readonly Counts[]): { precision: number; recall: number; f1: number } {
  const prec = (tp: number, fp: number, fn: number) => (fp === 0 && fn === 0 ? 1 : tp === 0 && fp === 0 ? 0 : tp / (tp + fp));
  const rec = (tp: number, fp: number, fn: number) => (fp === 0 && fn === 0 ? 1 : tp === 0 && fn === 0 ? 0 : tp / (tp + fn));
  const ps = counts.filter(([tp, fp]) => tp + fp > 0).map((c) => prec(...c));
  const rs = counts.filter(([tp, , fn]) => tp + fn > 0).map((c) => rec(...c));
  const precision = ps.reduce((a, b) => a + b, 0) / ps.length;
  const recall = rs.reduce((a, b) => a + b, 0) / rs.length;
  return { precision, recall, f1: (2 * precision * recall) / (precision + recall) };
}

export function markdownToText(md: string): string {
  return md
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .split('\n')
    .filter((l) => !/^\s*(```|~~~)/.test(l))
    .join('\n');
}

/** The 23 pages of scrapinghub_dev.jsonl (benchmarks and the token-estimate tests use this fixed set). */
export function loadPages(from = dir): { page: Page; html: string }[] {
  const lines = readFileSync(path.join(from, 'scrapinghub_dev.jsonl'), 'utf8').split('\n').filter((l) => l.trim() !== '');
  return lines.map((l) => {
    const page = JSON.parse(l) as Page;
    const bytes = gunzipSync(readFileSync(path.join(from, page.file)));
    return { page, html: decodeBody(bytes, null, true).text };
  });
}

/** Every *.jsonl of a folder, sorted. */
export function extractFiles(folder = EXTRACT_DIR): string[] {
  return readdirSync(folder)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .map((f) => path.join(folder, f));
}

/**
 * Records of extract JSONL files. A record is skipped (counted by reason, never thrown) when it
 * is not JSON, lacks `file`, has neither a non-empty `expected_text` nor `must_contain`, or its
 * page cannot be read. `url` may be null (a placeholder base is used). `source` is the file's
 * name without `.jsonl` (scrapinghub_dev and _more share one upstream).
 */
export function loadRecords(files: readonly string[]): { records: EvalRecord[]; skipped: Map<string, number> } {
  const records: EvalRecord[] = [];
  const skipped = new Map<string, number>();
  const skip = (why: string) => skipped.set(why, (skipped.get(why) ?? 0) + 1);
  for (const file of files) {
    const source = path.basename(file).replace(/\.jsonl$/, '');
    for (const { record: r } of jsonObjects(readFileSync(file, 'utf8'), skip)) {
      if (typeof r.file !== 'string') {
        skip('no file');
        continue;
      }
      const expected = typeof r.expected_text === 'string' && r.expected_text.trim() !== '' ? r.expected_text : null;
      const mc = r.must_contain;
      const mustContain = Array.isArray(mc) ? mc.filter((x): x is string => typeof x === 'string' && x.trim() !== '') : typeof mc === 'string' && mc.trim() !== '' ? [mc] : [];
      if (expected === null && mustContain.length === 0) {
        skip('no expected_text or must_contain');
        continue;
      }
      let bytes: Buffer;
      try {
        bytes = readFileSync(path.resolve(path.dirname(file), r.file));
        if (r.file.endsWith('.gz')) bytes = gunzipSync(bytes);
      } catch {
        skip('page file unreadable');
        continue;
      }
      const decoded = decodeBody(bytes, null, true);
      records.push({
        id: typeof r.id === 'string' ? r.id : r.file,
        source,
        url: typeof r.url === 'string' && URL.canParse(r.url) ? r.url : 'https://page.invalid/',
        html: decoded.text,
        expected,
        mustContain,
        charset: typeof r.charset === 'string' ? r.charset : null,
        decodedAs: decoded.charset,
      });
    }
  }
  return { records, skipped };
}

/** Characters that are not white space. */
export function visibleChars(text: string): number {
  return text.replace(/\s+/g, '').length;
}

/** Lower-cased letters and digits only: Markdown markers, escapes, punctuation and white space do not decide a match. */
export function snippetKey(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

const HAN_KANA = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]/gu;

/**
 * Sentence snippets of a text: each line split after . ! ? (followed by white space) and after
 * 。！？ (anywhere); a snippet has at least 6 words, or at least 12 Han/kana characters. This is the
 * shape of the snippets of the unseen measurement: sentences of the main text, searched for in the
 * output with Markdown and white space ignored.
 */
export function sentenceSnippets(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\n+/)) {
    for (const s of line.split(/(?<=[.!?])\s+(?=\P{Ll})|(?<=[。！？])/u)) {
      const t = s.trim();
      if (t === '') continue;
      const words = t.split(/\s+/).length;
      const cjk = t.match(HAN_KANA)?.length ?? 0;
      if (cjk >= 12 || (words >= 6 && snippetKey(t).length >= 20)) out.push(t);
    }
  }
  return out;
}

/** Mercury's comparison: the snippet occurs in the text once all white space is removed on both sides. */
export function snippetFound(text: string, snippet: string): boolean {
  return text.replace(/\s+/g, '').includes(snippet.replace(/\s+/g, ''));
}


/** Mean exact tokens per histogram slot over all pieces of the pages, each page weighted equally. */
function calibrationTable(htmls: readonly string[], memo = new Map<string, number>(), pageWeights?: readonly number[]): Float64Array {
  const width = PIECE_TABLE_SHAPE.kinds * (PIECE_TABLE_SHAPE.maxLen + 1);
  const tokens = new Float64Array(width);
  const pieces = new Float64Array(width);
  for (const [p, html] of htmls.entries()) {
    const starts: number[] = [];
    const hist = pieceHistogram(html, starts);
    const weight = (pageWeights?.[p] ?? 1) / Math.max(1, countTokens(html, 'o200k_base'));
    for (let q = 0; q < starts.length; q += 2) {
      const piece = html.slice(starts[q]!, q + 2 < starts.length ? starts[q + 2]! : html.length);
      let n = memo.get(piece);
      if (n === undefined) {
        n = countTokens(piece, 'o200k_base');
        memo.set(piece, n);
      }
      tokens[starts[q + 1]!]! += n * weight;
    }
    for (let i = 0; i < width; i++) pieces[i]! += hist[i]! * weight;
  }
  const row = PIECE_TABLE_SHAPE.maxLen + 1;
  const table = new Float64Array(width);
  for (let i = 0; i < width; i++) table[i] = pieces[i]! > 0 ? +(tokens[i]! / pieces[i]!).toFixed(3) : Math.max(1, +((i % row) / 3).toFixed(3));
  return table;
}

/** Each source weighs the same in the table, whatever its number of pages (each page 1 / pages of its source). */
function sourceWeights(sources: readonly string[]): number[] {
  const n = new Map<string, number>();
  for (const s of sources) n.set(s, (n.get(s) ?? 0) + 1);
  return sources.map((s) => 1 / n.get(s)!);
}

function calibrateTokens(htmls: readonly string[], sources: readonly string[]): void {
  const table = calibrationTable(htmls, new Map(), sourceWeights(sources));
  const row = PIECE_TABLE_SHAPE.maxLen + 1;
  const lines: string[] = [];
  for (let k = 0; k < PIECE_TABLE_SHAPE.kinds; k++) lines.push('  ' + Array.from(table.subarray(k * row, (k + 1) * row), String).join(', ') + ',');
  console.log(`export const PIECE_TOKENS: Float64Array = Float64Array.from([\n${lines.join('\n')}\n]);`);
}

/**
 * How the estimate does on pages its table was not measured on: leave one source out (table
 * from the other sources, error on the one left out) and a two-fold split (even/odd pages).
 */
function heldOutTokens(htmls: readonly string[], sources: readonly string[]): void {
  const memo = new Map<string, number>();
  const exact = htmls.map((h) => countTokens(h, 'o200k_base'));
  const err = (i: number, table: Float64Array) => estimateFromHistogram(pieceHistogram(htmls[i]!), table) / exact[i]! - 1;
  const summary = (errors: number[]) => {
    const abs = errors.map(Math.abs);
    return `mean |error| ${((abs.reduce((a, b) => a + b, 0) / abs.length) * 100).toFixed(1)}%, worst ${(Math.max(...abs) * 100).toFixed(1)}%, within 5%: ${abs.filter((e) => e <= 0.05).length}/${abs.length}`;
  };
  const table = (keep: (i: number) => boolean) => {
    const idx = htmls.map((_, i) => i).filter(keep);
    return calibrationTable(idx.map((i) => htmls[i]!), memo, sourceWeights(idx.map((i) => sources[i]!)));
  };
  for (const src of [...new Set(sources)]) {
    const t = table((i) => sources[i] !== src);
    const test = htmls.map((_, i) => i).filter((i) => sources[i] === src);
    console.log(`HTML token estimate, table without ${src}, error on ${src}: ${summary(test.map((i) => err(i, t)))}`);
  }
  for (const half of [0, 1]) {
    const t = table((i) => i % 2 === half);
    const test = htmls.map((_, i) => i).filter((i) => i % 2 !== half);
    console.log(`HTML token estimate, table from the ${half === 0 ? 'even' : 'odd'} pages, error on the ${half === 0 ? 'odd' : 'even'} ones: ${summary(test.map((i) => err(i, t)))}`);
  }
}

interface Scored {
  readonly rec: EvalRecord;
  /** Word tokens (Han/kana by character); null without a full reference. */
  readonly words: Counts | null;
  /** The benchmark's 4-gram shingles of `\w+` tokens; null without a full reference. */
  readonly grams: Counts | null;
  /** Output under a fifth of the reference's visible characters. */
  readonly short: boolean;
  readonly snippetsFound: number;
  readonly ms: number;
  /** The output reduced to text (markdownToText). */
  readonly text: string;
  /** Sentence snippets of the reference, and those found in the output (0/0 without a reference). */
  readonly sentences: number;
  readonly sentencesFound: number;
  /** Sentence snippets of the output, and those that occur nowhere in the reference (0/0 without one). */
  readonly outSentences: number;
  readonly outsideReference: number;
  /** Of those outside the reference, how many are also outside the other extractor's output (set by `compareOutside`; null without a baseline). */
  outsideBoth: number | null;
}

function score(rec: EvalRecord, md: string, ms: number): Scored {
  const text = markdownToText(md);
  const words = rec.expected === null ? null : shingleMatch(rec.expected, text, 1, true);
  const grams = rec.expected === null ? null : shingleMatch(rec.expected, text, 4);
  const short = rec.expected !== null && visibleChars(text) < visibleChars(rec.expected) / 5;
  const snippetsFound = rec.mustContain.filter((s) => snippetFound(text, s)).length;
  let sentences = 0;
  let sentencesFound = 0;
  let outSentences = 0;
  let outsideReference = 0;
  if (rec.expected !== null) {
    const got = snippetKey(text);
    for (const s of sentenceSnippets(rec.expected)) {
      sentences++;
      if (got.includes(snippetKey(s))) sentencesFound++;
    }
    const ref = snippetKey(rec.expected);
    for (const s of sentenceSnippets(text)) {
      outSentences++;
      if (!ref.includes(snippetKey(s))) outsideReference++;
    }
  }
  return { rec, words, grams, short, snippetsFound, ms, text, sentences, sentencesFound, outSentences, outsideReference, outsideBoth: null };
}

/** Boilerplate proxy: output sentences in neither the reference nor the other extractor's output. */
function compareOutside(a: Scored, b: Scored): void {
  if (a.rec.expected === null) return;
  const ref = snippetKey(a.rec.expected);
  const count = (x: Scored, other: string) => sentenceSnippets(x.text).filter((s) => !ref.includes(snippetKey(s)) && !other.includes(snippetKey(s))).length;
  a.outsideBoth = count(a, snippetKey(b.text));
  b.outsideBoth = count(b, snippetKey(a.text));
}

const sum = (rows: readonly Scored[], f: (r: Scored) => number) => rows.reduce((a, r) => a + f(r), 0);
const pct = (n: number, d: number) => (d > 0 ? `${((n / d) * 100).toFixed(1)}%` : '–');

function summarize(rows: readonly Scored[]): string {
  const full = rows.filter((r) => r.words !== null);
  const snippets = rows.reduce((a, r) => a + r.rec.mustContain.length, 0);
  const found = rows.reduce((a, r) => a + r.snippetsFound, 0);
  const w = full.length > 0 ? prf(full.map((r) => r.words!)) : null;
  const g = full.length > 0 ? prf(full.map((r) => r.grams!)) : null;
  const f = (x: number | undefined) => (x === undefined ? '–' : x.toFixed(3));
  const shortN = full.filter((r) => r.short).length;
  const ms = rows.reduce((a, r) => a + r.ms, 0) / Math.max(1, rows.length);
  return [
    String(rows.length),
    f(w?.precision),
    f(w?.recall),
    f(w?.f1),
    f(g?.f1),
    full.length > 0 ? `${shortN}/${full.length}` : '–',
    snippets > 0 ? `${found}/${snippets} (${((found / snippets) * 100).toFixed(1)}%)` : '–',
    pct(sum(full, (r) => r.sentencesFound), sum(full, (r) => r.sentences)),
    full.length > 0 ? String(full.filter((r) => r.sentencesFound < 0.9 * r.sentences).length) : '–',
    pct(sum(full, (r) => r.outsideReference), sum(full, (r) => r.outSentences)),
    full.some((r) => r.outsideBoth === null) ? '–' : pct(sum(full, (r) => r.outsideBoth!), sum(full, (r) => r.outSentences)),
    ms.toFixed(2),
  ].join(' | ');
}

function main(): void {
  if (args.includes('--calibrate-tokens') || args.includes('--held-out-tokens')) {
    const { records } = loadRecords(extractFiles(dir));
    const htmls = records.map((r) => r.html);
    const sources = records.map((r) => r.source);
    if (args.includes('--calibrate-tokens')) calibrateTokens(htmls, sources);
    else heldOutTokens(htmls, sources);
    return;
  }
  const fileArgs = args.flatMap((a, i) => (a === '--file' && args[i + 1] !== undefined ? [args[i + 1]!] : []));
  const files = fileArgs.length > 0 ? fileArgs : extractFiles(dir);
  const { records, skipped } = loadRecords(files);
  const withBaseline = !args.includes('--no-baseline');
  console.log(`API-01 extraction: ${records.length} pages from ${files.map((f) => path.relative(process.cwd(), f)).join(', ')}`);
  for (const [why, n] of skipped) console.log(`skipped ${n} record(s): ${why}`);
  // WHATWG: the gbk decoder is the gb18030 decoder.
  const same = (a: string, b: string) => a === b || (a === 'gbk' && b === 'gb18030') || (a === 'gb18030' && b === 'gbk');
  const charsetMisses = records.filter((r) => r.charset !== null && !same(r.charset, r.decodedAs));
  const withCharset = records.filter((r) => r.charset !== null).length;
  if (withCharset > 0) console.log(`charset (no header: BOM, <meta>, sniffing) agrees with the record on ${withCharset - charsetMisses.length}/${withCharset} pages${charsetMisses.length > 0 ? `; differs: ${charsetMisses.map((r) => `${r.id} ${r.decodedAs}≠${r.charset}`).join(', ')}` : ''}`);

  const noNames = args.includes('--no-names');
  if (noNames) console.log('--no-names: every class and id attribute removed from the pages (both extractors)');
  const plainTags = args.includes('--plain-tags');
  if (plainTags) console.log('--plain-tags: <article>, <main>, <nav>, <aside>, <header>, <footer>, <section> read as <div>, role attributes removed (both extractors)');
  const ours: Scored[] = [];
  const base: Scored[] = [];
  for (const rec of records) {
    let html = noNames ? rec.html.replace(NAME_ATTR_RE, '') : rec.html;
    if (plainTags) html = html.replace(SECTIONING_TAG_RE, '<$1div').replace(ROLE_ATTR_RE, '');
    let t0 = performance.now();
    const md = extractMarkdown({ html, url: rec.url, includeLinks: false }).markdown;
    ours.push(score(rec, md, performance.now() - t0));
    if (withBaseline) {
      t0 = performance.now();
      let baseMd = '';
      try {
        baseMd = readabilityBaseline(html);
      } catch {
        baseMd = '';
      }
      base.push(score(rec, baseMd, performance.now() - t0));
      compareOutside(ours.at(-1)!, base.at(-1)!);
    }
  }
  if (verbose) {
    const f1 = (c: Counts | null) => (c === null ? '  –  ' : prf([c]).f1.toFixed(3));
    const rows = ours.map((o, i) => ({ o, b: base[i] }));
    rows.sort((x, y) => (x.o.words ? prf([x.o.words]).f1 : x.o.snippetsFound / x.o.rec.mustContain.length) - (y.o.words ? prf([y.o.words]).f1 : y.o.snippetsFound / y.o.rec.mustContain.length));
    for (const { o, b } of rows) {
      const snip = o.rec.mustContain.length > 0 ? ` snippets ${o.snippetsFound}/${o.rec.mustContain.length}${b ? ` (baseline ${b.snippetsFound})` : ''}` : '';
      console.log(`${o.rec.source.padEnd(16)} ${o.rec.id.slice(0, 40).padEnd(40)} wordF1 ${f1(o.words)}${b ? ` (baseline ${f1(b.words)})` : ''}${o.short ? ' SHORT' : ''}${snip}`);
    }
    console.log('');
  }
  if (args.includes('--misses')) {
    for (const [i, o] of ours.entries()) {
      if (o.sentencesFound === o.sentences) continue;
      const got = snippetKey(o.text);
      const b = base[i];
      console.log(`\n${o.rec.source} ${o.rec.id}: ${o.sentencesFound}/${o.sentences} sentences${b ? ` (baseline ${b.sentencesFound})` : ''}`);
      for (const s of sentenceSnippets(o.rec.expected!)) if (!got.includes(snippetKey(s))) console.log(`  - ${b && snippetKey(b.text).includes(snippetKey(s)) ? '[baseline has it] ' : ''}${s.slice(0, 140)}`);
    }
  }
  if (args.includes('--outside')) {
    for (const [i, o] of ours.entries()) {
      if (o.outsideReference === 0) continue;
      const ref = snippetKey(o.rec.expected!);
      const b = base[i];
      const other = b ? snippetKey(b.text) : '';
      console.log(`\n${o.rec.source} ${o.rec.id}: ${o.outsideReference}/${o.outSentences} output sentences outside the reference${b ? ` (baseline ${b.outsideReference}/${b.outSentences})` : ''}`);
      for (const s of sentenceSnippets(o.text)) if (!ref.includes(snippetKey(s))) console.log(`  + ${b && other.includes(snippetKey(s)) ? '[baseline too] ' : ''}${s.slice(0, 140)}`);
    }
  }
  const sources = [...new Set(records.map((r) => r.source))];
  console.log('\nword tokens (Han and kana by character); 4-gram = the benchmark\'s shingles of \\w+ tokens; short = output < 1/5 of the reference\'s visible characters');
  console.log('sentences found = sentence snippets of the reference (>= 6 words or >= 12 Han/kana) found in the output, letters and digits only; pages < 90% = pages missing more than a tenth of them;');
  console.log('outside ref = output sentences found nowhere in the reference (a boilerplate proxy); outside both = also not in the other extractor\'s output\n');
  console.log('| extractor | source | pages | word P | word R | word F1 | 4-gram F1 | short | snippets found | sentences found | pages < 90% | outside ref | outside both | ms/page |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const [name, rows] of [['API-01', ours], ['Readability+linkedom+turndown', base]] as const) {
    if (rows.length === 0) continue;
    for (const src of sources) console.log(`| ${name} | ${src} | ${summarize(rows.filter((r) => r.rec.source === src))} |`);
    if (sources.length > 1) console.log(`| ${name} | **pooled** | ${summarize(rows)} |`);
  }
  if (records.length === 0) {
    console.log('\nno usable record: nothing to score');
    return;
  }
  if (withBaseline) {
    const o = ours.reduce((a, r) => a + r.ms, 0);
    const b = base.reduce((a, r) => a + r.ms, 0);
    console.log(`\ntime, one thread, in process: API-01 ${(o / ours.length).toFixed(2)} ms/page, baseline ${(b / base.length).toFixed(2)} ms/page (${(b / o).toFixed(1)}x)`);
  }
  if (!args.includes('--no-tokens')) {
    for (const src of sources) {
      const errors = records.filter((r) => r.source === src).map(({ html }) => estimateHtmlTokens(html) / countTokens(html, 'o200k_base') - 1);
      const worst = Math.max(...errors.map(Math.abs));
      const mean = errors.reduce((a, e) => a + Math.abs(e), 0) / errors.length;
      const within = errors.filter((e) => Math.abs(e) <= 0.05).length;
      console.log(`HTML token estimate vs exact o200k_base, ${src}: mean |error| ${(mean * 100).toFixed(1)}%, worst page ${(worst * 100).toFixed(1)}%, within 5%: ${within}/${errors.length}`);
    }
  }
}

// Run only as a script: tests import the scoring functions.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main();
