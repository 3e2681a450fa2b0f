/**
 * API-09 structure pass (structure.ts): JSON. A JSON object or array that opens on a line is found
 * by a linear scan (jsonStart, jsonEnd: one budget per text) and written compact where it
 * round-trips (compactJson); so is the body of a ```json fence. mask.ts reads the same scans to
 * keep JSON whole.
 */

/**
 * `s` without whitespace outside strings, if it is one JSON object or array; else undefined. Every
 * token stays as written: a number keeps its spelling (`38.0`, `1e5`, `-0`, a price's `12.50`, an
 * id past 2^53), keys keep their order (`"359"` before `"76W"`, which JSON.parse would reorder)
 * and duplicates; between two tokens of JSON there is always punctuation, so the compact text
 * parses to what `s` parses to (checked: both values serialise alike). Inside strings, `\/` and
 * `\uXXXX` escapes of printable non-ASCII characters (letters, marks, digits, punctuation,
 * symbols: "\u00e9" → "é", a surrogate pair → its emoji) are written as the characters, as
 * JSON.stringify writes them; other escapes stay ("\u200b", "\u003c", "\u0041"). "[1 2]" is no
 * JSON: without its space it would read as [12].
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
  const expected = JSON.stringify(value);
  if (expected === out) return out;
  try {
    return JSON.stringify(JSON.parse(out)) === expected ? out : undefined;
  } catch {
    return undefined;
  }
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

export const FENCE_OPEN_RE = /^([ \t]*)(`{3,}|~{3,})[ \t]*([^\n]*)\n/;

/**
 * A fenced block whose info string is json (or empty) and whose body is compactable JSON: the body
 * compacted. In a fence without an info string only a value printed over several lines: one line
 * there is a program's output as it prints it ("[1, 2, 3, 4]"), which a prompt may ask for exactly.
 */
export function compactFencedJson(block: string): string {
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
  if (info === '' && !trimmed.includes('\n')) return block;
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

/** `[label] `: a label in brackets (no JSON punctuation in it) and a space, before the text that holds the value. */
const BRACKET_LABEL_RE = /^\[[^\][{}",]{1,48}\][ \t]/;

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
  if (c === 91) {
    // A bracketed label before the value: a role ("[tool] {", "[tool_call] lookup {"), a log
    // line's time ("[12:01:09] {"); the value is looked for after it, as after any text.
    const label = BRACKET_LABEL_RE.exec(line.slice(k, k + 64));
    if (label === null) return k;
    k += label[0].length;
    while (line.charCodeAt(k) === 32 || line.charCodeAt(k) === 9) k++;
    if (line.charCodeAt(k) === 123 || line.charCodeAt(k) === 91) return k;
  } else if (c === 123) return k;
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
