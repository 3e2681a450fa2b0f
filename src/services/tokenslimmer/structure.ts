/**
 * API-09 structure passes (every level, before masking; core.ts): structured content loses its
 * padding, never a value.
 *
 *   HTML leftovers   real HTML tags (known element names only: `List<T>`, `a < b` stay), comments
 *                    and doctypes removed; links and images become Markdown (href/src/alt are the
 *                    only attributes kept), block tags leave line breaks, <td>/<th> rows become
 *                    pipe rows; entities decoded where the text shows HTML (a tag, or 3+ entities)
 *   pipe tables      cells trimmed, delimiter rows minimal (`|:---:|` → `|:-:|`), outer pipes added
 *                    to a table written without them (the masker keeps `|…|` rows whole); once the
 *                    text is final, bareTables() takes the outer pipes off again where GFM allows
 *   JSON             an object/array with whitespace (from a line start, after a label such as
 *                    "Observation:" or "args =" or after a space on its line, or the whole body
 *                    of a ```json or bare fence) becomes compact JSON, `\/` and escaped
 *                    printable non-ASCII characters ("\u00e9") written as the characters, only
 *                    when JSON.stringify(JSON.parse(x)) gives back exactly that (1.0, 1e5,
 *                    "\u200b", duplicate keys: left as they are)
 *   WebVTT voices    `<v Ann Lee>text</v>` (in a text with cue timings) → `Ann Lee: text`
 *   Python repr      a one-line dict/list/tuple literal of strings, numbers, None/True/False as
 *                    repr() prints it ("args: {'q': 'x'}") loses the space after each "," and ":"
 *   fixed-width      3+ lines aligned in columns by runs of 2+ spaces: cells joined by one tab
 *   quoted replies   a "> " run whose every line was already said earlier in the prompt goes
 *   separators       a line of 4+ `-`, `_`, `=` or `*` becomes three of them
 *   repeated blocks  a run of 2+ lines (40+ characters) repeated verbatim goes; a signature block
 *                    ("-- " and the lines under it) repeated goes
 *
 * Code blocks (fenced, <pre>, <script>, <style>), inline code, indented code (4 spaces / tab),
 * answer options and CSV are left alone. Every scanner here is a hand-written loop or a regex
 * without nested quantifiers over one line: linear in the input. The result is a fixed point:
 * restructure(restructure(x)) === restructure(x) (test/compress-structure.test.ts).
 */
import { CODE_BLOCK_RE, INDENTED_CODE_RE, OPTION_ITEM_RE, OPTION_LINE_RE, OPTIONS_HEADER_RE, OPTIONS_INLINE_RE } from './patterns.ts';

/** Applies every structure pass to `text` (LF line ends). */
export function restructure(text: string): string {
  const mayHtml = text.includes('<') || text.includes('&');
  const mayCode = text.includes('``') || text.includes('~~~') || text.includes('<');
  const mayVtt = text.includes('<v') && text.includes('-->');
  const parts: { code: boolean; text: string }[] = [];
  if (mayCode) {
    let last = 0;
    CODE_BLOCK_RE.lastIndex = 0;
    for (const m of text.matchAll(CODE_BLOCK_RE)) {
      parts.push({ code: false, text: text.slice(last, m.index) });
      let block = m[0];
      if (block.endsWith('\n')) block = block.slice(0, -1);
      parts.push({ code: true, text: compactFencedJson(block) });
      last = m.index + block.length;
    }
    parts.push({ code: false, text: text.slice(last) });
  } else parts.push({ code: false, text });
  const seen = new BlockSeen();
  let out = '';
  for (const p of parts) {
    if (p.code) {
      out += p.text;
      continue;
    }
    let s = mayVtt ? vttVoices(p.text) : p.text;
    if (mayHtml) s = cleanHtmlOutsideBlocks(s);
    s = restructureLines(s, seen);
    out += s;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// WebVTT

/** A cue's voice span opening its line: `<v Ann Lee>`, `<v.loud Ann>`; the speaker is group 1. */
const VOICE_OPEN_RE = /^<v(?:\.[\w-]{1,40}){0,4}[ \t]+([^<>\n]{1,80})>[ \t]*/gm;
const VOICE_CLOSE_RE = /<\/v>/g;

/**
 * WebVTT voice spans (Teams, Zoom and YouTube transcripts) as transcript labels: `<v Ann Lee>Hi.</v>`
 * → `Ann Lee: Hi.`, which the transcript rules then read as a turn. Cue timings stay (numbers).
 */
function vttVoices(s: string): string {
  return s.replace(VOICE_OPEN_RE, '$1: ').replace(VOICE_CLOSE_RE, '');
}

// ---------------------------------------------------------------------------------------------
// JSON

/**
 * `s` without whitespace outside strings, if it is one JSON object or array that serialises back to
 * exactly that (JSON.stringify(JSON.parse(s)) === the result); else undefined. Inside strings,
 * `\/` and `\uXXXX` escapes of printable non-ASCII characters (letters, marks, digits,
 * punctuation, symbols: "\u00e9" → "é", a surrogate pair → its emoji) are written as the
 * characters, as JSON.stringify writes them. Left as they are: 1.0, 1e5, -0, duplicate keys, other
 * escapes ("\u200b", "\u003c", "\u0041"), and "[1 2]" (not JSON: without its space it would read
 * as [12]).
 */
export function compactJson(s: string): string | undefined {
  const first = s.charCodeAt(0);
  if (first !== 123 && first !== 91) return undefined;
  let value: unknown;
  try {
    // `s` itself must be JSON: "[1 2]" would read as [12] without its space.
    value = JSON.parse(s);
  } catch {
    return undefined;
  }
  let out = '';
  let from = 0;
  let inString = false;
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (inString) {
      if (c === 92) {
        const n = s.charCodeAt(k + 1);
        const width = n === 117 ? printableEscape(s, k) : n === 47 ? 2 : 0;
        if (width > 0) {
          out += s.slice(from, k) + (n === 47 ? '/' : JSON.parse(`"${s.slice(k, k + width)}"`));
          from = k + width;
          k += width - 1;
        } else k++;
      } else if (c === 34) inString = false;
      continue;
    }
    if (c === 32 || c === 9 || c === 10 || c === 13) {
      out += s.slice(from, k);
      from = k + 1;
      continue;
    }
    if (c === 34) inString = true;
  }
  out += s.slice(from);
  return JSON.stringify(value) === out ? out : undefined;
}

/**
 * Whether compactJson could change `s`: whitespace outside its strings, or a `\/` or `\u` escape
 * inside one. A compact line is read again on every pass; this scan spares it a parse.
 */
export function mayCompact(s: string): boolean {
  let inString = false;
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (inString) {
      if (c === 92) {
        const n = s.charCodeAt(++k);
        if (n === 47 || n === 117) return true;
      } else if (c === 34) inString = false;
    } else if (c === 32 || c === 9 || c === 10 || c === 13) return true;
    else if (c === 34) inString = true;
  }
  return false;
}

