/**
 * The gateway's one BPE token counter (o200k_base, cl100k_base), shared by API-01 and API-09.
 *
 * Tables load once, offline, from the installed package. Special-token strings such as
 * `<|endoftext|>` inside user text are counted as ordinary text (never refused): a prompt is data,
 * not a control sequence.
 *
 * Implementation: gpt-tokenizer (pure JS). bench/micro/tokenizer.ts compares it with js-tiktoken
 * and the WASM `tiktoken` on the same inputs (counts asserted identical first).
 */
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';

export type Encoding = 'o200k_base' | 'cl100k_base';

export const ENCODINGS: readonly Encoding[] = Object.freeze(['o200k_base', 'cl100k_base'] as const);

// Empty set: no special token is refused, all are tokenised as the plain text they are.
const PLAIN_TEXT = Object.freeze({ disallowedSpecial: new Set<string>() });

/**
 * Number of BPE tokens of `text` in `encoding`.
 *
 * @example countTokens('hello world', 'o200k_base') // 2
 */
export function countTokens(text: string, encoding: Encoding): number {
  if (text.length === 0) return 0;
  switch (encoding) {
    case 'o200k_base':
      return countO200k(text, PLAIN_TEXT);
    case 'cl100k_base':
      return countCl100k(text, PLAIN_TEXT);
    default:
      throw new RangeError(`unknown encoding: ${String(encoding)}`);
  }
}

/**
 * Where the text may be cut so that the two sides tokenise exactly as the whole does: right after
 * a line break that a character other than whitespace or "/" follows, and right after . ! or ?
 * when a space follows. No pre-tokenizer piece of o200k_base or cl100k_base runs across such a
 * point (a piece holds a line break only among whitespace, or at the end of a punctuation run,
 * which o200k continues only with line breaks and "/"; a punctuation run ends at a space; the
 * patterns look behind nothing, and ahead only across whitespace), so the count of the whole is
 * the sum of the counts of the pieces between cut points. test/tokenizer.test.ts checks this
 * against the whole-text count on the eval prompts and on random text.
 */
const CUT_RE = /\n(?=[^\s/])|[.!?](?= )/g;

/** `text` cut at the points of CUT_RE (joined again, the pieces give `text`). */
export function tokenSegments(text: string): string[] {
  const out: string[] = [];
  let last = 0;
  CUT_RE.lastIndex = 0;
  for (let m = CUT_RE.exec(text); m !== null; m = CUT_RE.exec(text)) {
    const end = m.index + 1;
    out.push(text.slice(last, end));
    last = end;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/**
 * The token counts of `original` and of `edited`, an edited copy of it, both exact: each is the
 * sum of its segments' counts (tokenSegments), and a segment of the copy that the original has
 * unchanged is not tokenised again. Pays where the copy keeps most segments as they were: a copy
 * with a few edited lines costs about one count plus ~0.3 µs per segment (the tokenizer's cost
 * per call) instead of two counts; a copy edited in nearly every sentence costs more than two
 * whole counts (bench/micro/tokenizer.ts measures both).
 *
 * @example countTokensPair('Hello  world.\nBye.', 'Hello world.\nBye.', 'o200k_base') // [6, 5]
 */
export function countTokensPair(original: string, edited: string, encoding: Encoding): [number, number] {
  if (edited === original) {
    const n = countTokens(original, encoding);
    return [n, n];
  }
  const cache = new Map<string, number>();
  return [sumSegments(original, encoding, cache), sumSegments(edited, encoding, cache)];
}

/** countTokens(text) as the sum over its segments, each distinct segment tokenised once (`cache`: segment → count). */
function sumSegments(text: string, encoding: Encoding, cache: Map<string, number>): number {
  let total = 0;
  let last = 0;
  CUT_RE.lastIndex = 0;
  for (;;) {
    const m = CUT_RE.exec(text);
    const end = m === null ? text.length : m.index + 1;
    if (end > last) {
      const segment = text.slice(last, end);
      let n = cache.get(segment);
      if (n === undefined) cache.set(segment, (n = countTokens(segment, encoding)));
      total += n;
    }
    if (m === null) return total;
    last = end;
  }
}
