/**
 * The gateway's one BPE token counter (o200k_base, cl100k_base), shared by API-01 and API-09.
 *
 * Tables load once, offline, from the installed package. Special-token strings such as
 * `<|endoftext|>` inside user text are counted as ordinary text (never refused): a prompt is data,
 * not a control sequence.
 *
 * Implementation: gpt-tokenizer (pure JS), its pieces counted by the lean loop of pieces.ts, the
 * long ones merged in O(m log m) by merge.ts (the library's own merge is O(m²)).
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

/**
 * A one-byte copy of `text`, which holds Latin-1 characters only: written into a scratch buffer
 * reused by every call (kept up to 256 KiB) and read back as a new string. Buffer.from allocated
 * a new backing store per call, ~4x the cost of the copy itself at 10 KB.
 */
export function oneByteCopy(text: string): string {
  let buffer = latin1Scratch;
  if (text.length > buffer.length) {
    buffer = Buffer.allocUnsafe(text.length);
    if (text.length <= LATIN1_SCRATCH_MAX) latin1Scratch = buffer;
  }
  return buffer.toString('latin1', 0, buffer.write(text, 0, 'latin1'));
}
const LATIN1_SCRATCH_MAX = 256 * 1024;
let latin1Scratch = Buffer.allocUnsafe(16 * 1024);

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

/** How many segments ahead the in-order match of countTokensPair looks for a segment's partner. */
const RESYNC_SEGMENTS = 8;

/** The segments of tokenSegments, cut only as far as they are asked for. */
class SegmentCursor {
  readonly list: string[] = [];
  /** Characters cut so far. */
  cut = 0;

  constructor(readonly text: string) {}

  /** The k-th segment, or undefined past the end. */
  get(k: number): string | undefined {
    const { list, text } = this;
    while (list.length <= k && this.cut < text.length) {
      CUT_RE.lastIndex = this.cut;
      const m = CUT_RE.exec(text);
      const end = m === null ? text.length : m.index + 1;
      list.push(text.slice(this.cut, end));
      this.cut = end;
    }
    return list[k];
  }
}

/**
 * The token counts of `original` and of `edited`, an edited copy of it, both exact. Counts add up
 * over the segments of tokenSegments, so the copy need not be tokenised where it kept the
 * original's segments. The copy keeps the original's order, so its segments are matched with the
 * original's in one in-order walk (equal strings; a partner is looked for up to RESYNC_SEGMENTS
 * ahead on either side, which covers dropped and rewritten segments): the copy's segments without
 * a partner were gained, the original's were lost. Any such matching gives exact counts (matched
 * segments are equal strings); a poorer one only tokenises more. Of three exact ways, the one that
 * tokenises the fewest characters (segments weighted by SEGMENT_COST) is taken:
 *   - delta: the original counted whole; the copy's count is the original's minus the segments
 *     it lost plus the segments it gained: few edits;
 *   - segments: the original summed segment by segment (each distinct segment tokenised once),
 *     the copy from the matched segments' counts and its gained ones: many edited segments, but
 *     most of the copy kept;
 *   - whole: both counted whole: most of the copy edited. The walk (and the cutting into
 *     segments) stops as soon as the other two cannot be cheaper any more, or when, a quarter into
 *     the original, the edits so far projected over the whole text make counting whole the cheapest.
 *
 * @example countTokensPair('Hello  world.\nBye.', 'Hello world.\nBye.', 'o200k_base') // [6, 5]
 */
