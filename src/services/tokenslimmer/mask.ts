/**
 * Masking for API-09 (core.ts): what must stay byte for byte is replaced by placeholders before
 * the rules run, and restored after. Blocks (code, JSON, indented code, table rows, lines with
 * reserved characters) are masked as whole lines here; inline spans by patterns.ts#maskProtected.
 */
import { oneByteCopy } from '../../tokenizer/index.ts';
import { codeBlocks, INDENTED_CODE_RE, optionReader, TABLE_ROW_RE } from './patterns.ts';
import { jsonBudget, jsonEnd, jsonStart } from './json-compact.ts';
import { TREE_LINE_RE } from './line-kinds.ts';
import { SPOKEN_TURN_RE } from './rules.ts';
import { INVISIBLE_RE } from './surface.ts';
import { LABEL_LINE_MARK, LINE_MARK } from './words.ts';

/**
 * Placeholders are built from C0 control characters, \x0E + the index in base 16 written with
 * \x10-\x1F + \x0F, so a Latin-1 prompt stays a one-byte string in V8: regular expressions (and
 * the tokenizer afterwards) run about twice as fast on one-byte strings as on two-byte ones.
 * Lines of the input that hold any reserved control character (\x01-\x04, \x0E-\x1F) are kept
 * whole, so an input can never forge a placeholder or a line mark.
 */
const RESERVED_RE = /[\x01-\x04\x0E-\x1F]/;

function placeholder(i: number): string {
  let digits = '';
  do {
    digits = String.fromCharCode(0x10 + (i & 15)) + digits;
    i >>>= 4;
  } while (i > 0);
  return `\x0E${digits}\x0F`;
}

/** Interning masker: one placeholder per distinct protected text. Lives for one pass. */
export class Masker {
  readonly #spans: string[] = [];
  readonly #ids = new Map<string, string>();
  /** Placeholders of answer-option lines: a paragraph holding one is never dropped as a repeat. */
  readonly options = new Set<string>();

  mask = (span: string): string => this.maskRaw(this.restore(span)); // a span may enclose an earlier placeholder

