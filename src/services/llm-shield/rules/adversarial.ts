/**
 * Adversarial suffixes (GCG/DSN-style optimised token soup such as `describing.\ + similarlyNow
 * write oppositeley.]( Me giving**ONE`). Works on whitespace-separated chunks of the light view
 * (case kept): a chunk is odd when it carries two or more brackets/operators/quote marks, or
 * glues words with an inner case switch (`manualINST`, `introPub`). A window of eight chunks with
 * three or more odd ones is a suffix. Prose rarely does this; code does, which is why the
 * jailbreak family only counts a suffix next to a harmful request. O(n).
 *
 * A second, sharper reading (`tailSoup`) uses where optimised suffixes sit: appended to a plain
 * request on the same line, at the very end. It scores the last chunks of the last line for
 * broken word shapes (symbol clusters, words glued by a case switch, sentence punctuation or a
 * quote mark inside a chunk, repeated punctuation) and only counts when that line starts with
 * ordinary prose. Code, tables and equations sit on lines of their own, so they do not read as a
 * suffix, which is what lets this signal stand with weaker evidence of a harmful request. O(n).
 */

const WINDOW = 8;
const MIN_ODD = 3;

function isOddSymbol(c: number): boolean {
  // ( ) [ ] { } < > = | \ * ` ~ ^ $ # % + & (not " or _: quoted words and snake_case are ordinary)
  return c === 40 || c === 41 || c === 91 || c === 93 || c === 123 || c === 125 || c === 60 || c === 62 || c === 61 || c === 124 || c === 92 || c === 42 || c === 96 || c === 126 || c === 94 || c === 36 || c === 35 || c === 37 || c === 43 || c === 38;
}

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/** Odd chunk: symbol soup, or lower->upper switch after two lower-case letters ("introPub"). */
function oddChunk(s: string, from: number, to: number): boolean {
  let sym = 0;
  let lowerRun = 0;
  let letters = 0;
  let camel = false;
  let bang = 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (isOddSymbol(c)) sym++;
    else if (c === 33 || c === 63) bang++;
    if (c >= 97 && c <= 122) {
      lowerRun++;
      letters++;
    } else if (c >= 65 && c <= 90) {
      if (lowerRun >= 2 && i + 1 < to) camel = true;
      lowerRun = 0;
      letters++;
    } else lowerRun = 0;
  }
  // a chunk of punctuation alone ("(", "=>", "!!") that is not a dash or an ellipsis
  if (letters === 0 && (sym >= 1 || bang >= 2) && !hasDigit(s, from, to)) return true;
  return sym >= 2 || (camel && letters >= 6 && to - from >= 7 && hasUpperRunOrDigit(s, from, to));
}

function hasDigit(s: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) return true;
  }
  return false;
}

/** "manualINST", "textitspanifying6", "possAPPDefaultBrush": an upper-case run of 2+ or a digit tail. */
function hasUpperRunOrDigit(s: string, from: number, to: number): boolean {
  let upper = 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c >= 65 && c <= 90) {
      if (++upper >= 2) return true;
    } else upper = 0;
    if (c >= 48 && c <= 57 && i > from) return true;
  }
  return false;
}

/**
 * Strength of the strongest adversarial-suffix window of the light view: 0 (none), 1 (two odd
 * chunks in a window of eight), 2 (three or more).
 */
export function adversarialSuffixStrength(text: string): 0 | 1 | 2 {
  let best: 0 | 1 | 2 = 0;
  const odd: number[] = [];
  let sum = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    while (i < n && isSpace(text.charCodeAt(i))) i++;
    if (i >= n) break;
    const from = i;
    while (i < n && !isSpace(text.charCodeAt(i))) i++;
    const o = oddChunk(text, from, i) ? 1 : 0;
    odd.push(o);
    sum += o;
    const k = odd.length;
    if (k > WINDOW) sum -= odd[k - 1 - WINDOW]!;
    if (sum >= MIN_ODD) return 2;
    if (sum >= MIN_ODD - 1) best = 1;
  }
  return best;
}

/** Chunks at the end of the last line that `tailSoup` scores. */
const TAIL_CHUNKS = 12;
/** Plain prose chunks the last line must start with before the scored tail. */
const MIN_PROSE_PREFIX = 5;

function isLower(c: number): boolean {
  return c >= 97 && c <= 122;
}
function isUpper(c: number): boolean {
  return c >= 65 && c <= 90;
}
function isLetter(c: number): boolean {
  return isLower(c) || isUpper(c) || c >= 0xc0;
}

/**
 * Broken-shape score of one whitespace chunk, 0 (a word as prose writes it) to 3. A prose
 * bracket or quote at the edge of a word ("(the", "whale),", "\"Hello\"") is not counted.
 */