/** Letters, marks, digits, punctuation and symbols: characters a reader sees (no spaces, controls, format characters). */
const PRINTABLE_RE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

/**
 * The length of the `\uXXXX` escape at `k` (12 for a surrogate pair) when it stands for a printable
 * non-ASCII character, else 0.
 */
function printableEscape(s: string, k: number): number {
  const hex = (at: number): number => (/^[0-9a-fA-F]{4}$/.test(s.slice(at, at + 4)) ? parseInt(s.slice(at, at + 4), 16) : -1);
  const u = hex(k + 2);
  if (u < 0xa0) return 0;
  if (u >= 0xd800 && u <= 0xdbff) {
    if (s.charCodeAt(k + 6) !== 92 || s.charCodeAt(k + 7) !== 117) return 0;
    const low = hex(k + 8);
    if (low < 0xdc00 || low > 0xdfff) return 0;
    return PRINTABLE_RE.test(String.fromCharCode(u, low)) ? 12 : 0;
  }
  return PRINTABLE_RE.test(String.fromCharCode(u)) ? 6 : 0;
}

const FENCE_OPEN_RE = /^([ \t]*)(`{3,}|~{3,})[ \t]*([^\n]*)\n/;

/** A fenced block whose info string is json (or empty) and whose body is compactable JSON: the body compacted. */
function compactFencedJson(block: string): string {
  const open = FENCE_OPEN_RE.exec(block);
  if (open === null) return block;
  const info = open[3]!.trim().toLowerCase();
  if (info !== '' && info !== 'json') return block;
  const body = block.slice(open[0].length);
  const close = body.lastIndexOf('\n');
  const closing = close === -1 ? '' : body.slice(close + 1);
  if (!closing.trim().startsWith(open[2]!)) return block;
  const inner = body.slice(0, close);
  const trimmed = inner.trim();
  const json = mayCompact(trimmed) ? (trimmed.charCodeAt(0) === 34 ? compactMembers(trimmed) : compactJson(trimmed)) : undefined;
  return json === undefined ? block : open[0] + json + '\n' + closing;
}

/**
 * The members of an object written without its braces, as a README shows a part of a settings
 * file (`"mcpServers": {…}`): compact when they are exactly an object's body (`{` + them + `}`
 * round-trips); a trailing comma or a lone string is not, and stays.
 */
function compactMembers(s: string): string | undefined {
  const json = compactJson('{' + s + '}');
  return json === undefined || json === '{}' ? undefined : json.slice(1, -1);
}

/**
 * A JSON value that starts at `lines[i]` (from `col`) and ends at the end of a line: its last line
 * index, or -1. Outside strings only JSON punctuation, digits and literals may occur, so a line of
 * prose that opens with "[" fails within a few characters. `shape.loose` is set when compactJson
 * could change the value's text (whitespace outside strings, a `\/` or `\u` escape; see mayCompact).
 */
export function jsonEnd(lines: readonly string[], i: number, col: number, budget: JsonBudget, shape?: { loose: boolean }): number {
  let depth = 0;
  let loose = false;
  for (let j = i; j < lines.length && j < i + 5000; j++) {
    const line = lines[j]!;
    const from = j === i ? col : 0;
    // Scans that run on without closing ("{" on every line) share one budget per text: linear.
    if (budget.left < 0) return -1;
    if (j > i) loose = true;
    let k = from;
    // The next backslash of the line, looked up again only once passed (-1: none left).
    let slash = line.indexOf('\\', from);
    for (; k < line.length; k++) {
      const c = line.charCodeAt(k);
      if (c === 32 || c === 9) {
        loose = true;
        continue;
      }
      if (c === 34) {
        // A string: jump to its closing quote, past escapes.
        for (;;) {
          const quote = line.indexOf('"', k + 1);
          if (slash !== -1 && slash <= k) slash = line.indexOf('\\', k + 1);
          if (quote === -1) {
            budget.left -= line.length - from + 1;
            return -1; // JSON strings never span lines
          }
          if (slash === -1 || slash > quote) {
            k = quote;
            break;
          }
          const e = line.charCodeAt(slash + 1);
          if (e === 47 || e === 117) loose = true;
          k = slash + 1;
        }
        continue;
      }
      if (!isJsonBare(c)) break;
      if (c === 123 || c === 91) depth++;
      else if (c === 125 || c === 93) {
        if (--depth === 0) {
          budget.left -= k - from + 1;
          if (shape !== undefined) shape.loose = loose;
          return line.slice(k + 1).trim() === '' ? j : -1;
        }
      }
    }
    budget.left -= k - from + 1;
    if (k < line.length) return -1;
  }
  return -1;
}

/** Characters the JSON scans of one text may read in all: a few times the text. */
export interface JsonBudget {
  left: number;
}
export const jsonBudget = (lines: readonly string[]): JsonBudget => ({ left: 4 * lines.reduce((n, l) => n + l.length + 1, 0) + 4096 });

/** { } [ ] , : " digits . + - e E and the letters of true/false/null. */
function isJsonBare(c: number): boolean {
  if (c >= 48 && c <= 57) return true;
  switch (c) {
    case 123: case 125: case 91: case 93: case 44: case 58: case 34: case 46: case 43: case 45:
    case 101: case 69: case 116: case 114: case 117: case 102: case 97: case 108: case 115: case 110:
      return true;
    default:
      return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Lines: tables, JSON, fixed-width columns, quoted replies, repeated blocks

const PIPE_ROW_RE = /^[ \t]*\|.*\|[ \t]*$/;
/** A GFM delimiter row: cells of `:?-+:?`, at least one pipe. */
const DELIMITER_ROW_RE = /^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
const QUOTE_RE = /^[ \t]*>/;
const NON_BLANK_RE = /\S/;
/** A line of one repeated separator character, 4+ times. */
const RULE_RE = /^([ \t]{0,3})([-_=*])\2{3,}[ \t]*$/;
const SIGNATURE_RE = /^--[ \t]?$/;
const BLOCK_MIN_LINES = 2;
const BLOCK_MIN_CHARS = 40;
/** Boilerplate blocks are short; a longer run is not followed further (and the search stays linear). */
const BLOCK_MAX_LINES = 16;
/** A block of 3+ short lines (a sign-off with name and title) counts from this size. */
const SHORT_BLOCK_MIN_CHARS = 24;
const SIGNATURE_MAX_LINES = 6;
/** Longest cell (but the last of a row) of space-aligned columns. */
const CELL_MAX_CHARS = 48;
/** Longest row of space-aligned columns; longer lines are prose. */
const ROW_MAX_CHARS = 240;
/**
 * Lines longer than this take no part in repeated blocks (dedupe.ts drops a long line said again
 * on its own); they are still remembered when the text holds quoted lines, which may repeat them.
 */
const BLOCK_LINE_MAX_CHARS = 200;

/** What a line is, for the passes that must not touch it (or that produced it). */
const enum Kind {
  Prose = 0,
  Blank,
  Table,
  Json,
  Columns,
  Kept, // indented code, answer options: verbatim, never part of a repeated block
}

function restructureLines(text: string, seen: BlockSeen): string {
  if (text === '') return text;
  const lines = text.split('\n');
  const unicode = BOX_CORNER_RE.test(text) && unicodeBoxes(lines);
  if (unicode || text.includes('-+-') || text.includes('+-')) boxTables(lines);
  const kinds = new Uint8Array(lines.length);
  const budget = jsonBudget(lines);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    // Dispatch on the indentation and the first character: most lines are plain prose.
    let k = 0;
    let c = line.charCodeAt(0);
    while (c === 32) c = line.charCodeAt(++k);
    if (k >= line.length || (c === 9 && !NON_BLANK_RE.test(line))) {
      kinds[i] = Kind.Blank;
      continue;
    }
    if (k >= 4 || line.charCodeAt(0) === 9) {
      kinds[i] = Kind.Kept; // indented code: 4 spaces, or a tab first
      continue;
    }
    if (c === 45 || c === 95 || c === 61 || c === 42) {
      // A separator line ("________", "-------", "=======") says the same with three characters; a
      // "---" or "===" under a line of text stays a setext heading underline of the same level.
      const rule = RULE_RE.exec(line);
      if (rule !== null) {
        lines[i] = rule[1]! + rule[2]!.repeat(3);
        continue;
      }
    }
    if (line.includes('|') && (PIPE_ROW_RE.test(line) || isDelimiter(line) || (i + 1 < lines.length && isDelimiter(lines[i + 1]!)))) {
      i = pipeTable(lines, kinds, i);
      continue;
    }
    const col = line.includes('{') || line.includes('[') ? jsonStart(line) : -1;
    if (col !== -1) {
      const shape = { loose: false };
      const end = jsonEnd(lines, i, col, budget, shape);
      if (end !== -1) {
        const json = shape.loose ? compactJson(lines.slice(i, end + 1).join('\n').slice(col)) : undefined;
        if (json !== undefined) {
          lines[i] = line.slice(0, col) + json;
          for (let j = i + 1; j <= end; j++) kinds[j] = Kind.Blank, (lines[j] = '\u0000');
        }
        kinds[i] = Kind.Json;
        if (json === undefined) for (let j = i + 1; j <= end; j++) kinds[j] = Kind.Json;
        i = end;
        continue;
      }
      // A Python repr on one line ("args: {'owner': {'type': 'string'}}"): the spaces repr writes after "," and ":" go.
      const literal = line.includes("'") ? pythonLiteral(line, col) : undefined;
      if (literal !== undefined) {
        lines[i] = line.slice(0, col) + literal.compact + line.slice(literal.end);
        kinds[i] = Kind.Json;
        continue;
      }
    }
    if (!NON_BLANK_RE.test(line)) kinds[i] = Kind.Blank; // other Unicode blanks
  }
  fixedWidth(lines, kinds);
  dropRepeats(lines, kinds, seen);
  return lines.filter((l) => l !== '\u0000').join('\n');
}

/**
 * Where a JSON value may open on this line: at its first non-blank character, or at the first `{`
 * or `[` of the line when a label or a space stands before it ("Observation: {…}", "args = [",
 * "<-- {"). jsonEnd then requires the value to close at the end of a line, and compactJson that it
 * parse; "see [1] below" or "[link](url)" fail within a few characters.
 */
export function jsonStart(line: string): number {
  let k = 0;
  while (line.charCodeAt(k) === 32 || line.charCodeAt(k) === 9) k++;
  const c = line.charCodeAt(k);
  if (c === 123 || c === 91) return k;
  const brace = line.indexOf('{', k);
  const bracket = line.indexOf('[', k);
  const at = brace === -1 ? bracket : bracket === -1 ? brace : Math.min(brace, bracket);
  if (at === -1) return -1;
  let b = at - 1;
  while (b >= k && (line.charCodeAt(b) === 32 || line.charCodeAt(b) === 9)) b--;
  const before = line.charCodeAt(b);
  if (before === 58 || before === 61) return at;
  // After a space, but not "if (a) {" / "f() {": code braces are no JSON (an empty body would parse).
  return b < at - 1 && before !== 41 ? at : -1;
}

/** A bare token of a Python literal: None, True, False or a number as repr writes it. */
const PY_TOKEN_RE = /^(?:None|True|False|-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)$/;

/**
 * The Python literal (a dict, list, tuple or set of strings, numbers, None, True, False, as
 * repr() prints it) that opens at `col` and holds a quoted string: its text without the one space
 * repr writes after each "," and ":", and the index after its closing bracket; undefined for
 * anything else: whitespace elsewhere outside strings, two spaces, spaces after some separators
 * but not others, an unknown word ("[it's fine]", "[a, b]"), a bracket left open on the line.
 * Only those spaces go, so putting them back gives the repr again; the compact form is read as a
 * literal too (the pass is a fixed point).
 */
export function pythonLiteral(line: string, col: number): { compact: string; end: number } | undefined {
  const closers: number[] = [];
  let spaced = 0; // 1: separators carry repr's space, 2: none do
  let strings = 0;
  let out = '';
  let from = col;
  for (let k = col; k < line.length; k++) {
    const c = line.charCodeAt(k);
    if (c === 39 || c === 34) {
      let j = k + 1;
      while (j < line.length && line.charCodeAt(j) !== c) j += line.charCodeAt(j) === 92 ? 2 : 1;
      if (j >= line.length) return undefined;
      strings++;
      k = j;
    } else if (c === 123 || c === 91 || c === 40) closers.push(c === 40 ? 41 : c + 2);
    else if (c === 125 || c === 93 || c === 41) {
      if (closers.pop() !== c) return undefined;
      if (closers.length === 0) {
        if (strings === 0 || spaced === 0) return undefined;
        return { compact: out + line.slice(from, k + 1), end: k + 1 };
      }
    } else if (c === 44 || c === 58) {
      if (c === 58 && closers[closers.length - 1] !== 125) return undefined;
      const next = line.charCodeAt(k + 1);
      if (next === 32) {
        if (spaced === 2 || line.charCodeAt(k + 2) === 32) return undefined;
        spaced = 1;
        out += line.slice(from, k + 1);
        from = k + 2;
        k++;
      } else if (!(c === 44 && next === 41)) {
        // "(1,)": a one-tuple's comma has no space after it in either form.
        if (spaced === 1) return undefined;
        spaced = 2;
      }
    } else {
      let j = k;
      while (j < line.length && /[\w.+-]/.test(line[j]!)) j++;
      if (j === k || !PY_TOKEN_RE.test(line.slice(k, j))) return undefined;
      k = j - 1;
    }
  }
  return undefined;
}

/** Splits a pipe row into its cells (pipes inside `code` or escaped do not split). */
function cells(row: string): { cells: string[]; outer: boolean } {
  let s = row.trim();
  const outer = s.startsWith('|') && s.endsWith('|') && s.length >= 2;
  if (outer) s = s.slice(1, -1);
  else if (s.startsWith('|')) s = s.slice(1);
  else if (s.endsWith('|') && s.charCodeAt(s.length - 2) !== 92) s = s.slice(0, -1);
  const out: string[] = [];
  let from = 0;
  let tick = 0; // length of the open backtick run, 0 outside code
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (c === 92) {
      k++;
      continue;
    }
    if (c === 96) {
      let n = 1;
      while (s.charCodeAt(k + n) === 96) n++;
      if (tick === 0) {
        // Only a run that closes on this row opens code.
        if (s.indexOf('`'.repeat(n), k + n) !== -1) tick = n;
      } else if (n === tick) tick = 0;
      k += n - 1;
      continue;
    }
    if (c === 124 && tick === 0) {
      out.push(s.slice(from, k).trim());
      from = k + 1;
    }
  }
  out.push(s.slice(from).trim());
  return { cells: out, outer };
}

