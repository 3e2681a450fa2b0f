/**
 * API-09 structure pass (structure.ts): pipe tables. Rows are split into cells, trimmed and written
 * with outer pipes (pipeTable); once the text is final, bareTables takes the outer pipes off again
 * where GFM allows (core.ts).
 */
import { codeBlocks, INDENTED_CODE_RE } from './patterns.ts';
import { Kind } from './line-kinds.ts';

export const PIPE_ROW_RE = /^[ \t]*\|.*\|[ \t]*$/;
/** A GFM delimiter row: cells of `:?-+:?`, at least one pipe. */
const DELIMITER_ROW_RE = /^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

/** Splits a pipe row into its cells (pipes inside `code` or escaped do not split). */
export function cells(row: string): { cells: string[]; outer: boolean } {
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

export const isDelimiter = (line: string): boolean => line.includes('|') && line.includes('-') && DELIMITER_ROW_RE.test(line);

/** A Confluence / Jira wiki header row: every cell between "||" ("||Service||Owner||"). */
const WIKI_HEADER_RE = /^[ \t]*\|\|(?:[^|\n]+\|\|)+[ \t]*$/;

/** Compacts the pipe table that starts at line `i`; returns its last line. */
export function pipeTable(lines: string[], kinds: Uint8Array, i: number): number {
  let j = i;
  // Rows of a table written without outer pipes count only under (or above) a delimiter row.
  const delimiterAt = (k: number): boolean => k < lines.length && isDelimiter(lines[k]!);
  let loose = delimiterAt(i) || delimiterAt(i + 1);
  // A Confluence / Jira wiki table (header cells between "||"): there "||" starts a header cell,
  // so an empty cell of a row keeps a space instead of closing up to "||".
  let wiki = false;
  /** The indentation of the table's first line: a row indented further without an outer pipe pads its first cell. */
  let base = -1;
  for (; j < lines.length; j++) {
    const line = lines[j]!;
    // Indented code cannot interrupt a table: under its delimiter row an indented line is a row
    // whose first cell is right-aligned (psql's "       10231 | ACME GmbH").
    if (line.trim() === '' || !line.includes('|') || (INDENTED_CODE_RE.test(line) && !(loose && j > i))) break;
    if (!PIPE_ROW_RE.test(line) && !loose) break;
    if (delimiterAt(j)) loose = true;
    let indent = 0;
    while (line.charCodeAt(indent) === 32 || line.charCodeAt(indent) === 9) indent++;
    if (base === -1) base = indent;
    else if (indent > base && line.charCodeAt(indent) !== 124 /* | */) indent = base;
    const row = cells(line).cells;
    const delimiter = delimiterAt(j);
    const header = WIKI_HEADER_RE.test(line);
    wiki ||= header;
    const body = delimiter
      ? row.map((c) => (c.startsWith(':') ? ':' : '') + '-' + (c.length > 1 && c.endsWith(':') ? ':' : ''))
      : wiki && !header
        ? row.map((c) => (c === '' ? ' ' : c))
        : row;
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
export function tableRows(lines: readonly string[]): Uint8Array {
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
  for (const m of codeBlocks(text)) {
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
