/** API-09 structure pass (structure.ts): space-aligned columns (a printed data frame, a CLI's table) as tab-separated cells. */
import { Kind } from './line-kinds.ts';

/** Longest cell (but the last of a row) of space-aligned columns. */
const CELL_MAX_CHARS = 48;
/** Longest cell (but the last of a row) inside a fence of printed output (`docker ps`'s ports). */
const FENCED_CELL_MAX_CHARS = 160;
/** Longest row of space-aligned columns; longer lines are prose. */
const ROW_MAX_CHARS = 240;
/** Longest row inside a fence of printed output (`docker ps` prints its ports on one wide line). */
const FENCED_ROW_MAX_CHARS = 1000;

/**
 * Space-aligned columns: a run of 3+ lines (no indentation of 4+, no tab) where every line has a
 * run of 2+ spaces inside it and every such run crosses a gutter (a column that is blank in every
 * line of the run). Cells are the text between gutters, trimmed, joined by one tab.
 *
 * `fenced`: the lines are a fence of printed output (structure.ts fencedTables), where rows may be
 * wider, cells longer, and a header may set its names one space apart over right-aligned numbers (`ps aux`:
 * "USER   PID %CPU %MEM", `df -h`: "Size Used Avail").
 */
export function fixedWidth(lines: string[], kinds: Uint8Array, fenced = false): void {
  const rowMax = fenced ? FENCED_ROW_MAX_CHARS : ROW_MAX_CHARS;
  for (let i = 0; i < lines.length; ) {
    if (kinds[i] !== Kind.Prose || !hasInnerRun(lines[i]!, false, rowMax)) {
      i++;
      continue;
    }
    let j = i;
    while (j < lines.length && kinds[j] === Kind.Prose && hasInnerRun(lines[j]!, false, rowMax)) j++;
    // A data frame's header is indented (read as indented code when a blank line precedes it): it
    // joins only where its names stand over the rows' gutters (columnsOf checks every line).
    if (j - i >= 3) {
      if (i > 0 && (kinds[i - 1] === Kind.Prose || kinds[i - 1] === Kind.Kept) && hasInnerRun(lines[i - 1]!, true, rowMax)) columnsOf(lines, kinds, i - 1, j, true);
      else if (i > 1 && indexNameUnder(lines, kinds, i)) {
        // pandas prints a named index's name on a line of its own under the header: it takes the
        // header's blank first cell, and its line goes.
        const name = lines[i - 1]!.trim();
        lines[i - 2] = name + lines[i - 2]!.slice(name.length);
        lines[i - 1] = '\u0000';
        kinds[i - 1] = Kind.Blank;
        kinds[i - 2] = Kind.Prose;
        columnsOf(lines, kinds, i - 2, j);
        // The header could not take it (a cell would not stand over its gutter): as it was.
        if (!lines[i - 2]!.includes('\t')) {
          lines[i - 1] = name;
          lines[i - 2] = ' '.repeat(name.length) + lines[i - 2]!.slice(name.length);
          columnsOf(lines, kinds, i, j);
        }
      } else {
        columnsOf(lines, kinds, i, j);
        // A header that sets its names one space apart is read so only where the columns do not
        // part otherwise: "NOMINATED NODE" over short rows would split into two.
        if (fenced && kinds[i] !== Kind.Columns) columnsOf(lines, kinds, i, j, false, true);
      }
      if (kinds[i] !== Kind.Columns && kinds[j - 1] !== Kind.Columns) evenCells(lines, kinds, i, j);
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
function hasInnerRun(line: string, header = false, rowMax = ROW_MAX_CHARS): boolean {
  if (line.length > rowMax || line.includes('\t')) return false;
  let k = 0;
  while (line.charCodeAt(k) === 32) k++;
  if (header ? k === 0 : k >= 4) return false;
  // A quoted line's spaces after its `>` are the quoted text's indentation (code in a reply).
  if (line.charCodeAt(k) === 62 /* > */) return false;
  // The padding after a list item's marker ("*   [Home](/)", "1.  Plums") is no column gutter.
  const marker = LIST_MARKER_PAD_RE.exec(line.slice(k, k + 12));
  if (marker !== null) k += marker[0].length;
  const at = line.indexOf('  ', k);
  return at !== -1 && line.slice(at).trim() !== '';
}

/** Fewest cells of a row that evenCells reads (a transcript's "12  Q.  Were you there?" has three). */
const EVEN_CELLS_MIN = 4;

/**
 * Rows whose columns do not line up (a report whose header and rule row stand a few columns off
 * its figures) but that all hold the same number (4+) of cells set apart by 2+ spaces: each run
 * of spaces is a cell break, and the cells are joined by a tab, as aligned columns are. Cells with
 * inner single spaces ("VENDOR NAME", "ACME INDUSTRIAL SUPPLY") stay whole; collapsing the runs to
 * one space would run them into each other.
 */
function evenCells(lines: string[], kinds: Uint8Array, from: number, to: number): void {
  // The longest stretches of rows with one count of cells (a report's title lines above its
  // table set theirs apart too, in other numbers).
  const counts: number[] = [];
  for (let i = from; i < to; i++) counts.push(cellCount(lines[i]!));
  for (let a = 0; a < counts.length; ) {
    let b = a + 1;
    while (b < counts.length && counts[b] === counts[a]) b++;
    if (counts[a]! >= EVEN_CELLS_MIN && b - a >= 3) joinCells(lines, kinds, from + a, from + b);
    a = b;
  }
}

/** Cells of a row set apart by 2+ spaces; 0 for a row that is no table's (a code span, an overlong cell). */
function cellCount(line: string): number {
  // A code span, or pipes that set the cells apart themselves (a table without its delimiter row).
  if (line.includes('`') || line.includes('|')) return 0;
  const cells = line.trim().split(/ {2,}/);
  for (let c = 0; c < cells.length - 1; c++) if (cells[c]!.length > CELL_MAX_CHARS) return 0;
  return cells.length;
}

function joinCells(lines: string[], kinds: Uint8Array, from: number, to: number): void {
  for (let i = from; i < to; i++) {
    const row = lines[i]!.trim().split(/ {2,}/);
    if (row.every((c) => RULE_CELL_RE.test(c))) for (let c = 0; c < row.length; c++) row[c] = row[c]!.slice(0, 3);
    let indent = 0;
    while (lines[i]!.charCodeAt(indent) === 32) indent++;
    lines[i] = lines[i]!.slice(0, indent) + row.join('\t');
    kinds[i] = Kind.Columns;
  }
}

/**
 * Line i - 1 is the name of a data frame's index (one word) and line i - 2 its indented header,
 * whose blank first cell is wider than the name and a gutter: a named index as pandas prints it.
 */
function indexNameUnder(lines: readonly string[], kinds: Uint8Array, i: number): boolean {
  const name = lines[i - 1]!;
  const header = lines[i - 2]!;
  if (kinds[i - 1] !== Kind.Prose || (kinds[i - 2] !== Kind.Prose && kinds[i - 2] !== Kind.Kept)) return false;
  if (!INDEX_NAME_RE.test(name) || !hasInnerRun(header, true)) return false;
  let k = 0;
  while (header.charCodeAt(k) === 32) k++;
  return k >= name.length + 2;
}
const INDEX_NAME_RE = /^[A-Za-z_][\w.]{0,39}$/;

/** A Markdown list marker and the spaces after it. */
const LIST_MARKER_PAD_RE = /^(?:[-*+]|\d{1,9}[.)]) +/;

/** A cell of a rule row under aligned columns: one character repeated, - or =. */
const RULE_CELL_RE = /^(?:-{3,}|={3,})$/;

/**
 * `indexHeader`: lines[from] is a data frame's header (hasInnerRun with `header`), taken only over
 * an empty first cell. `spacedHeader`: lines[from] may cross a gutter with one space (fixedWidth's `fenced`).
 */
function columnsOf(lines: string[], kinds: Uint8Array, from: number, to: number, indexHeader = false, spacedHeader = false): void {
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
    if (padded && e < width && splitsNoWords(lines, spacedHeader ? from + 1 : from, to, c, e)) gutters.push([c, e]);
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
    if (row.some((c) => c.length > (spacedHeader ? FENCED_CELL_MAX_CHARS : CELL_MAX_CHARS))) return;
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
