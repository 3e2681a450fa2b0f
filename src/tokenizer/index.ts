/**
 * The gateway's one BPE token counter (o200k_base, cl100k_base), shared by API-01 and API-09.
 *
 * Tables load once, offline, from the installed package. Special-token strings such as
 * `<|endoftext|>` inside user text are counted as ordinary text (never refused): a prompt is data,
 * not a control sequence.
 *
 * Implementation: gpt-tokenizer (pure JS), its pieces counted by the lean loop of pieces.ts.
 * bench/micro/tokenizer.ts compares it with js-tiktoken and the WASM `tiktoken` on the same
 * inputs (counts asserted identical first).
 */
import o200kApi, { countTokens as countO200kPublic } from 'gpt-tokenizer/encoding/o200k_base';
import cl100kApi, { countTokens as countCl100kPublic } from 'gpt-tokenizer/encoding/cl100k_base';
import { pieceCounter } from './pieces.ts';

export type Encoding = 'o200k_base' | 'cl100k_base';

export const ENCODINGS: readonly Encoding[] = Object.freeze(['o200k_base', 'cl100k_base'] as const);

// Empty set: no special token is refused, all are tokenised as the plain text they are.
const PLAIN_TEXT = Object.freeze({ disallowedSpecial: new Set<string>() });

const publicO200k = (text: string): number => countO200kPublic(text, PLAIN_TEXT);
const publicCl100k = (text: string): number => countCl100kPublic(text, PLAIN_TEXT);
/** The lean count loop of pieces.ts where the library's internals allow it, else its public countTokens. */
const countO200k = pieceCounter(o200kApi, publicO200k) ?? publicO200k;
const countCl100k = pieceCounter(cl100kApi, publicCl100k) ?? publicCl100k;

/** The library's count of `text` as it is. */
function countRaw(text: string, encoding: Encoding): number {
  switch (encoding) {
    case 'o200k_base':
      return countO200k(text);
    case 'cl100k_base':
      return countCl100k(text);
    default:
      throw new RangeError(`unknown encoding: ${String(encoding)}`);
  }
}

/**
 * V8 keeps a string whose characters are all Latin-1 in a one-byte form, unless it was cut from
 * or built with a two-byte string (a prompt with one em dash is two-byte throughout, and so is
 * every slice of it). The tokenizer's pre-tokenizer regex and its rank lookups run about twice as
 * fast on one-byte strings (bench/micro/tokenizer.ts): Latin-1 text is counted as a one-byte copy,
 * and text with other characters is counted in runs between the cut points of `tokenSegments`
 * (counts add up there), its Latin-1 runs as one-byte copies. Below ONE_BYTE_MIN characters the
 * copy costs more than it saves.
 */
const ONE_BYTE_MIN = 64;
const NON_LATIN1_RE = /[^\x00-\xff]/;

/** A one-byte copy of `text`, which holds Latin-1 characters only. */
const oneByteCopy = (text: string): string => Buffer.from(text, 'latin1').toString('latin1');

/**
 * Number of BPE tokens of `text` in `encoding`.
 *
 * @example countTokens('hello world', 'o200k_base') // 2
 */
export function countTokens(text: string, encoding: Encoding): number {
  if (text.length === 0) return 0;
  if (text.length < ONE_BYTE_MIN) return countRaw(text, encoding);
  if (!NON_LATIN1_RE.test(text)) return countRaw(oneByteCopy(text), encoding);
  return countMixed(text, encoding);
}

