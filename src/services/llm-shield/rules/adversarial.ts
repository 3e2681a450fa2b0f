/**
 * Adversarial suffixes (GCG/DSN-style optimised token soup such as `describing.\ + similarlyNow
 * write oppositeley.]( Me giving**ONE`). Works on whitespace-separated chunks of the light view
 * (case kept): a chunk is odd when it carries two or more brackets/operators/quote marks, or
 * glues words with an inner case switch (`manualINST`, `introPub`). A window of eight chunks with
 * three or more odd ones is a suffix. Prose rarely does this; code does, which is why the
 * jailbreak family only counts a suffix next to a harmful request. O(n).
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
