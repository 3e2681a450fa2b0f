/**
 * `npm run eval:extract`: article-body quality of API-01 on eval/data/extract/ (the
 * scrapinghub article-extraction-benchmark dev split), and, in the same run, of the baseline
 * @mozilla/readability + linkedom + turndown.
 *
 * Scoring is the benchmark's own (evaluate.py): tokens are `\w+` runs, compared as 4-token
 * shingles; per page tp/fp/fn are normalised, precision and recall are averaged over pages and
 * F1 is computed from the two averages. Token-level (1-gram) numbers are printed beside them.
 * Markdown is reduced to plain text first (links dropped via include_links=false, fence lines
 * removed); Markdown punctuation is not a `\w` token, so it does not count either way.
 *
 * It also checks the calibrated HTML token estimate against the exact o200k_base count.
 *
 *   npm run eval:extract [-- --verbose] [-- --dir path/to/extract] [-- --calibrate-tokens] [-- --held-out-tokens]
 *
 * --calibrate-tokens re-measures the piece table of token-estimate.ts (mean exact tokens per
 * piece kind and length, pages weighted equally) and prints it as token-table.ts source.
 * --held-out-tokens prints the estimate's error on pages its table was not measured on
 * (leave-one-out, and even/odd halves).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
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
type Counts = [tp: number, fp: number, fn: number];

// turndown ships no type declarations: the one call used here is typed by hand.
type TurndownCtor = new (options: Record<string, string>) => { turndown(html: string): string };
const TurndownService = createRequire(import.meta.url)('turndown') as TurndownCtor;

const args = process.argv.slice(2);
const verbose = args.includes('--verbose');
const dirArg = args.indexOf('--dir');
const dir = dirArg >= 0 ? args[dirArg + 1]! : path.resolve(import.meta.dirname, '../eval/data/extract');

const TOKEN = /[\p{L}\p{N}\p{M}_]+/gu;

function shingles(text: string, n: number): Map<string, number> {
  const tokens = text.match(TOKEN) ?? [];
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
export function shingleMatch(truth: string, pred: string, n = 4): Counts {
  const t = shingles(truth, n);
  const p = shingles(pred, n);
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

export function loadPages(): { page: Page; html: string }[] {
  const lines = readFileSync(path.join(dir, 'scrapinghub_dev.jsonl'), 'utf8').split('\n').filter((l) => l.trim() !== '');
  return lines.map((l) => {
    const page = JSON.parse(l) as Page;
    const bytes = gunzipSync(readFileSync(path.join(dir, page.file)));
    return { page, html: decodeBody(bytes, null, true).text };
  });
}

function readabilityBaseline(html: string, url: string): string {
  const { document } = parseHTML(html);
  const article = new Readability(document as unknown as Document).parse();
  if (!article?.content) return '';
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
  void url;
  return turndown.turndown(article.content);
}

/** Mean exact tokens per histogram slot over all pieces of the pages, each page weighted equally. */
function calibrationTable(htmls: readonly string[], memo = new Map<string, number>()): Float64Array {
  const width = PIECE_TABLE_SHAPE.kinds * (PIECE_TABLE_SHAPE.maxLen + 1);
  const tokens = new Float64Array(width);
  const pieces = new Float64Array(width);
  for (const html of htmls) {
    const starts: number[] = [];
    const hist = pieceHistogram(html, starts);
    const weight = 1 / Math.max(1, countTokens(html, 'o200k_base'));
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

function calibrateTokens(htmls: readonly string[]): void {
  const table = calibrationTable(htmls);
  const row = PIECE_TABLE_SHAPE.maxLen + 1;
  const lines: string[] = [];
  for (let k = 0; k < PIECE_TABLE_SHAPE.kinds; k++) lines.push('  ' + Array.from(table.subarray(k * row, (k + 1) * row), String).join(', ') + ',');
  console.log(`export const PIECE_TOKENS: Float64Array = Float64Array.from([\n${lines.join('\n')}\n]);`);
}

/**
 * How the estimate does on pages its table was not measured on: leave-one-out (table from the
 * other pages, error on the page left out) and a two-fold split (even/odd pages).
 */
function heldOutTokens(htmls: readonly string[]): void {
  const memo = new Map<string, number>();
  const exact = htmls.map((h) => countTokens(h, 'o200k_base'));
  const err = (i: number, table: Float64Array) => estimateFromHistogram(pieceHistogram(htmls[i]!), table) / exact[i]! - 1;
  const summary = (errors: number[]) => {
    const abs = errors.map(Math.abs);
    return `mean |error| ${((abs.reduce((a, b) => a + b, 0) / abs.length) * 100).toFixed(1)}%, worst ${(Math.max(...abs) * 100).toFixed(1)}%, within 5%: ${abs.filter((e) => e <= 0.05).length}/${abs.length}`;
  };
  const loo = htmls.map((_, i) => err(i, calibrationTable(htmls.filter((_, k) => k !== i), memo)));
  console.log(`HTML token estimate, leave-one-out: ${summary(loo)}`);
  for (const half of [0, 1]) {
    const train = htmls.filter((_, k) => k % 2 === half);
    const table = calibrationTable(train, memo);
    const test = htmls.map((_, i) => i).filter((i) => i % 2 !== half);
    console.log(`HTML token estimate, table from the ${half === 0 ? 'even' : 'odd'} pages, error on the ${half === 0 ? 'odd' : 'even'} ones: ${summary(test.map((i) => err(i, table)))}`);
  }
}

function main(): void {
  const pages = loadPages();
  if (args.includes('--calibrate-tokens')) {
    calibrateTokens(pages.map((p) => p.html));
    return;
  }
  if (args.includes('--held-out-tokens')) {
    heldOutTokens(pages.map((p) => p.html));
    return;
  }
  const ours: Counts[][] = [[], []];
  const base: Counts[][] = [[], []];
  let oursMs = 0;
  let baseMs = 0;
  const rows: string[] = [];
  for (const { page, html } of pages) {
    let t0 = performance.now();
    const md = extractMarkdown({ html, url: page.url, includeLinks: false }).markdown;
    oursMs += performance.now() - t0;
    t0 = performance.now();
    let baseMd = '';
    try {
      baseMd = readabilityBaseline(html, page.url);
    } catch {
      baseMd = '';
    }
    baseMs += performance.now() - t0;
    const o4 = shingleMatch(page.expected_text, markdownToText(md), 4);
    const b4 = shingleMatch(page.expected_text, markdownToText(baseMd), 4);
    ours[0]!.push(o4);
    ours[1]!.push(shingleMatch(page.expected_text, markdownToText(md), 1));
    base[0]!.push(b4);
    base[1]!.push(shingleMatch(page.expected_text, markdownToText(baseMd), 1));
    if (verbose) {
      const f = (c: Counts) => prf([c]).f1.toFixed(3);
      rows.push(`${page.id.slice(0, 10)}  ours F1=${f(o4)} (p=${prf([o4]).precision.toFixed(2)} r=${prf([o4]).recall.toFixed(2)})  readability F1=${f(b4)}  ${new URL(page.url).hostname}`);
    }
  }
  if (verbose) console.log(rows.join('\n') + '\n');
  const line = (name: string, c: Counts[], ms: number) => {
    const m = prf(c);
    return `| ${name.padEnd(36)} | ${m.precision.toFixed(3)} | ${m.recall.toFixed(3)} | ${m.f1.toFixed(3)} | ${(ms / pages.length).toFixed(2).padStart(6)} |`;
  };
  console.log(`API-01 extraction on ${pages.length} pages of ${dir}\n`);
  console.log('| extractor (metric)                   | precision | recall | F1 | ms/page |');
  console.log('| --- | --- | --- | --- | --- |');
  console.log(line('API-01 (4-gram shingles, benchmark)', ours[0]!, oursMs));
  console.log(line('Readability+linkedom+turndown (4-gram)', base[0]!, baseMs));
  console.log(line('API-01 (word tokens)', ours[1]!, oursMs));
  console.log(line('Readability+linkedom+turndown (words)', base[1]!, baseMs));
  const o = prf(ours[0]!).f1;
  const b = prf(base[0]!).f1;
  console.log(`\nF1 difference (API-01 minus Readability, 4-gram): ${(o - b >= 0 ? '+' : '') + (o - b).toFixed(3)}`);

  const errors = pages.map(({ html }) => estimateHtmlTokens(html) / countTokens(html, 'o200k_base') - 1);
  const worst = Math.max(...errors.map(Math.abs));
  const mean = errors.reduce((a, e) => a + Math.abs(e), 0) / errors.length;
  console.log(`HTML token estimate vs exact o200k_base: mean |error| ${(mean * 100).toFixed(1)}%, worst page ${(worst * 100).toFixed(1)}%`);
}

// Run only as a script: tests import the scoring functions.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main();
