/**
 * Native skips patched into the page's htmlparser2 Tokenizer (html-events.ts): names and runs up
 * to a known character found with one search instead of the tokenizer's per-character loop.
 */
import type { Tokenizer } from 'htmlparser2';

/** The Tokenizer fields nativeSkips reads and writes (htmlparser2 12.0.0, pinned in package.json). */
interface SkippingTokenizer {
  buffer: string;
  index: number;
  offset: number;
  fastForwardTo(c: number): boolean;
  stateInTagName(c: number): void;
  stateInClosingTagName(c: number): void;
  stateInAttributeName(c: number): void;
}

/**
 * The index of the first character at or after `from` in `s` that ends a name: whitespace, `/` or
 * `>`, and `=` when `eq` (an attribute name); `s.length` when there is none.
 */
function nameEnd(s: string, from: number, eq: boolean): number {
  let i = from;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c <= 32 ? c === 32 || c === 10 || c === 9 || c === 12 || c === 13 : c === 47 || c === 62 || (eq && c === 61)) break;
  }
  return i;
}

/**
 * Name states that skip the characters of a name at once: the tokenizer's own state does nothing
 * for them but step to the next (its parse loop costs ~100 instructions a character, and names
 * were ~40% of the characters it walked on the eval pages). `index` moves to the character that
 * ends the name and the tokenizer's own state runs there, as it would have after walking; when
 * the buffer ends first, `index` stays on its last character (the parse loop's `index++` then
 * ends the loop, with the name pending, as after walking: cleanup emits nothing for a name).
 * Returns the ending character, or -1 at the end of the buffer.
 */
function toNameEnd(t: SkippingTokenizer, c: number, eq: boolean): number {
  if (c <= 32 ? c === 32 || c === 10 || c === 9 || c === 12 || c === 13 : c === 47 || c === 62 || (eq && c === 61)) return c;
  const buffer = t.buffer;
  const at = nameEnd(buffer, t.index - t.offset + 1, eq);
  if (at === buffer.length) {
    t.index = at + t.offset - 1;
    return -1;
  }
  t.index = at + t.offset;
  return buffer.charCodeAt(at);
}

const CHARS = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c));

/**
 * htmlparser2's Tokenizer skips to a known character (text up to `<`, a quoted attribute value up
 * to its quote, a comment or declaration up to `-` or `>`) with a charCodeAt loop; this replaces
 * that method on our own instance with the same skip as one native indexOf (a fifth of the parse
 * time on the eval pages went to that loop). Same contract: from index + 1, true with `index` on
 * the character, else false with `index` on the last character of the buffer. Only when the
 * instance has the fields and method of the version it was written for; the tree test compares
 * the events with htmlparser2's own Parser either way.
 */
export function nativeSkips(tokenizer: Tokenizer): void {
  const t = tokenizer as unknown as SkippingTokenizer;
  if (typeof t.fastForwardTo !== 'function' || typeof t.buffer !== 'string' || typeof t.index !== 'number' || typeof t.offset !== 'number') return;
  if (typeof t.stateInTagName === 'function' && typeof t.stateInClosingTagName === 'function' && typeof t.stateInAttributeName === 'function') {
    // One function each (not one closure made three times): each calls its own state directly.
    const tagName = t.stateInTagName;
    const closingTagName = t.stateInClosingTagName;
    const attributeName = t.stateInAttributeName;
    t.stateInTagName = function (this: SkippingTokenizer, c: number): void {
      const end = toNameEnd(this, c, false);
      if (end >= 0) tagName.call(this, end);
    };
    t.stateInClosingTagName = function (this: SkippingTokenizer, c: number): void {
      const end = toNameEnd(this, c, false);
      if (end >= 0) closingTagName.call(this, end);
    };
    t.stateInAttributeName = function (this: SkippingTokenizer, c: number): void {
      const end = toNameEnd(this, c, true);
      if (end >= 0) attributeName.call(this, end);
    };
  }
  t.fastForwardTo = function (this: SkippingTokenizer, c: number): boolean {
    const at = this.buffer.indexOf(c < 128 ? CHARS[c]! : String.fromCharCode(c), this.index + 1 - this.offset);
    if (at >= 0) {
      this.index = at + this.offset;
      return true;
    }
    this.index = this.buffer.length + this.offset - 1;
    return false;
  };
}