  /** Masks `full` as it is: for input lines that hold reserved characters (a forged placeholder stays text). */
  maskRaw(full: string): string {
    let ph = this.#ids.get(full);
    if (ph === undefined) {
      ph = placeholder(this.#spans.length);
      this.#spans.push(full);
      this.#ids.set(full, ph);
    }
    return ph;
  }

  /** `text` with its placeholders (\x0E, index digits \x10-\x1F, \x0F; found with indexOf) replaced by their spans. */
  restore(text: string): string {
    if (this.#spans.length === 0) return text;
    let at = text.indexOf('\x0E');
    if (at === -1) return text;
    let out = '';
    let copied = 0;
    for (; at !== -1; at = text.indexOf('\x0E', at + 1)) {
      let i = 0;
      let k = at + 1;
      for (let c = text.charCodeAt(k); c >= 0x10 && c <= 0x1f; c = text.charCodeAt(++k)) i = i * 16 + c - 0x10;
      if (k === at + 1 || text.charCodeAt(k) !== 0x0f) continue; // not a placeholder
      const span = this.#spans[i];
      if (span === undefined) continue;
      out += text.slice(copied, at) + span;
      copied = k + 1;
      at = k;
    }
    return copied === 0 ? text : out + text.slice(copied);
  }
}

/** A Latin-1-only string rebuilt as a one-byte string (replace() chains leave two-byte ones). */
export function oneByte(s: string): string {
  return /[^\x00-\xff]/.test(s) ? s : oneByteCopy(s);
}


/**
 * Masks what is kept whole: code blocks, JSON documents (minified), indented code, table rows,
 * and lines that already hold private-use characters. Every other non-blank line gets a line
 * mark so the rules can tell a line they emptied from a blank line of the input.
 */
export function maskBlocks(text: string, masker: Masker): string {
  // Most prompts hold no code block: three includes() (memchr speed) spare the multi-line scan.
  if (!text.includes('``') && !text.includes('~~~') && !text.includes('<')) return maskLines(text, masker);
  let out = '';
  let last = 0;
  for (const m of codeBlocks(text)) {
    out += maskLines(text.slice(last, m.index), masker);
    let block = m[0];
    if (block.endsWith('\n')) block = block.slice(0, -1);
    out += masker.maskRaw(block);
    last = m.index + block.length;
  }
  return out + maskLines(text.slice(last), masker);
}

function maskLines(chunk: string, masker: Masker): string {
  if (chunk === '') return chunk;
  const lines = (hasInvisible(chunk) ? chunk.replace(INVISIBLE_OUTSIDE_QUOTES_RE, keepQuoted) : chunk).split('\n');
  // Reserved characters are rare: one scan of the chunk spares a regex call per line.
  const reserved = RESERVED_RE.test(chunk);
  const isOption = optionReader();
  const budget = jsonBudget(lines);
  /** The line before is a list item that was not masked (a nested item may follow it). */
  let listAbove = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const underItem = listAbove;
    listAbove = false;
    // A unified diff's hunk outside a fence: its header and the lines its counts cover stay
    // verbatim (the spaces after `-`/`+` are the code's indentation, a patch applies only as written).
    if (line.charCodeAt(0) === 64 /* @ */ && line.startsWith('@@ ')) {
      const end = hunkEnd(lines, i);
      if (end !== -1) {
        for (let k = i; k <= end; k++) lines[k] = LABEL_LINE_MARK + masker.maskRaw(lines[k]!);
        i = end;
        continue;
      }
    }
    // Answer options stay verbatim (every level), like table rows.
    if (isOption(line)) {
      const ph = masker.maskRaw(line);
      masker.options.add(ph);
      lines[i] = LABEL_LINE_MARK + ph;
      continue;
    }
    const trimmed = line.trim();
    if (trimmed === '') continue;
    // A line of a translation pair ("English: Please do not reset the device."): its text is what
    // the task works on, and keeps every word (the word rules would drop its "Please").
    const payload = line.includes(':') ? PAYLOAD_LABEL_RE.exec(line) : null;
    if (payload !== null) {
      lines[i] = LABEL_LINE_MARK + payload[0] + masker.maskRaw(line.slice(payload[0].length));
      continue;
    }
    // Indented code is kept whole below, whatever it holds ("    if  (a)  {}").
    const col = (line.includes('{') || line.includes('[')) && !INDENTED_CODE_RE.test(line) ? jsonStart(line) : -1;
    if (col !== -1) {
      // json-compact.ts compacted what round-trips; the rest stays as written, whole.
      const last = jsonEnd(lines, i, col, budget);
      if (last !== -1) {
        let indent = 0;
        while (line.charCodeAt(indent) === 32 || line.charCodeAt(indent) === 9) indent++;
        const json = lines.slice(i, last + 1).join('\n').slice(col);
        lines[i] = line.slice(0, Math.min(indent, col)) + LABEL_LINE_MARK + line.slice(Math.min(indent, col), col) + masker.maskRaw(json);
        lines.splice(i + 1, last - i);
        continue;
      }
    }
    // An indented list item right under a list item is a nested item, not code: indented code
    // cannot interrupt a paragraph or a list item (CommonMark 4.4).
    const nested = underItem && LIST_ITEM_RE.test(trimmed);
    // A tab inside a line: cells of a table (fixed-width.ts writes aligned columns that way).
    // A line that a caret line under it points into (Postgres `LINE 3:     o.region,` over `   ^`,
    // a Python 3.11 traceback's `^^^^`) keeps its spaces: the caret's column is counted in them.
    const pointed = i + 1 < lines.length && lines[i + 1]!.includes('^') && POINTER_LINE_RE.test(lines[i + 1]!);
    if ((INDENTED_CODE_RE.test(line) && !nested) || pointed || TREE_LINE_RE.test(line) || (line.includes(':') && SOURCE_LINE_RE.test(line)) || TABLE_ROW_RE.test(line) || (reserved && RESERVED_RE.test(line)) || (line.includes('\t') && INNER_TAB_RE.test(line) && !line.includes('  '))) {
      lines[i] = LABEL_LINE_MARK + masker.maskRaw(line);
      continue;
    }
    // The mark goes after the indentation: spaces that a removal leaves after it are dropped later.
    // Indentation is spaces and tabs only, as dedupeAndJoin reads it: a line that opens with a
    // no-break or other Unicode space keeps it after the mark (else the mark would leak).
    let indent = 0;
    while (line.charCodeAt(indent) === 32 || line.charCodeAt(indent) === 9) indent++;
    // LINE_MARK only on a speaker turn that says something: only such a line may be dropped as a turn
    // left empty (or, in aggressive, as a mere acknowledgement). A line that merely comes to look
    // like a label after a removal ("Thanks! go A: -" → "Go A: -") is never dropped.
    lines[i] = line.slice(0, indent) + (SPOKEN_TURN_RE.test(trimmed) ? LINE_MARK : LABEL_LINE_MARK) + line.slice(indent);
    listAbove = LIST_ITEM_RE.test(trimmed);
  }
  return lines.join('\n');
}

const INNER_TAB_RE = /\S\t/;
/** A unified diff's hunk header: `@@ -12,10 +12,11 @@` (a count of 1 may be left out). */
const HUNK_RE = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;
/** Lines a hunk may hold at most: a longer count is no diff's. */
const HUNK_MAX_LINES = 10_000;

/**
 * The last line of the hunk whose header is `lines[i]`, by its counts: a context line (` `, or an
 * empty line, which editors leave of one) counts for both sides, `-` for the old, `+` for the new,
 * `\ No newline…` for neither. -1 when the lines run out or break the counts first.
 */
function hunkEnd(lines: readonly string[], i: number): number {
  const m = HUNK_RE.exec(lines[i]!);
  if (m === null) return -1;
  let old = m[1] === undefined ? 1 : Number(m[1]);
  let added = m[2] === undefined ? 1 : Number(m[2]);
  if (old + added > HUNK_MAX_LINES) return -1;
  let k = i;
  while (old > 0 || added > 0) {
    if (++k >= lines.length) return -1;
    const c = lines[k]!.charCodeAt(0);
    if (c === 45 /* - */) old--;
    else if (c === 43 /* + */) added--;
    else if (c === 32 || Number.isNaN(c)) {
      old--;
      added--;
    } else if (c !== 92 /* \ */) return -1;
    if (old < 0 || added < 0) return -1;
  }
  return k;
}
/** A caret line: spaces, then carets (and tildes), nothing else. */
/**
 * A line of source as grep -n or a compiler prints it (`app/metrics.py:12:    port = 9100`, a
 * context line `…:13-`): the code after the prefix keeps its indentation.
 */
const SOURCE_LINE_RE = /^[\w./-]{1,200}\.[A-Za-z0-9]{1,8}[:-]\d{1,7}[:-]/;

const POINTER_LINE_RE = /^[ \t]*[~^]*\^[~^ \t]*$/;
/** The label of a line in a language, as translation examples pair them ("German: Bitte …"), and its blank. */
const PAYLOAD_LABEL_RE =
  /^(?:English|German|French|Spanish|Italian|Portuguese|Dutch|Polish|Swedish|Danish|Norwegian|Finnish|Czech|Turkish|Russian|Ukrainian|Greek|Chinese|Japanese|Korean|Arabic|Hebrew|Hindi|Deutsch|Français|Español|Italiano|Português|Nederlands|Source text|Target text|Original text|Translation)(?: \((?:[A-Za-z-]{2,10})\))?:[ \t]+(?=\S)/;
/** A (trimmed) Markdown list item: a bullet or an ordinal, then a blank. */
const LIST_ITEM_RE = /^(?:[-*+]|\d{1,9}[.)])[ \t]/;
/**
 * An invisible character (INVISIBLE_RE), or a double-quoted string on one line, matched whole so
 * that what it holds stays: a zero-width space inside a JSON value or a quotation is part of the
 * value ("abc\u200Bdef" is not "abcdef"); elsewhere it goes.
 */
const INVISIBLE_OUTSIDE_QUOTES_RE = new RegExp(`"(?:[^"\\\\\\n]|\\\\.){0,400}"|${INVISIBLE_RE.source}`, 'g');
const keepQuoted = (m: string): string => (m.length > 1 ? m : '');

/** INVISIBLE_RE would match (four includes() scan faster than the class, and find nothing in a one-byte string). */
const hasInvisible = (s: string): boolean => s.includes('\u00AD') || s.includes('\u200B') || s.includes('\u2060') || s.includes('\uFEFF');