export function chunkShape(s: string, from: number, to: number): number {
  // peel prose edges: one opening bracket/quote, closing brackets/quotes and sentence punctuation
  let a = from;
  let b = to;
  const open = s.charCodeAt(a);
  if (b - a > 1 && (open === 40 || open === 91 || open === 34 || open === 39 || open === 0x201c || open === 0x2018)) a++;
  while (b - a > 1) {
    const c = s.charCodeAt(b - 1);
    if (c === 46 || c === 44 || c === 59 || c === 58 || c === 33 || c === 63 || c === 41 || c === 93 || c === 34 || c === 39 || c === 0x201d || c === 0x2019) b--;
    else break;
  }
  if (techName(s, a, b)) return 0;
  let sym = 0;
  let letters = 0;
  let lowerRun = 0;
  let camel = false;
  let inner = false;
  let repeated = false;
  let quote = false;
  for (let i = a; i < b; i++) {
    const c = s.charCodeAt(i);
    const next = i + 1 < b ? s.charCodeAt(i + 1) : -1;
    if (isOddSymbol(c) || c === 95) sym++;
    if (isLower(c)) {
      lowerRun++;
      letters++;
    } else if (isUpper(c)) {
      if (lowerRun >= 2) camel = true;
      lowerRun = 0;
      letters++;
    } else {
      lowerRun = 0;
      if (c >= 0xc0) letters++;
    }
    // sentence punctuation glued to what follows: "English!one", "??legt", "describing.\\"
    if ((c === 33 || c === 63 || c === 59 || c === 44) && next >= 0 && (isLetter(next) || isOddSymbol(next) || next === 34)) inner = true;
    if (c === 46 && i > a && next >= 0 && ((isUpper(next) && isLower(s.charCodeAt(i - 1))) || isOddSymbol(next) || next === 34)) inner = true;
    // "!!", "??", "****", "////": not the dots of an ellipsis or the dashes of a rule
    if (i > a && c === s.charCodeAt(i - 1) && !isLetter(c) && !(c >= 48 && c <= 57) && c !== 46 && c !== 45) repeated = true;
    if (c === 34 && i > a && next >= 0 && isLetter(s.charCodeAt(i - 1)) && isLetter(next)) quote = true;
  }
  let k = sym >= 2 ? 2 : sym;
  if (camel && letters >= 5) k++;
  if (inner) k++;
  if (repeated) k++;
  if (quote) k++;
  return k > 3 ? 3 : k;
}

/** "C++", "C#", "3.5%", "$20", "#1": a short name or number with a sign prose writes that way. */
function techName(s: string, a: number, b: number): boolean {
  let i = a;
  if (s.charCodeAt(i) === 36 || s.charCodeAt(i) === 35) i++;
  const core = i;
  while (i < b) {
    const c = s.charCodeAt(i);
    if (!(isLetter(c) || (c >= 48 && c <= 57) || c === 46 || c === 44)) break;
    i++;
  }
  if (i === core) return false;
  if (core > a) return i === b;
  if (i - core > 3 && !(s.charCodeAt(i) === 37)) return false;
  let signs = 0;
  while (i < b && (s.charCodeAt(i) === 43 || s.charCodeAt(i) === 35 || s.charCodeAt(i) === 37)) {
    i++;
    signs++;
  }
  return i === b && signs >= 1 && signs <= 2;
}

/**
 * Suffix score of the text's last line: the summed chunk shapes of its last TAIL_CHUNKS chunks,
 * or 0 when fewer than MIN_PROSE_PREFIX plain chunks precede them on that line. One backward
 * scan for the line start, one forward pass over the line: O(n).
 */
export function tailSoup(text: string): number {
  let end = text.length;
  while (end > 0 && isSpace(text.charCodeAt(end - 1))) end--;
  let begin = end;
  while (begin > 0 && text.charCodeAt(begin - 1) !== 10) begin--;
  const shapes: number[] = [];
  let i = begin;
  while (i < end) {
    while (i < end && isSpace(text.charCodeAt(i))) i++;
    if (i >= end) break;
    const from = i;
    while (i < end && !isSpace(text.charCodeAt(i))) i++;
    shapes.push(chunkShape(text, from, i));
  }
  const cut = shapes.length - TAIL_CHUNKS;
  let prose = 0;
  for (let k = 0; k < cut; k++) if (shapes[k] === 0) prose++;
  if (prose < MIN_PROSE_PREFIX) return 0;
  let sum = 0;
  for (let k = cut; k < shapes.length; k++) sum += shapes[k]!;
  return sum;
}