/** `text` (holding a character beyond Latin-1) counted in runs of segments: Latin-1 runs as one-byte copies. */
function countMixed(text: string, encoding: Encoding): number {
  let total = 0;
  let runStart = 0; // start of the current run of segments
  let runLatin1 = true; // whether the current run is Latin-1 only
  let last = 0;
  const flush = (end: number): void => {
    if (end <= runStart) return;
    const run = text.slice(runStart, end);
    total += runLatin1 && run.length >= ONE_BYTE_MIN ? countRaw(oneByteCopy(run), encoding) : countRaw(run, encoding);
    runStart = end;
  };
  CUT_RE.lastIndex = 0;
  for (let m = CUT_RE.exec(text); ; m = CUT_RE.exec(text)) {
    const end = m === null ? text.length : m.index + 1;
    if (end > last) {
      const latin1 = !NON_LATIN1_RE.test(text.slice(last, end));
      if (latin1 !== runLatin1) {
        flush(last);
        runLatin1 = latin1;
      }
      last = end;
    }
    if (m === null) break;
  }
  flush(text.length);
  return total;
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
 * Segment-wise counting costs about a third more per character than one whole count (one
 * tokenizer call per segment, ~0.3 µs each, and the lookups; bench/micro/tokenizer.ts).
 */
const SEGMENT_COST = 1.35;

/**
 * The token counts of `original` and of `edited`, an edited copy of it, both exact. Counts add up
 * over the segments of tokenSegments, so the copy need not be tokenised where it kept the
 * original's segments. Of three exact ways, the one that tokenises the fewest characters (segments
 * weighted by SEGMENT_COST) is taken:
 *   - delta: the original counted whole; the copy's count is the original's minus the segments
 *     it lost plus the segments it gained (compared as multisets): few edits;
 *   - segments: both summed segment by segment, each distinct segment tokenised once: many
 *     edited segments, but most of the copy kept;
 *   - whole: both counted whole: most of the copy edited.
 *
 * @example countTokensPair('Hello  world.\nBye.', 'Hello world.\nBye.', 'o200k_base') // [6, 5]
 */
export function countTokensPair(original: string, edited: string, encoding: Encoding): [number, number] {
  if (edited === original) {
    const n = countTokens(original, encoding);
    return [n, n];
  }
  const before = tokenSegments(original);
  const after = tokenSegments(edited);
  // Occurrences of each segment in the copy minus those in the original.
  const delta = new Map<string, number>();
  for (const segment of after) delta.set(segment, (delta.get(segment) ?? 0) + 1);
  for (const segment of before) delta.set(segment, (delta.get(segment) ?? 0) - 1);
  let gained = 0; // characters of the copy in segments the original lacks
  let lost = 0; // characters of the original in segments the copy lacks
  for (const [segment, n] of delta) {
    if (n > 0) gained += n * segment.length;
    else if (n < 0) lost -= n * segment.length;
  }
  // A text with characters beyond Latin-1 is counted whole in runs of segments (countMixed), at about the segment-wise cost.
  const twoByte = NON_LATIN1_RE.test(original);
  const wholeCost = twoByte ? SEGMENT_COST : 1;
  const costDelta = original.length * wholeCost + (gained + lost) * SEGMENT_COST;
  const costSegments = (original.length + gained) * SEGMENT_COST;
  const costWhole = (original.length + edited.length) * wholeCost;
  if (costWhole <= costDelta && costWhole <= costSegments) return [countTokens(original, encoding), countTokens(edited, encoding)];
  if (costSegments < costDelta) {
    const cache = new Map<string, number>();
    return [sumSegments(before, twoByte, encoding, cache), sumSegments(after, NON_LATIN1_RE.test(edited), encoding, cache)];
  }
  const whole = countTokens(original, encoding);
  let total = whole;
  for (const [segment, n] of delta) if (n !== 0) total += n * (twoByte ? countTokens(segment, encoding) : countRaw(segment, encoding));
  return [whole, total];
}

/**
 * The sum of the segments' counts, each distinct segment tokenised once (`cache`: segment → count).
 * `twoByte`: the segments were cut from a text with a character beyond Latin-1, so they are
 * two-byte strings and the long Latin-1 ones are counted as one-byte copies (countTokens); cut
 * from a Latin-1 text they are counted as they are.
 */
function sumSegments(segments: readonly string[], twoByte: boolean, encoding: Encoding, cache: Map<string, number>): number {
  let total = 0;
  for (const segment of segments) {
    let n = cache.get(segment);
    if (n === undefined) cache.set(segment, (n = twoByte ? countTokens(segment, encoding) : countRaw(segment, encoding)));
    total += n;
  }
  return total;
}
