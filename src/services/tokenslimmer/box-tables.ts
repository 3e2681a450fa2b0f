/**
 * API-09 structure pass (structure.ts): tables drawn with ASCII or Unicode box characters, and psql
 * and org-mode tables, rewritten as pipe tables for the pipe-table pass (pipe-tables.ts).
 */
import { NON_BLANK_RE } from './line-kinds.ts';
import { cells, isDelimiter, PIPE_ROW_RE } from './pipe-tables.ts';

/** A border of an ASCII box table (MySQL, prettytable, tabulate "grid"): `+----+-------+`. */
export const BOX_BORDER_RE = /^[ \t]{0,3}\+(?:[-=]+\+)+[ \t]*$/;
/** The rule under a psql header: `----+-------+-----`. */
const PSQL_RULE_RE = /^[ \t]{0,3}-+(?:\+-+)+[ \t]*$/;
/** The rule under an org-mode or tabulate "orgtbl" header: `|-----+-----|`. */
const ORG_RULE_RE = /^[ \t]{0,3}\|-+(?:\+-+)+\|[ \t]*$/;

/** The top-left corner of a table drawn with Unicode box characters (tabulate, rich, DuckDB, psql's unicode style). */
export const BOX_CORNER_RE = /[┌╒╔╭┏]/;
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
export function unicodeBoxes(lines: string[]): boolean {
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
export function boxTables(lines: string[]): void {
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
      if (header && !above.includes('|') && cells(head).cells.length === cols) {
        lines[i] = '|' + '-|'.repeat(cols);
        // psql centres its header: indented by 4+ spaces it would read as code, not as the table's header row.
        if (psql) {
          lines[i - 1] = head.trimStart();
          // psql prints no outer pipes: a row that ends in "| " has an empty last cell, which the
          // pipe-table pass would read as the closing pipe. Each row of the header's width gets
          // its outer pipes, so every cell is read (`team|text||not null|`).
          for (let k = i + 1; k < lines.length && lines[k]!.includes('|') && !PIPE_ROW_RE.test(lines[k]!); k++) {
            const row = '|' + lines[k]!.trim() + ' |';
            if (cells(row).cells.length === cols) lines[k] = row;
          }
        }
      }
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
    // tabulate's "psql" format rules its header as org-mode does (`|-----+-----|`) inside the box.
    const orgRule = i + 2 < j && ORG_RULE_RE.test(lines[i + 2]!) && lines[i + 2]!.trim().split('+').length === cols;
    for (let k = i; k < j && ok; k++) if (!BOX_BORDER_RE.test(lines[k]!) && !(orgRule && k === i + 2) && cells(lines[k]!).cells.length !== cols) ok = false;
    // A grid (a border between data rows, or `+===+` under the header) must hold one line per row.
    const headerRule = i + 2 < j && j - i > 3 && (BOX_BORDER_RE.test(lines[i + 2]!) || orgRule);
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

/**
 * The lines of a box table that boxTables left as it was (a grid whose cells run over several
 * lines, as reStructuredText writes them; two borders at least): its borders and the `|` rows between them are marked
 * `kept`, so that no later pass trims a row under a border of the old width or reads a `|` inside
 * a cell ("bool|str") as a column.
 */
export function keepBoxGrids(lines: readonly string[], kinds: Uint8Array, kept: number): void {
  for (let i = 0; i < lines.length; i++) {
    if (!BOX_BORDER_RE.test(lines[i]!)) continue;
    let a = i;
    while (a > 0 && GRID_LINE_RE.test(lines[a - 1]!)) a--;
    let b = i + 1;
    let borders = 1;
    while (b < lines.length && GRID_LINE_RE.test(lines[b]!)) if (BOX_BORDER_RE.test(lines[b++]!)) borders++;
    // A border and rows under it, no second border: no grid (its rows are read as a pipe table).
    if (borders >= 2) for (let k = a; k < b; k++) kinds[k] = kept;
    i = b - 1;
  }
}
/** A line of a box grid: a border or a row. */
const GRID_LINE_RE = /^[ \t]{0,3}[|+]/;
