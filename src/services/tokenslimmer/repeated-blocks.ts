/**
 * API-09 structure pass (structure.ts): quoted replies that repeat earlier lines, repeated signature
 * blocks and repeated runs of lines go; the first occurrence stays.
 */
import { OPTION_ITEM_RE, OPTION_LINE_RE, OPTIONS_HEADER_RE, OPTIONS_INLINE_RE } from './patterns.ts';
import { isCodeLine, Kind, NON_BLANK_RE } from './line-kinds.ts';

const SIGNATURE_RE = /^--[ \t]?$/;
/** Two lines said again are a block from about 20 words on; fewer are often two records said twice (two log lines). */
const BLOCK_MIN_LINES = 2;
const BLOCK_MIN_CHARS = 100;
/** Boilerplate blocks are short; a longer run is not followed further (and the search stays linear). */
const BLOCK_MAX_LINES = 16;
/** A block of 3+ short lines (a sign-off with name and title) counts from this size. */
const SHORT_BLOCK_MIN_CHARS = 24;
const SIGNATURE_MAX_LINES = 6;
/**
 * Lines longer than this take no part in repeated blocks (dedupe.ts drops a long line said again
 * on its own); they are still remembered when the text holds quoted lines, which may repeat them.
 */
const BLOCK_LINE_MAX_CHARS = 200;

/** Keys of the prose lines seen so far (quote marks and blanks stripped), and where each block starts. */
export class BlockSeen {
  /**
   * Key of every prose line seen so far → the key of the line after its first occurrence ('' at a
   * block's end); signatures under "\u0001" + their text. One map: one hash per line.
   */
  readonly after = new Map<string, string>();
}

/** True when the line opens with ">" after its indentation. */
function isQuoted(line: string): boolean {
  let k = 0;
  let c = line.charCodeAt(0);
  while (c === 32 || c === 9) c = line.charCodeAt(++k);
  return c === 62;
}

/** A line's text for repeat detection: quote marks and indentation off, blank runs as one space. */
function quoteKey(line: string): string {
  let k = 0;
  for (let c = line.charCodeAt(0); c === 32 || c === 9 || c === 62; c = line.charCodeAt(++k));
  if (k === 0) return line; // most lines: as they are
  const t = line.slice(k);
  return BLANK_RUN_RE.test(t) ? t.replace(/[ \t]+/g, ' ').trimEnd() : t;
}
/** Two blanks in a row, a tab, or a blank at the end: the key needs rewriting. */
const BLANK_RUN_RE = /[ \t][ \t]|\t|[ \t]$/;
/** A line that opens with a short label: a turn or a step of a demonstration. */
const LABEL_RE = /^[ \t]*[^:\s][^:]{0,24}:(?:[ \t]|$)/;
const isBlankLine = (line: string): boolean => line === '' || !NON_BLANK_RE.test(line);
/** Answer options and their headers are never part of a dropped block (each question keeps its own). */
const mayBeOption = (line: string): boolean => OPTION_LINE_RE.test(line) || OPTION_ITEM_RE.test(line) || OPTIONS_INLINE_RE.test(line) || OPTIONS_HEADER_RE.test(line);

/**
 * Drops quoted replies that repeat what was said, repeated signature blocks and repeated runs of
 * lines (BLOCK_MIN_LINES+ and BLOCK_MIN_CHARS+, or 3+ lines and SHORT_BLOCK_MIN_CHARS+), keeping
 * the first occurrence. Lines of tables, JSON, columns and code end a run; a run holding an answer
 * option stays.
 */
export function dropRepeats(lines: string[], kinds: Uint8Array, seen: BlockSeen): void {
  const n = lines.length;
  const after = seen.after;
  // Each line's key, computed once (lines are read up to three times).
  const keys: (string | undefined)[] = new Array(n);
  let quotes = false;
  for (let i = 0; i < n && !quotes; i++) quotes = kinds[i] === Kind.Prose && isQuoted(lines[i]!);
  const key = (i: number): string => {
    if (kinds[i] !== Kind.Prose || (!quotes && lines[i]!.length > BLOCK_LINE_MAX_CHARS) || isCodeLine(lines[i]!)) return '';
    let k = keys[i];
    if (k === undefined) keys[i] = k = quoteKey(lines[i]!);
    return k;
  };
  const drop = (from: number, to: number): void => {
    for (let k = from; k < to; k++) lines[k] = '\u0000';
  };
  let i = 0;
  while (i < n) {
    if (kinds[i] !== Kind.Prose) {
      i++;
      continue;
    }
    // A quoted reply: the run of lines opening with ">" (blank quoted lines included).
    if (quotes && isQuoted(lines[i]!)) {
      let j = i;
      let allSeen = true;
      let any = false;
      for (; j < n && kinds[j] === Kind.Prose && isQuoted(lines[j]!); j++) {
        const k = key(j);
        if (k === '') continue;
        any = true;
        if (allSeen && !after.has(k)) allSeen = false;
      }
      // An inline reply answers right under the quote ("> Can you do Tuesday?" / "Yes, Tuesday
      // works."): there the quote is the question the answer needs, and stays.
      const answered = j < n && kinds[j] === Kind.Prose && lines[j]!.trim() !== '';
      if (any && allSeen && !answered) drop(i, j);
      else for (let k = i; k < j; k++) remember(after, key(k), k + 1 < j ? key(k + 1) : '');
      i = j;
      continue;
    }
    const line = lines[i]!;
    // A signature: "-- " and up to SIGNATURE_MAX_LINES lines under it, to a blank line.
    if (line.charCodeAt(0) === 45 && SIGNATURE_RE.test(line)) {
      let j = i + 1;
      while (j < n && j - i <= SIGNATURE_MAX_LINES && kinds[j] === Kind.Prose && !isQuoted(lines[j]!)) j++;
      const sig = '\u0001' + lines.slice(i, j).map(quoteKey).join('\n');
      if (j - i >= 2 && after.has(sig)) drop(i, j);
      else after.set(sig, '');
      i = j;
      continue;
    }
    // A repeated run: this line and the following ones as after a first occurrence.
    const k0 = key(i);
    let j = i;
    let chars = 0;
    if (k0 !== '' && after.has(k0)) {
      let expect = k0;
      while (j < n && j - i < BLOCK_MAX_LINES && expect !== '' && kinds[j] === Kind.Prose && key(j) === expect && !isQuoted(lines[j]!)) {
        chars += expect.length;
        expect = after.get(expect)!;
        j++;
      }
      const lineCount = j - i;
      // Boilerplate closes a paragraph (a sign-off, a footer); a repeated run inside one, or one
      // that opens with a labelled line ("A:", "(1) Turn around:"), is a demonstration's own text.
      const closes = j >= n || kinds[j] !== Kind.Prose || isBlankLine(lines[j]!);
      if (closes && ((lineCount >= BLOCK_MIN_LINES && chars >= BLOCK_MIN_CHARS) || (lineCount >= 3 && chars >= SHORT_BLOCK_MIN_CHARS))) {
        let keep = LABEL_RE.test(lines[i]!);
        for (let k = i; k < j && !keep; k++) keep = mayBeOption(lines[k]!);
        if (!keep) {
          drop(i, j);
          i = j;
          continue;
        }
      }
    }
    remember(after, k0, i + 1 < n ? key(i + 1) : '');
    i++;
  }
}

function remember(after: Map<string, string>, k: string, next: string): void {
  if (k !== '' && !after.has(k)) after.set(k, next);
}