/** The cells of a row as the compact row of the output (outer pipes, no padding). */
export function tableCells(row: string): string[] {
  return cells(row).cells;
}

const isDelimiter = (line: string): boolean => line.includes('|') && line.includes('-') && DELIMITER_ROW_RE.test(line);

/** Compacts the pipe table that starts at line `i`; returns its last line. */
function pipeTable(lines: string[], kinds: Uint8Array, i: number): number {
  let j = i;
  // Rows of a table written without outer pipes count only under (or above) a delimiter row.
  const delimiterAt = (k: number): boolean => k < lines.length && isDelimiter(lines[k]!);
  let loose = delimiterAt(i) || delimiterAt(i + 1);
  for (; j < lines.length; j++) {
    const line = lines[j]!;
    if (line.trim() === '' || !line.includes('|') || INDENTED_CODE_RE.test(line)) break;
    if (!PIPE_ROW_RE.test(line) && !loose) break;
    if (delimiterAt(j)) loose = true;
    let indent = 0;
    while (line.charCodeAt(indent) === 32 || line.charCodeAt(indent) === 9) indent++;
    const row = cells(line).cells;
    const delimiter = delimiterAt(j);
    const body = delimiter ? row.map((c) => (c.startsWith(':') ? ':' : '') + '-' + (c.length > 1 && c.endsWith(':') ? ':' : '')) : row;
    lines[j] = line.slice(0, indent) + '|' + body.join('|') + '|';
    kinds[j] = Kind.Table;
  }
  return j - 1;
}

