/** Token-window helpers shared by the lexical rule families. All are O(window) per call. */
import type { Tokens } from '../tokens.ts';

/**
 * Index of the first token in (i, i + maxDist] carrying any bit of `mask`, or -1. With
 * `sentence`, the search stops at the end of the sentence holding token i.
 */
export function findAfter(t: Tokens, cats: Uint32Array, i: number, mask: number, maxDist: number, sentence = true): number {
  const last = Math.min(t.count - 1, i + maxDist);
  for (let j = i + 1; j <= last; j++) {
    if (sentence && t.stop[j - 1] === 1) return -1;
    if ((cats[j]! & mask) !== 0) return j;
  }
  return -1;
}

/** Index of the last token in [i - maxDist, i) carrying any bit of `mask`, or -1. */
export function findBefore(t: Tokens, cats: Uint32Array, i: number, mask: number, maxDist: number, sentence = true): number {
  const first = Math.max(0, i - maxDist);
  for (let j = i - 1; j >= first; j--) {
    if (sentence && t.stop[j] === 1) return -1;
    if ((cats[j]! & mask) !== 0) return j;
  }
  return -1;
}

/**
 * Whether "you"/"your" is among tokens [from, from + span): a phrase that speaks to the reader.
 * With `sentence`, the look stops at the end of the sentence holding token `from`.
 */
export function youWithin(t: Tokens, from: number, span: number, sentence = false): boolean {
  const last = Math.min(t.count, from + span);
  for (let k = from; k < last; k++) {
    const x = t.words[k];
    if (x === 'you' || x === 'your' || x === 'youre') return true;
    if (sentence && t.stop[k] === 1) return false;
  }
  return false;
}
