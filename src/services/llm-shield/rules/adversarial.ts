/**
 * Adversarial suffixes (GCG/DSN-style optimised token soup such as `describing.\ + similarlyNow
 * write oppositeley.]( Me giving**ONE`): a window of words whose gaps are dense with brackets,
 * operators and quote marks. Prose and ordinary code rarely put odd symbols between most words of
 * a ten-word window; the jailbreak family only counts it next to a harmful request.
 */
import type { Tokens } from '../tokens.ts';

const WINDOW = 10;
const MIN_ODD_GAPS = 5;
const MIN_SYMBOLS = 12;

function isOddSymbol(c: number): boolean {
  // ( ) [ ] { } < > = | \ * ` ~ ^ $ # % + " & ! ?
  return c === 40 || c === 41 || c === 91 || c === 93 || c === 123 || c === 125 || c === 60 || c === 62 || c === 61 || c === 124 || c === 92 || c === 42 || c === 96 || c === 126 || c === 94 || c === 36 || c === 35 || c === 37 || c === 43 || c === 34 || c === 38 || c === 33 || c === 63;
}

/** First window of tokens [a, b] that looks like an adversarial suffix, or null. O(tokens). */
export function findAdversarialSuffix(t: Tokens, text: string): { a: number; b: number } | null {
  if (t.count < WINDOW) return null;
  const sym = new Int32Array(t.count);
  const odd = new Uint8Array(t.count);
  for (let i = 0; i < t.count; i++) {
    const from = t.end[i]!;
    const to = i + 1 < t.count ? t.start[i + 1]! : Math.min(text.length, from + 16);
    let n = 0;
    for (let k = from; k < to && k < from + 32; k++) if (isOddSymbol(text.charCodeAt(k))) n++;
    sym[i] = n;
    odd[i] = n >= 2 ? 1 : 0;
  }
  let symSum = 0;
  let oddSum = 0;
  for (let i = 0; i < t.count; i++) {
    symSum += sym[i]!;
    oddSum += odd[i]!;
    if (i >= WINDOW) {
      symSum -= sym[i - WINDOW]!;
      oddSum -= odd[i - WINDOW]!;
    }
    if (i >= WINDOW - 1 && oddSum >= MIN_ODD_GAPS && symSum >= MIN_SYMBOLS) return { a: i - WINDOW + 1, b: i };
  }
  return null;
}