/**
 * 1 for the rows of a table written without outer pipes (bareTables' output): the line above a
 * delimiter row and the lines under it that hold a pipe, up to a blank line. `|…|` rows are
 * recognised by PIPE_ROW_RE wherever they stand.
 */
function tableRows(lines: readonly string[]): Uint8Array {
  const rows = new Uint8Array(lines.length);
  for (let d = 1; d < lines.length; d++) {
    if (!isDelimiter(lines[d]!) || !lines[d - 1]!.includes('|')) continue;
    rows[d - 1] = 1;
    let j = d;
    for (; j < lines.length && lines[j]!.includes('|') && lines[j]!.trim() !== ''; j++) rows[j] = 1;
    d = j;
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Box tables

/** A border of an ASCII box table (MySQL, prettytable, tabulate "grid"): `+----+-------+`. */
const BOX_BORDER_RE = /^[ \t]{0,3}\+(?:[-=]+\+)+[ \t]*$/;
/** The rule under a psql header: `----+-------+-----`. */
const PSQL_RULE_RE = /^[ \t]{0,3}-+(?:\+-+)+[ \t]*$/;
/** The rule under an org-mode or tabulate "orgtbl" header: `|-----+-----|`. */
const ORG_RULE_RE = /^[ \t]{0,3}\|-+(?:\+-+)+\|[ \t]*$/;

/** The top-left corner of a table drawn with Unicode box characters (tabulate, rich, DuckDB, psql's unicode style). */
const BOX_CORNER_RE = /[┌╒╔╭┏]/;
const UNICODE_TOP_RE = /^[ \t]{0,3}[┌╒╔╭┏][─━═┬╤╦┳]+[┐╕╗╮┓][ \t]*$/;
const UNICODE_BOTTOM_RE = /^[ \t]{0,3}[└╘╚╰┗][─━═┴╧╩┻]+[┘╛╝╯┛][ \t]*$/;
const UNICODE_RULE_RE = /^[ \t]{0,3}[├╞╠┝┣][─━═┼╪╬┿╋]+[┤╡╣┥┫][ \t]*$/;
const UNICODE_ROW_RE = /^[ \t]{0,3}[│┃║].*[│┃║][ \t]*$/;

/**
 * Tables drawn with Unicode box characters, from a top border to a bottom border with only rules
 * and `│ … │` rows between, are rewritten as the ASCII box tables `boxTables` reads: corners and
 * junctions `+`, horizontal lines `-` (`═` as `=`, the header rule of tabulate's "fancy_grid"),
 * vertical lines `|`. A `tree` listing (`├── src`) has no such borders and stays. Returns whether
 * a table was rewritten.
 */
function unicodeBoxes(lines: string[]): boolean {
  let found = false;
  for (let i = 0; i < lines.length; i++) {
    if (!UNICODE_TOP_RE.test(lines[i]!)) continue;
    let j = i + 1;
    while (j < lines.length && (UNICODE_ROW_RE.test(lines[j]!) || UNICODE_RULE_RE.test(lines[j]!))) j++;
    if (j >= lines.length || j === i + 1 || !UNICODE_BOTTOM_RE.test(lines[j]!)) continue;
    for (let k = i; k <= j; k++) {
      const line = lines[k]!;
      lines[k] = UNICODE_ROW_RE.test(line) ? line.replace(/[│┃║]/g, '|') : line.replace(/[═]/g, '=').replace(/[─━]/g, '-').replace(/[^-= \t]/g, '+');
    }
    found = true;
    i = j;
  }
  return found;
}

/**
 * ASCII box tables become pipe tables (the pipe-table pass then trims them): the border under the
 * header row becomes a delimiter row, the other borders go; a psql rule under its header becomes
 * a delimiter row. Only where every border has as many columns as the header row, and, in a grid
 * with a border under every row, one line per row (a cell running over two lines stays as it is).
 */
function boxTables(lines: string[]): void {
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const psql = PSQL_RULE_RE.test(line);
    if (psql || ORG_RULE_RE.test(line)) {
      // The header opens its block (the line above it holds no pipe): a row inside a table is no
      // header. psql's header has no outer pipes, org-mode's has them.
      const head = i > 0 ? lines[i - 1]! : '';
      const above = i > 1 ? lines[i - 2]! : '';
      const cols = line.split('+').length;
      const header = psql ? head.includes('|') && !PIPE_ROW_RE.test(head) && !isDelimiter(head) : PIPE_ROW_RE.test(head);
      if (header && !above.includes('|') && cells(head).cells.length === cols) lines[i] = '|' + '-|'.repeat(cols);
      continue;
    }
    if (!BOX_BORDER_RE.test(line) || i + 1 >= lines.length || !PIPE_ROW_RE.test(lines[i + 1]!)) continue;
    // The block: borders and |…| rows from line i on.
    let j = i;
    while (j < lines.length && (BOX_BORDER_RE.test(lines[j]!) || PIPE_ROW_RE.test(lines[j]!))) j++;
    const cols = line.trim().split('+').length - 2;
    const borders: number[] = [];
    for (let k = i; k < j; k++) if (BOX_BORDER_RE.test(lines[k]!)) borders.push(k);
    let ok = borders.every((k) => lines[k]!.trim().split('+').length - 2 === cols);
    for (let k = i; k < j && ok; k++) if (!BOX_BORDER_RE.test(lines[k]!) && cells(lines[k]!).cells.length !== cols) ok = false;
    // A grid (a border between data rows, or `+===+` under the header) must hold one line per row.
    const headerRule = i + 2 < j && j - i > 3 && BOX_BORDER_RE.test(lines[i + 2]!);
    const inner = borders.filter((k) => k !== i && k !== j - 1 && k !== i + 2);
    if (ok && headerRule && (inner.length > 0 || lines[i + 2]!.includes('='))) for (let b = 1; b < borders.length && ok; b++) if (borders[b]! - borders[b - 1]! !== 2) ok = false;
    if (ok && headerRule) {
      // Text right under the table would read as one more row (GFM): a blank line keeps it apart.
      const gap = j < lines.length && NON_BLANK_RE.test(lines[j]!) && borders.includes(j - 1);
      for (const k of borders) lines[k] = '\u0000';
      lines[i + 2] = '|' + '-|'.repeat(cols);
      if (gap) lines[j - 1] = '';
    }
    i = j - 1;
  }
}

// ---------------------------------------------------------------------------------------------
// Outer pipes

/** A first cell the row may start with when its pipe goes: no list, heading, quote, fence or HTML start. */
const BARE_FIRST_RE = /^(?:[\p{L}_"'(\[$€£@]|`(?!``)|\d(?!\d{0,8}[.)](?:[ \t]|$)))/u;

/**
 * The pipe tables of the final text without their outer pipes (GFM makes them optional): `|a|b|`
 * → `a|b`. A pipe stays where its cell is empty, where the first cell could open another block
 * (`- x`, `# x`, `> x`, `1. x`), or where the last cell ends with a backslash; a table of one column
 * and a row of one cell keep both. Only tables in the canonical form restructure() writes are
 * touched (a `|…|` header over a `|…|` delimiter row with as many cells), outside code blocks, so
 * restructure() reads the result back as the same table and adds the pipes again: compressText
 * applies this after its fixed point, and compressing the output again gives the output.
 */
export function bareTables(text: string): string {
  if (!text.includes('|-') && !text.includes('|:')) return text;
  if (!text.includes('``') && !text.includes('~~~') && !text.includes('<')) return bareTableLines(text);
  let out = '';
  let last = 0;
  CODE_BLOCK_RE.lastIndex = 0;
  for (const m of text.matchAll(CODE_BLOCK_RE)) {
    let block = m[0];
    if (block.endsWith('\n')) block = block.slice(0, -1);
    out += bareTableLines(text.slice(last, m.index)) + block;
    last = m.index + block.length;
  }
  return out + bareTableLines(text.slice(last));
}

function bareTableLines(text: string): string {
  if (!text.includes('|-') && !text.includes('|:')) return text;
  const lines = text.split('\n');
  let changed = false;
  for (let i = 0; i + 1 < lines.length; i++) {
    const head = lines[i]!;
    if (!PIPE_ROW_RE.test(head) || INDENTED_CODE_RE.test(head) || !PIPE_ROW_RE.test(lines[i + 1]!) || !isDelimiter(lines[i + 1]!)) continue;
    const width = cells(head).cells.length;
    if (width < 2 || cells(lines[i + 1]!).cells.length !== width) continue;
    let j = i;
    for (; j < lines.length && PIPE_ROW_RE.test(lines[j]!) && !INDENTED_CODE_RE.test(lines[j]!); j++) {
      const line = lines[j]!;
      const row = cells(line).cells;
      if (row.length < 2) continue;
      let indent = 0;
      while (line.charCodeAt(indent) === 32 || line.charCodeAt(indent) === 9) indent++;
      const first = row[0]!;
      const lastCell = row[row.length - 1]!;
      const delimiter = j === i + 1;
      const lead = delimiter || (first !== '' && BARE_FIRST_RE.test(first)) ? '' : '|';
      const tail = delimiter || (lastCell !== '' && !lastCell.endsWith('\\')) ? '' : '|';
      const body = line.trim().slice(1, -1);
      const next = line.slice(0, indent) + lead + body + tail;
      if (next !== line) {
        lines[j] = next;
        changed = true;
      }
    }
    i = j - 1;
  }
  return changed ? lines.join('\n') : text;
}

/**
 * Space-aligned columns: a run of 3+ lines (no indentation of 4+, no tab) where every line has a
 * run of 2+ spaces inside it and every such run crosses a gutter (a column that is blank in every
 * line of the run). Cells are the text between gutters, trimmed, joined by one tab.
 */
function fixedWidth(lines: string[], kinds: Uint8Array): void {
  for (let i = 0; i < lines.length; ) {
    if (kinds[i] !== Kind.Prose || !hasInnerRun(lines[i]!)) {
      i++;
      continue;
    }
    let j = i;
    while (j < lines.length && kinds[j] === Kind.Prose && hasInnerRun(lines[j]!)) j++;
    // A data frame's header is indented (read as indented code when a blank line precedes it): it
    // joins only where its names stand over the rows' gutters (columnsOf checks every line).
    if (j - i >= 3) {
      if (i > 0 && (kinds[i - 1] === Kind.Prose || kinds[i - 1] === Kind.Kept) && hasInnerRun(lines[i - 1]!, true)) columnsOf(lines, kinds, i - 1, j, true);
      else columnsOf(lines, kinds, i, j);
    }
    i = j;
  }
}

/**
 * A run of 2+ spaces after the first non-blank character, no tab; by default no leading
 * indentation of 4+. `header`: the line must be indented instead, as the header of a printed
 * data frame (pandas, R) stands over its blank index column ("       country  year   population");
 * it is read with the rows under it, its first cell empty.
 */
function hasInnerRun(line: string, header = false): boolean {
  if (line.length > ROW_MAX_CHARS || line.includes('\t')) return false;
  let k = 0;
  while (line.charCodeAt(k) === 32) k++;
  if (header ? k === 0 : k >= 4) return false;
  const at = line.indexOf('  ', k);
  return at !== -1 && line.slice(at).trim() !== '';
}

/** A cell of a rule row under aligned columns: one character repeated, - or =. */
const RULE_CELL_RE = /^(?:-{3,}|={3,})$/;

/** `indexHeader`: lines[from] is a data frame's header (hasInnerRun with `header`), taken only over an empty first cell. */
function columnsOf(lines: string[], kinds: Uint8Array, from: number, to: number, indexHeader = false): void {
  let width = 0;
  for (let i = from; i < to; i++) width = Math.max(width, lines[i]!.length);
  // blank[c]: column c is a space (or past the end) in every line; wide[c]: some line has a run of 2+ spaces over c.
  const blank = new Uint8Array(width).fill(1);
  const wide = new Uint8Array(width);
  for (let i = from; i < to; i++) {
    const line = lines[i]!.trimEnd();
    let indent = 0;
    while (line.charCodeAt(indent) === 32) indent++;
    for (let c = 0; c < line.length; c++) if (line.charCodeAt(c) !== 32 || c < indent) blank[c] = c < indent ? blank[c]! : 0;
    for (let c = indent; c < line.length; ) {
      if (line.charCodeAt(c) !== 32) {
        c++;
        continue;
      }
      let e = c;
      while (line.charCodeAt(e) === 32) e++;
      if (e - c >= 2) for (let k = c; k < e; k++) wide[k] = 1;
      c = e;
    }
  }
  // Gutters: maximal runs of blank columns that some line pads (wide), after column 0.
  const gutters: [number, number][] = [];
  for (let c = 1; c < width; ) {
    if (!blank[c]) {
      c++;
      continue;
    }
    let e = c;
    while (e < width && blank[e]) e++;
    let padded = false;
    for (let k = c; k < e && !padded; k++) padded = wide[k] === 1;
    if (padded && e < width && splitsNoWords(lines, from, to, c, e)) gutters.push([c, e]);
    c = e;
  }
  if (gutters.length === 0) return;
  if (indexHeader && lines[from]!.slice(0, gutters[0]![0]).trim() !== '') return columnsOf(lines, kinds, from + 1, to);
  // Every run of 2+ spaces inside a line must lie in a gutter: else the lines are not aligned.
  for (let i = from; i < to; i++) {
    const line = lines[i]!.trimEnd();
    let indent = 0;
    while (line.charCodeAt(indent) === 32) indent++;
    for (let c = line.indexOf('  ', indent); c !== -1; ) {
      let e = c;
      while (line.charCodeAt(e) === 32) e++;
      if (!gutters.some(([a, b]) => c < b && e > a)) return;
      c = line.indexOf('  ', e);
    }
  }
  // Cells of a table are short and no code span crosses a gutter; prose that happens to hold double
  // spaces is neither. Aligned "key:   value" lines (YAML, headers) keep their form: the space
  // collapse of core.ts leaves "key: value", which a YAML reader still accepts.
  let labelled = true;
  for (let i = from; i < to; i++) {
    const line = lines[i]!;
    if (line.includes('`')) return;
    const row: string[] = [];
    let start = 0;
    for (const [a, b] of gutters) {
      row.push(line.slice(start, a).trim());
      start = b;
    }
    if (row.some((c) => c.length > CELL_MAX_CHARS)) return;
    labelled &&= row[0]!.endsWith(':');
  }
  if (labelled) return;
  for (let i = from; i < to; i++) {
    const line = lines[i]!;
    let indent = 0;
    while (line.charCodeAt(indent) === 32) indent++;
    const row: string[] = [];
    let start = 0;
    for (const [a, b] of gutters) {
      row.push(line.slice(start, a).trim());
      start = b;
    }
    row.push(line.slice(start).trim());
    while (row.length > 1 && row[row.length - 1] === '') row.pop();
    // The rule under a header (tabulate's "simple", `docker ps`-like tools): `-------  ------` → `---\t---`.
    if (row.length > 1 && row.every((c) => RULE_CELL_RE.test(c))) for (let c = 0; c < row.length; c++) row[c] = row[c]!.slice(0, 3);
    // An empty first cell (a data frame's index column in its header) holds the indentation.
    lines[i] = (row[0] === '' ? '' : line.slice(0, indent)) + row.join('\t');
    kinds[i] = Kind.Columns;
  }
}

/**
 * True when no line of `from`..`to` that has text on both sides of the blank columns `a`..`b`
 * crosses them with a single space: there the gutter would cut a cell's words apart ("Cost of
 * goods sold" under "Net sales      1,234.5"), while columns are set apart by 2+ spaces.
 */
function splitsNoWords(lines: readonly string[], from: number, to: number, a: number, b: number): boolean {
  for (let i = from; i < to; i++) {
    const line = lines[i]!;
    let s = a;
    while (s > 0 && line.charCodeAt(s - 1) === 32) s--;
    let e = b;
    while (e < line.length && line.charCodeAt(e) === 32) e++;
    if (e - s >= 2 || s === 0 || e >= line.length || line.slice(e).trim() === '') continue;
    return false;
  }
  return true;
}

/** Keys of the prose lines seen so far (quote marks and blanks stripped), and where each block starts. */
class BlockSeen {
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
function dropRepeats(lines: string[], kinds: Uint8Array, seen: BlockSeen): void {
  const n = lines.length;
  const after = seen.after;
  // Each line's key, computed once (lines are read up to three times).
  const keys: (string | undefined)[] = new Array(n);
  let quotes = false;
  for (let i = 0; i < n && !quotes; i++) quotes = kinds[i] === Kind.Prose && isQuoted(lines[i]!);
  const key = (i: number): string => {
    if (kinds[i] !== Kind.Prose || (!quotes && lines[i]!.length > BLOCK_LINE_MAX_CHARS)) return '';
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
      if (any && allSeen) drop(i, j);
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

// ---------------------------------------------------------------------------------------------
// HTML leftovers

/**
 * cleanHtml over the runs of lines that are not JSON, pipe-table rows or indented code: a "<b>"
 * inside a JSON string or a "<br>" inside a table cell is a value, not a leftover.
 */
function cleanHtmlOutsideBlocks(text: string): string {
  if (!text.includes('<') && !text.includes('&')) return text;
  const lines = text.split('\n');
  const budget = jsonBudget(lines);
  let out = '';
  let run: string[] = [];
  const flush = (): void => {
    if (run.length > 0) out += cleanHtml(run.join('\n')) + '\n';
    run = [];
  };
  const rows = text.includes('|') ? tableRows(lines) : undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const col = line.includes('{') || line.includes('[') ? jsonStart(line) : -1;
    const end = col === -1 ? -1 : jsonEnd(lines, i, col, budget);
    if (end !== -1) {
      flush();
      out += lines.slice(i, end + 1).join('\n') + '\n';
      i = end;
    } else if ((INDENTED_CODE_RE.test(line) && !continuesHtml(run, line)) || (line.includes('|') && (PIPE_ROW_RE.test(line) || rows?.[i] === 1))) {
      flush();
      out += line + '\n';
    } else run.push(line);
  }
  flush();
  return out.slice(0, -1);
}

const INDENTED_TAG_RE = /^[ \t]+<\/?([a-zA-Z][a-zA-Z0-9]*)\b/;

/**
 * An indented line that goes on an HTML block the text run ends with: it opens with an element's
 * tag and the run's last line is not blank and holds a tag. Pretty-printed HTML indents its rows
 * (`    <td>2019</td>`); as CommonMark reads it, an HTML block is not interrupted by indentation.
 */
function continuesHtml(run: readonly string[], line: string): boolean {
  const last = run[run.length - 1];
  if (last === undefined || last.trim() === '' || !last.includes('<')) return false;
  const m = INDENTED_TAG_RE.exec(line);
  return m !== null && HTML_ELEMENTS.has(m[1]!.toLowerCase());
}

/** HTML element names (the WHATWG list and a few legacy ones); `source`, `search`, `data`, `output`, `template`, `summary`, `title`, `header`, `main`, `section`, `article` are left out on purpose: prompts use them as their own XML-style tags. */
const HTML_ELEMENTS: ReadonlySet<string> = new Set(
  (
    'a abbr acronym address area aside audio b bdi bdo big blockquote body br button canvas caption center cite code col colgroup ' +
    'dd del details dfn dialog div dl dt em embed fieldset figcaption figure font footer form h1 h2 h3 h4 h5 h6 head hr html i iframe img input ins kbd ' +
    'label legend li link mark menu meta meter nav nobr noscript object ol optgroup option p param picture progress q rp rt ruby s samp select ' +
    'small span strike strong sub sup svg table tbody td tfoot th thead time tr track tt u ul var video wbr'
  ).split(' '),
);
const BLOCK_ELEMENTS: ReadonlySet<string> = new Set(
  'address aside blockquote body br center dd details dialog div dl dt fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 head hr html li nav ol p table tbody tfoot thead ul'.split(' '),
);
/** Elements whose content is not text a reader sees (their content goes with them). */
const DROP_CONTENT: ReadonlySet<string> = new Set(['head', 'noscript', 'svg', 'select', 'button', 'canvas', 'object']);

const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', ndash: '–', mdash: '—', hellip: '…', copy: '©', reg: '®', trade: '™',
  lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', laquo: '«', raquo: '»', bull: '•', middot: '·', deg: '°', euro: '€', pound: '£',
  times: '×', divide: '÷', eacute: 'é', egrave: 'è', agrave: 'à', uuml: 'ü', ouml: 'ö', auml: 'ä', szlig: 'ß', ccedil: 'ç', shy: '',
  zwj: '\u200d', zwnj: '\u200c', thinsp: ' ', ensp: ' ', emsp: ' ', larr: '←', rarr: '→', frac12: '½', sect: '§', para: '¶',
};
const ENTITY_RE = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]{1,9}));/g;
const WORD_CHAR = (c: number): boolean => (c >= 48 && c <= 57) || ((c | 0x20) >= 97 && (c | 0x20) <= 122) || c === 95;

/** Attribute values of a tag's source (`<a href="x" class=y>`), lower-case names; hand-scanned. */
function attributes(tag: string, from: number): Map<string, string> {
  const attrs = new Map<string, string>();
  let k = from;
  const n = tag.length - 1; // before ">"
  while (k < n) {
    while (k < n && /[\s/]/.test(tag[k]!)) k++;
    const nameStart = k;
    while (k < n && !/[\s=/>]/.test(tag[k]!)) k++;
    const name = tag.slice(nameStart, k).toLowerCase();
    if (name === '') break;
    while (k < n && /\s/.test(tag[k]!)) k++;
    let value = '';
    if (tag[k] === '=') {
      k++;
      while (k < n && /\s/.test(tag[k]!)) k++;
      const q = tag[k];
      if (q === '"' || q === "'") {
        const e = tag.indexOf(q, k + 1);
        const end = e === -1 || e > n ? n : e;
        value = tag.slice(k + 1, end);
        k = end + 1;
      } else {
        const s = k;
        while (k < n && !/\s/.test(tag[k]!)) k++;
        value = tag.slice(s, k);
      }
    }
    attrs.set(name, value);
  }
  return attrs;
}

/** The end (after ">") of a tag opening at `at`, quotes respected, within 2,000 characters; -1 if none. */
function tagEnd(s: string, at: number): number {
  let q = 0;
  const limit = Math.min(s.length, at + 2000);
  for (let k = at + 1; k < limit; k++) {
    const c = s.charCodeAt(k);
    if (q !== 0) {
      if (c === q) q = 0;
      continue;
    }
    if (c === 34 || c === 39) q = c;
    else if (c === 62) return k + 1;
    else if (c === 60) return -1;
  }
  return -1;
}

/**
 * Removes HTML leftovers from prose (inline code spans skipped). Returns `s` itself when it holds
 * none. Entities are decoded when a tag was found or the text holds 3+ entities, except `&lt;`
 * before a letter, "/" or "!" and `&amp;` before an entity's spelling (decoding those would make
 * a tag or an entity that the next pass would read differently).
 */
export function cleanHtml(s: string): string {
  let out = '';
  let copied = 0;
  let tags = 0;
  let href: string | undefined; // of the open <a>, written after its text
  let dropUntil = ''; // closing tag name whose content is skipped
  let row = false; // inside <tr>: cells end with "|"
  let tables = 0; // open <table> elements: white space between their rows is layout
  const code = s.includes('`') ? codeSpans(s) : [];
  let span = 0; // the first code span that does not end before `at`
  let commentEnd = -2; // the last "-->" found (-1: none after the last search)
  for (let at = s.indexOf('<'); at !== -1; at = s.indexOf('<', at + 1)) {
    // Inside inline code: not markup.
    while (span < code.length && code[span]![1] <= at) span++;
    if (span < code.length && code[span]![0] <= at) continue;
    if (s.startsWith('<!--', at)) {
      if (commentEnd !== -1 && commentEnd < at + 4) commentEnd = s.indexOf('-->', at + 4);
      const end = commentEnd;
      if (end === -1) continue;
      if (dropUntil === '') out += s.slice(copied, at);
      copied = end + 3;
      at = end + 2;
      tags++;
      continue;
    }
    const next = s.charCodeAt(at + 1);
    if (next === 33 /* ! */ || next === 63 /* ? */) {
      // <!DOCTYPE html>, <?xml ...?>
      if (!/^<(?:!doctype\s|\?xml\s)/i.test(s.slice(at, at + 10))) continue;
      const end = tagEnd(s, at);
      if (end === -1) continue;
      if (dropUntil === '') out += s.slice(copied, at);
      copied = end;
      at = end - 1;
      tags++;
      continue;
    }
    const closing = next === 47;
    let k = at + (closing ? 2 : 1);
    const nameStart = k;
    while (k < s.length && ((s.charCodeAt(k) | 0x20) >= 97 && (s.charCodeAt(k) | 0x20) <= 122 || (s.charCodeAt(k) >= 48 && s.charCodeAt(k) <= 57))) k++;
    const name = s.slice(nameStart, k).toLowerCase();
    if (!HTML_ELEMENTS.has(name)) continue;
    const after = s.charCodeAt(k);
    if (!(after === 62 || after === 47 || after === 32 || after === 9 || after === 10)) continue;
    const end = tagEnd(s, at);
    if (end === -1) continue;
    const source = s.slice(at, end);
    const nameEnd = k - at; // in `source`
    // `List<b>` is a generic, not a tag: an opening tag right after a word needs attributes or to be a void element.
    if (!closing && at > 0 && WORD_CHAR(s.charCodeAt(at - 1)) && !source.includes('=') && !/^(?:br|wbr|hr|img)$/.test(name)) continue;
    tags++;
    if (dropUntil !== '') {
      if (closing && name === dropUntil) {
        dropUntil = '';
        copied = end;
      }
      at = end - 1;
      continue;
    }
    const chunk = s.slice(copied, at);
    // Inside a table row the source's line breaks and indentation between cells are layout, and
    // so are those between a table's rows (a pretty-printed table's indented <tr> lines).
    out += row ? (chunk.trim() === '' ? '' : chunk.replace(/\s+/g, ' ')) : tables > 0 && chunk.trim() === '' ? '' : chunk;
    copied = end;
    at = end - 1;
    if (!closing && DROP_CONTENT.has(name) && !source.endsWith('/>')) {
      dropUntil = name;
      continue;
    }
    const rep = replacement(name, closing, source, nameEnd);
    out += rep.charCodeAt(0) === 10 && (out === '' || out.endsWith('\n')) ? rep.slice(1) : rep;
    if (name === 'a') {
      if (!closing) {
        if (href !== undefined) out = out + `](${href})`;
        const h = attributes(source, nameEnd).get('href');
        href = h !== undefined && h !== '' && !/^\s*javascript:/i.test(h) ? h.trim() : undefined;
        if (href !== undefined) out += '[';
      } else if (href !== undefined) {
        out += `](${href})`;
        href = undefined;
      }
    } else if (name === 'table') {
      tables = closing ? Math.max(0, tables - 1) : tables + 1;
    } else if (name === 'tr') {
      row = !closing;
      out += closing ? '' : out === '' || out.endsWith('\n') ? '|' : '\n|';
    } else if ((name === 'td' || name === 'th') && closing && row) out += '|';
  }
  if (href !== undefined) out += `](${href})`;
  if (tags === 0 && !s.includes('&')) return s;
  out += dropUntil === '' ? s.slice(copied) : '';
  if (tags === 0) {
    const count = s.match(ENTITY_RE)?.length ?? 0;
    return count >= 3 ? decodeEntities(s) : s;
  }
  return decodeEntities(out);
}

function replacement(name: string, closing: boolean, source: string, nameEnd: number): string {
  if (name === 'img') {
    if (closing) return '';
    const a = attributes(source, nameEnd);
    const src = a.get('src');
    const alt = a.get('alt') ?? '';
    return src ? `![${alt}](${src.trim()})` : alt;
  }
  if (!closing && (name === 'iframe' || name === 'video' || name === 'audio' || name === 'embed' || name === 'track')) {
    const src = attributes(source, nameEnd).get('src');
    return src ? ` ${src.trim()} ` : '';
  }
  if (/^h[1-6]$/.test(name)) return closing ? '\n' : '\n' + '#'.repeat(Number(name[1])) + ' ';
  if (name === 'li') return closing ? '\n' : '\n- ';
  if (name === 'td' || name === 'th' || name === 'tr') return '';
  if (BLOCK_ELEMENTS.has(name)) return '\n';
  return '';
}

/**
 * The inline code spans of `s` as [start, end) pairs in order: a backtick run opens a span that the
 * next run of the same length on the same line closes (a run with no such closer is literal).
 * One pass over the runs of each line, counting the runs of each length still ahead.
 */
function codeSpans(s: string): [number, number][] {
  const spans: [number, number][] = [];
  let lineStart = 0;
  while (lineStart <= s.length) {
    let lineEnd = s.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = s.length;
    const runs: number[] = []; // start, length pairs
    const ahead = new Map<number, number>();
    for (let k = s.indexOf('`', lineStart); k !== -1 && k < lineEnd; k = s.indexOf('`', k)) {
      let n = 1;
      while (s.charCodeAt(k + n) === 96) n++;
      runs.push(k, n);
      ahead.set(n, (ahead.get(n) ?? 0) + 1);
      k += n;
    }
    let open = -1;
    let openLen = 0;
    for (let r = 0; r < runs.length; r += 2) {
      const at = runs[r]!;
      const n = runs[r + 1]!;
      ahead.set(n, ahead.get(n)! - 1);
      if (open === -1) {
        if (ahead.get(n)! > 0) {
          open = at;
          openLen = n;
        }
      } else if (n === openLen) {
        spans.push([open, at + n]);
        open = -1;
      }
    }
    lineStart = lineEnd + 1;
  }
  return spans;
}

function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(ENTITY_RE, (m, dec: string | undefined, hex: string | undefined, name: string | undefined, offset: number, all: string) => {
    if (name !== undefined) {
      const ch = ENTITIES[name] ?? ENTITIES[name.toLowerCase()];
      if (ch === undefined) return m;
      const after = all.charCodeAt(offset + m.length);
      if (ch === '<' && (WORD_CHAR(after) || after === 47 || after === 33)) return m;
      if (ch === '&' && /^[A-Za-z#][A-Za-z0-9]{0,9};/.test(all.slice(offset + m.length, offset + m.length + 12))) return m;
      if (ch === '`') return m;
      return ch;
    }
    const code = dec !== undefined ? Number(dec) : parseInt(hex!, 16);
    if (code < 32 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) || code === 60 || code === 38 || code === 96) return m;
    return String.fromCodePoint(code);
  });
}
