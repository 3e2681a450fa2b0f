/**
 * Retrieved passages in a prompt: the "Document [n](Title: T)" header and the ranges of passage
 * bodies, where answers are quoted word for word and the telegraphic rules hold back.
 */

/**
 * The retrieval-prompt header "Document [n](Title: T) body" (the lost-in-the-middle / NQ-open
 * template; also "Passage"). balanced drops "(Title: T)" when the body opens with T itself (the
 * title is then said twice); aggressive writes "[n](T) body", or "[n] body" when the body opens
 * with T. The number is a placeholder (masked); the title runs up to the ")" that a space follows,
 * so a title with its own parentheses stays whole.
 */
export const DOC_HEADER_RE = /\b(?:Document|Passage)[ \t]*\[(\x0E[\x10-\x1F]+\x0F)\](?:[ \t]*\(Title:[ \t]*([^\n]{1,300}?)\))?[ \t]+(?=\S)/g;

/** True when the text at `at` opens with `title` as whole words, after an optional article ("The 2011 NBA Finals"). */
function opensWith(all: string, at: number, title: string): boolean {
  if (title === '') return false;
  const article = LEADING_ARTICLE_RE.exec(all.slice(at, at + 4));
  if (article && !/^(?:the|a|an)\b/i.test(title)) at += article[0].length;
  if (!all.startsWith(title, at)) return false;
  const next = all.charCodeAt(at + title.length);
  const lower = next | 0x20;
  return !(lower >= 97 && lower <= 122) && !(next >= 48 && next <= 57) && next !== 0x0e;
}

const LEADING_ARTICLE_RE = /^(?:The|An|A) /;

export function dropRepeatedTitle(m: string, n: string, title: string | undefined, offset: number, all: string): string {
  return title !== undefined && opensWith(all, offset + m.length, title) ? m.slice(0, m.indexOf(']') + 1) + ' ' : m;
}

export function shortenDocHeader(m: string, n: string, title: string | undefined, offset: number, all: string): string {
  // Without a title, "Document [3]" is a header only where it opens its line: inside a sentence
  // ("Document [3] says …") it is a citation, and "[3] says" would lose its noun.
  if (title === undefined && !atLineStart(all, offset)) return m;
  return title === undefined || opensWith(all, offset + m.length, title) ? `[${n}] ` : `[${n}](${title}) `;
}

/** True when only blanks and line marks (\x02-\x04) stand between `at` and the start of its line. */
function atLineStart(all: string, at: number): boolean {
  for (let i = at - 1; i >= 0; i--) {
    const c = all.charCodeAt(i);
    if (c === 10) return true;
    if (c !== 32 && c !== 9 && (c < 2 || c > 4)) return false;
  }
  return true;
}

/**
 * A retrieved passage: from a line that opens with a passage header to the end of its paragraph
 * (a blank line). Headers: "[n]" and "[n](Title)" (what DOC_HEADER_RE leaves of "Document [n](Title:
 * T)"), "Document 3:", "Passage [2]", "Source #1.", "Context:", "Snippet 4)" and the like (numbers
 * are placeholders here), or an attribute-less <document>/<doc>/<passage>/<context>/<source> tag.
 * Answers are quoted from passages word for word, so there an article after a preposition stays
 * ("directly into the bloodstream").
 */
const NUM = String.raw`\x0E[\x10-\x1F]+\x0F`;
const EVIDENCE_HEADER_RE = new RegExp(
  String.raw`(?:^|\n)[\x02\x03\x04]?[ \t]*(?:\[${NUM}\](?:\([^\n]{0,300}?\)(?=[ \t]))?|(?:Document|Passage|Doc|Source|Context|Snippet|Excerpt|Article|Search result)s?[ \t]*(?:\[?#?${NUM}\]?[ \t]*[:.)\]-]?|:)|<(?:document|doc|passage|context|source)s?>)[ \t]*`,
  'y',
);

/** The first passage header from `from` on (at the text's start or at a line break), or null. */
function headerAt(text: string, from: number): RegExpExecArray | null {
  for (let at = from === 0 ? 0 : text.indexOf('\n', from); at !== -1; at = text.indexOf('\n', at + 1)) {
    EVIDENCE_HEADER_RE.lastIndex = at;
    const h = EVIDENCE_HEADER_RE.exec(text);
    if (h !== null) return h;
  }
  return null;
}

/** Retrieved-passage ranges of one text, queried in increasing offset order (one cursor). */
export class Passages {
  readonly #starts: number[] = [];
  readonly #bodies: number[] = [];
  readonly #ends: number[] = [];
  #r = 0;

  constructor(text: string) {
    // A header opens the text or follows a line break: the sticky regex is tried only there (the
    // same matches as one global scan, which tries every position: 2-3x slower).
    for (let h = headerAt(text, 0); h !== null; h = headerAt(text, h.index + h[0].length)) {
      const body = h.index + h[0].length;
      const end = text.indexOf('\n\n', body);
      // A passage runs to its paragraph's end or to the next header, whichever comes first.
      const last = this.#ends.length - 1;
      if (last >= 0 && this.#ends[last]! > h.index) this.#ends[last] = h.index;
      this.#starts.push(h.index);
      this.#bodies.push(body);
      this.#ends.push(end === -1 ? text.length : end);
    }
  }

  /** 0 outside passages, 1 inside, 2 at the first character of a passage's body. */
  at(offset: number): 0 | 1 | 2 {
    while (this.#r < this.#ends.length && this.#ends[this.#r]! < offset) this.#r++;
    if (this.#r >= this.#ends.length || this.#starts[this.#r]! > offset) return 0;
    return offset === this.#bodies[this.#r] ? 2 : 1;
  }
}