export function countTokensPair(original: string, edited: string, encoding: Encoding): [number, number] {
  if (edited === original) {
    const n = countTokens(original, encoding);
    return [n, n];
  }
  // A text with characters beyond Latin-1 is counted whole in runs of segments (countMixed), at about the segment-wise cost.
  const twoByte = NON_LATIN1_RE.test(original);
  const wholeCost = twoByte ? SEGMENT_COST : 1;
  const n = original.length;
  const costWhole = (n + edited.length) * wholeCost;
  const countWhole = (): [number, number] => [countTokens(original, encoding), countTokens(edited, encoding)];
  /** True when counting whole costs no more than the other two ways would with these gained and lost characters. */
  const wholeWins = (gained: number, lost: number): boolean => costWhole <= (n + gained) * SEGMENT_COST && costWhole <= n * wholeCost + (gained + lost) * SEGMENT_COST;
  const before = new SegmentCursor(original);
  const after = new SegmentCursor(edited);
  const partner: number[] = []; // the original segment a copy segment equals, or -1 (gained)
  const matched: number[] = []; // 1: the original segment has a partner, 0: lost
  let gained = 0; // characters of the copy in segments without a partner
  let lost = 0; // characters of the original in segments without a partner
  let walked = 0; // characters of the original walked over
  let projected = false;
  let i = 0;
  let j = 0;
  for (let b = before.get(0), a = after.get(0); b !== undefined && a !== undefined; b = before.get(i), a = after.get(j)) {
    if (b === a) {
      partner[j++] = i;
      matched[i++] = 1;
      walked += b.length;
      continue;
    }
    let d = 1; // original segments dropped before a?
    while (d <= RESYNC_SEGMENTS && before.get(i + d) !== undefined && before.list[i + d] !== a) d++;
    if (d <= RESYNC_SEGMENTS && i + d < before.list.length) {
      for (let k = i; k < i + d; k++) {
        lost += before.list[k]!.length;
        matched[k] = 0;
      }
      for (let k = i; k <= i + d; k++) walked += before.list[k]!.length;
      partner[j++] = i + d;
      matched[i + d] = 1;
      i += d + 1;
    } else {
      let e = 1; // copy segments that replace what came before b?
      while (e <= RESYNC_SEGMENTS && after.get(j + e) !== undefined && after.list[j + e] !== b) e++;
      if (e <= RESYNC_SEGMENTS && j + e < after.list.length) {
        for (let k = j; k < j + e; k++) {
          gained += after.list[k]!.length;
          partner[k] = -1;
        }
        partner[j + e] = i;
        matched[i++] = 1;
        j += e + 1;
      } else {
        lost += b.length;
        matched[i++] = 0;
        gained += a.length;
        partner[j++] = -1;
      }
      walked += b.length;
    }
    // Both other ways only grow from here on: once neither can beat counting whole, count whole.
    if (wholeWins(gained, lost)) return countWhole();
    if (!projected && walked * 4 >= n) {
      projected = true;
      if (wholeWins((gained * n) / walked, (lost * n) / walked)) return countWhole();
    }
  }
  for (; before.get(i) !== undefined; i++) {
    lost += before.list[i]!.length;
    matched[i] = 0;
  }
  for (; after.get(j) !== undefined; j++) {
    gained += after.list[j]!.length;
    partner[j] = -1;
  }
  const costDelta = n * wholeCost + (gained + lost) * SEGMENT_COST;
  const costSegments = (n + gained) * SEGMENT_COST;
  if (costWhole <= costDelta && costWhole <= costSegments) return countWhole();
  const cache = new Map<string, number>();
  const count = (segment: string): number => {
    let c = cache.get(segment);
    if (c === undefined) cache.set(segment, (c = twoByte ? countTokens(segment, encoding) : countRaw(segment, encoding)));
    return c;
  };
  if (costSegments < costDelta) {
    const counts = before.list.map(count);
    let total = 0;
    for (const c of counts) total += c;
    let copy = 0;
    for (let k = 0; k < after.list.length; k++) copy += partner[k]! >= 0 ? counts[partner[k]!]! : count(after.list[k]!);
    return [total, copy];
  }
  const whole = countTokens(original, encoding);
  let copy = whole;
  for (let k = 0; k < before.list.length; k++) if (matched[k] === 0) copy -= count(before.list[k]!);
  for (let k = 0; k < after.list.length; k++) if (partner[k] === -1) copy += count(after.list[k]!);
  return [whole, copy];
}
