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
 * This file holds the line dispatch, WebVTT voices and separators; each other pass has a file of its
 * own: html-leftovers.ts, pipe-tables.ts (box-tables.ts turns ASCII and Unicode box tables into pipe
 * tables first), json-compact.ts, python-repr.ts, fixed-width.ts, repeated-blocks.ts (quoted
 * replies, signature blocks, repeated blocks); line-kinds.ts is what they mark each line as.
 *
 * Code blocks (fenced, <pre>, <script>, <style>), inline code, indented code (4 spaces / tab),
 * answer options and CSV are left alone; but for a table a program printed inside a fence of
 * output (fencedTables), and JSON in a ```json or bare fence. Every scanner here is a hand-written loop or a regex
 * without nested quantifiers over one line: linear in the input. The result is a fixed point:
 * restructure(restructure(x)) === restructure(x) (test/compress-structure.test.ts).
 */
import { codeBlocks } from './patterns.ts';
import { BOX_CORNER_RE, boxTables, keepBoxGrids, unicodeBoxes } from './box-tables.ts';
import { fixedWidth } from './fixed-width.ts';
import { cleanHtmlOutsideBlocks } from './html-leftovers.ts';
import { exampleAnswerLabel } from './demos.ts';
import { compactFencedJson, compactJson, FENCE_OPEN_RE, jsonBudget, jsonEnd, jsonStart } from './json-compact.ts';
import { isCodeLine, Kind, NON_BLANK_RE, TREE_LINE_RE } from './line-kinds.ts';
import { isDelimiter, PIPE_ROW_RE, pipeTable } from './pipe-tables.ts';
import { pythonLiteral } from './python-repr.ts';
import { BlockSeen, dropRepeats } from './repeated-blocks.ts';

/** Applies every structure pass to `text` (LF line ends). */
/** A one-line list of numbers (nested lists too), as a program prints it. */
const NUMBER_LIST_RE = /^\[[-+\d.eE, \t[\]]*\][ \t]*$/;

export function restructure(text: string): string {
  const mayHtml = text.includes('<') || text.includes('&');
  const mayCode = text.includes('``') || text.includes('~~~') || text.includes('<');
  const mayVtt = text.includes('<v') && text.includes('-->');
  const parts: { code: boolean; text: string }[] = [];
  if (mayCode) {
    let last = 0;
    for (const m of codeBlocks(text)) {
      parts.push({ code: false, text: text.slice(last, m.index) });
      let block = m[0];
      if (block.endsWith('\n')) block = block.slice(0, -1);
      parts.push({ code: true, text: fencedTables(compactFencedJson(block)) });
      last = m.index + block.length;
    }
    parts.push({ code: false, text: text.slice(last) });
  } else parts.push({ code: false, text });
  const seen = new BlockSeen();
  const answer = text.includes('{') ? exampleAnswerLabel(text) : undefined;
  let out = '';
  for (const p of parts) {
    if (p.code) {
      out += p.text;
      continue;
    }
    let s = mayVtt ? vttVoices(p.text) : p.text;
    if (mayHtml) s = cleanHtmlOutsideBlocks(s);
    s = restructureLines(s, seen, answer);
    out += s;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Tables printed inside a fence

/**
 * Fence languages of printed output: a fence without one, or with one of these, that holds a
 * program's table (`mysql>` and psql sessions, `kubectl get`, `docker ps`, a printed data frame)
 * is data as a table outside a fence is.
 */
const OUTPUT_FENCES: ReadonlySet<string> = new Set(['', 'text', 'txt', 'plain', 'plaintext', 'console', 'output', 'terminal', 'shell-session', 'sh-session', 'log', 'psql', 'mysql']);
/**
 * A line of a fence that reads as code rather than as printed output: an assignment, a "key:" of
 * a config file, a comment, a line that ends a clause or opens or ends a statement (isCodeLine).
 */
const FENCED_CODE_RE = /[ \t]=[ \t]|^[ \t]*[\w.-]{1,60}:(?:[ \t]|$)|^[ \t]*(?:#|\/\/|--[ \t]|\/\*)|[,(\\][ \t]*$/;

/**
 * The tables of a fence of printed output (OUTPUT_FENCES) lose their padding as outside a fence:
 * box tables become pipe tables, pipe rows are trimmed, space-aligned columns are joined by tabs
 * (fixed-width.ts). Every other line of the fence stays as written: the command, "9 rows in set",
 * indented continuation lines, code. A fence with a language of code (```sql, ```python) stays
 * whole.
 */
function fencedTables(block: string): string {
  const open = FENCE_OPEN_RE.exec(block);
  if (open === null || !OUTPUT_FENCES.has(open[3]!.trim().toLowerCase())) return block;
  const body = block.slice(open[0].length);
  const close = body.lastIndexOf('\n');
  if (close === -1 || !body.slice(close + 1).trim().startsWith(open[2]!)) return block;
  const inner = body.slice(0, close);
  if (!inner.includes('|') && !inner.includes('+-') && !inner.includes('  ') && !BOX_CORNER_RE.test(inner)) return block;
  const lines = inner.split('\n');
  // A fence of code (aligned assignments, a config, a CREATE TABLE): a fifth of its lines or more
  // read as code. A session's few commands (`mysql> SELECT …;`) do not make it one.
  let text = 0;
  let code = 0;
  for (const line of lines) {
    if (!NON_BLANK_RE.test(line)) continue;
    text++;
    if (isCodeLine(line) || FENCED_CODE_RE.test(line)) code++;
  }
  if (code * 5 >= text) return block;
  const unicode = BOX_CORNER_RE.test(inner) && unicodeBoxes(lines);
  const boxes = unicode || inner.includes('-+-') || inner.includes('+-');
  if (boxes) boxTables(lines);
  const kinds = new Uint8Array(lines.length);
  if (boxes) keepBoxGrids(lines, kinds, Kind.Kept);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (kinds[i] === Kind.Kept) continue;
    if (!NON_BLANK_RE.test(line)) kinds[i] = Kind.Blank;
    else if (TREE_LINE_RE.test(line)) kinds[i] = Kind.Kept;
    else if (line.includes('|') && (PIPE_ROW_RE.test(line) || isDelimiter(line) || (i + 1 < lines.length && isDelimiter(lines[i + 1]!)))) i = pipeTable(lines, kinds, i);
    else if (line.startsWith('    ') || line.charCodeAt(0) === 9) kinds[i] = Kind.Kept;
  }
  fixedWidth(lines, kinds, true);
  const out = lines.filter((l) => l !== '\u0000').join('\n');
  return out === inner ? block : open[0] + out + body.slice(close);
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
// Lines: tables, JSON, fixed-width columns, quoted replies, repeated blocks

/** A line of one repeated separator character, 4+ times. */
const RULE_RE = /^([ \t]{0,3})([-_=*])\2{3,}[ \t]*$/;

/**
 * True when the one-line JSON at `lines[i]` (from `col`) is a few-shot example's answer: after the
 * examples' answer label on its line ("Output: {…}") or on the line above ("Output:" over it).
 */
function isExampleAnswer(lines: readonly string[], i: number, col: number, answer: string | undefined): boolean {
  if (answer === undefined) return false;
  const before = lines[i]!.slice(0, col).trim();
  if (before !== '') return before === answer + ':';
  return i > 0 && lines[i - 1]!.trim() === answer + ':';
}

function restructureLines(text: string, seen: BlockSeen, answer: string | undefined): string {
  if (text === '') return text;
  const lines = text.split('\n');
  const unicode = BOX_CORNER_RE.test(text) && unicodeBoxes(lines);
  const boxes = unicode || text.includes('-+-') || text.includes('+-');
  if (boxes) boxTables(lines);
  const kinds = new Uint8Array(lines.length);
  if (boxes) keepBoxGrids(lines, kinds, Kind.Kept);
  const budget = jsonBudget(lines);
  let wikiUnclosed = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (kinds[i] === Kind.Kept) continue;
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
    // A wikitext table ("{| class=wikitable" … "|-" … "| a || b" … "|}"): its own markup, which
    // the pipe-table pass would misread as rows; it stays as written.
    // (A scan that found no "|}" ends the search: none later can find one, so the text is read once.)
    if (c === 123 /* { */ && line.charCodeAt(k + 1) === 124 && !wikiUnclosed) {
      let j = i + 1;
      while (j < lines.length && !lines[j]!.trimStart().startsWith('|}')) j++;
      if (j < lines.length) {
        kinds.fill(Kind.Kept, i, j + 1);
        i = j;
        continue;
      }
      wikiUnclosed = true;
    }
    if (c > 0x7f || c === 124 || c === 96 || c === 43 || c === 92) {
      if (TREE_LINE_RE.test(line)) {
        kinds[i] = Kind.Kept; // a tree drawing: its spaces are the nesting
        continue;
      }
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
        // A list of numbers on one line ("[1, 2, 3, 4]", "# [1, 2, 3, 4]") is how Python prints one: a
        // program's output that a prompt may quote exactly, so it stays; other values are compacted.
        // A few-shot example's answer shows the format the model is to write, one line or pretty
        // printed: it stays too.
        const printed = (end === i && NUMBER_LIST_RE.test(line.slice(col))) || isExampleAnswer(lines, i, col, answer);
        const json = shape.loose && !printed ? compactJson(lines.slice(i, end + 1).join('\n').slice(col)) : undefined;
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
