/**
 * What must survive compression, as regular expressions shared by the compressor (which copies
 * every match verbatim) and the retention checker (which proves that each match of the input is
 * still in the output). Compiled once at module load; the regexes are stateless between uses
 * because every user resets `lastIndex` or uses `matchAll`/`replace`.
 */
import { NEGATION_WORDS, NON_SPEECH_TAGS } from './phrases.ts';

const src = (r: RegExp): string => r.source;

/**
 * Fenced Markdown code blocks (``` or ~~~, closing fence optional at the end). A fence is a whole
 * run of its character (`(?!`)`): without that a line of n backticks and no line break was tried
 * at every shorter run, O(n²).
 */
const FENCED_BLOCK_RE = /^([ \t]*)(`{3,}(?!`)|~{3,}(?!~))[^\n]*\n[\s\S]*?(?:^[ \t]*\2[`~]*[ \t]*$|(?![\s\S]))/gm;
/** The start of an HTML element whose content is code or raw text. */
const RAW_ELEMENT_RE = /<(pre|script|style|textarea)\b/gi;
const RAW_CLOSE_RE: Readonly<Record<string, RegExp>> = Object.freeze({
  pre: /<\/pre\s*>/gi,
  script: /<\/script\s*>/gi,
  style: /<\/style\s*>/gi,
  textarea: /<\/textarea\s*>/gi,
});

/** A code block of a text: where it starts and its text (as a `matchAll` match gives them). */
export interface CodeBlock {
  readonly index: number;
  readonly 0: string;
}

/**
 * The code blocks of `text`, left to right and not overlapping: fenced Markdown blocks and HTML
 * pre/script/style/textarea elements (from the opening tag to the first closing one). The same
 * blocks as the single regex `fence|<(pre|…)\b[^>]*>[\s\S]*?<\/\3\s*>` finds, in linear time: that
 * regex scanned to the text's end again for every opening tag left unclosed (`<pre>` 100,000
 * times took minutes). Here an element that finds no closing tag (or no `>`) shows that no later
 * one of its kind will, so its kind is not searched again.
 */
export function codeBlocks(text: string): CodeBlock[] {
  const out: CodeBlock[] = [];
  const closed = new Set<string>(); // kinds with no closing tag after the last search
  // The next fence and the next opening tag at or after `pos`, each searched again only once the
  // scan has passed it (undefined: search; null: there is none further on).
  let fence: RegExpExecArray | null | undefined;
  let opening: RegExpExecArray | null | undefined;
  let pos = 0;
  while (pos < text.length) {
    if (fence === undefined || (fence !== null && fence.index < pos)) {
      FENCED_BLOCK_RE.lastIndex = pos;
      fence = FENCED_BLOCK_RE.exec(text);
    }
    let element: CodeBlock | null = null;
    while (opening !== null && element === null) {
      if (opening === undefined || opening.index < pos) {
        RAW_ELEMENT_RE.lastIndex = Math.max(pos, opening === undefined ? 0 : RAW_ELEMENT_RE.lastIndex);
        opening = RAW_ELEMENT_RE.exec(text);
        if (opening === null) break;
      }
      if (fence !== null && opening.index > fence.index) break;
      const kind = opening[1]!.toLowerCase();
      const gt = closed.has(kind) ? -2 : text.indexOf('>', opening.index + opening[0].length);
      if (gt === -1) {
        opening = null; // no ">" after this opening tag: none after a later one either
        break;
      }
      if (gt >= 0) {
        const close = RAW_CLOSE_RE[kind]!;
        close.lastIndex = gt + 1;
        const c = close.exec(text);
        if (c !== null) element = { index: opening.index, 0: text.slice(opening.index, c.index + c[0].length) };
        else closed.add(kind);
      }
      if (element === null) {
        RAW_ELEMENT_RE.lastIndex = opening.index + 1;
        opening = RAW_ELEMENT_RE.exec(text);
      }
    }
    const next = element ?? (fence === null ? null : { index: fence.index, 0: fence[0] });
    if (next === null) break;
    out.push(next);
    // A block holds at least its opening: the scan always moves on.
    pos = next.index + next[0].length;
  }
  return out;
}

/**
 * Inline code as CommonMark reads it: a whole run of backticks closed by a run of the same length
 * on the same line (or a <code> element). Only whole runs: a run of n backticks was otherwise
 * tried from each of its positions, at each length, O(n²).
 */
export const INLINE_CODE = /(?<!`)(`+)[^`\n][^\n]*?(?<!`)\1(?!`)|<code\b[^>\n]*>[^\n]*?<\/code>/;
/** A pipe ends a URL (RFC 3986 has it percent-encoded): in a table row it closes the cell. */
export const URL = /\b(?:[A-Za-z][A-Za-z0-9+.-]*:\/\/|[Ww]{3}\.|mailto:)[^\s<>"'`|]*[^\s<>"'`|.,;:!?)\]}]/;
export const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/;
/**
 * Double, curly, guillemet and single quotes (a single quote must not touch a letter outside: "Let's" is no quote).
 * A quotation in prose is at most 400 characters (two quote marks further apart are unrelated),
 * but a string written with escapes (`\n`, `\"`, `\u00e9`) is a string of code or JSON, of any
 * length: a file's text passed to a tool ("def f():\n    return 1") keeps its spaces. Each
 * alternative stops at the next unescaped quote mark, so the scan stays linear.
 */
export const QUOTED = /"(?=(?:[^"\\\n]|\\.)*?\\)(?:[^"\\\n]|\\.)*"|"[^"\n]{0,400}"|“[^”\n]{0,400}”|„[^“”\n]{0,400}[“”]|«[^»\n]{0,400}»|(?<![A-Za-z0-9\u00C0-\u024F])'[^'\n]{1,400}'(?![A-Za-z0-9\u00C0-\u024F])|(?<![A-Za-z0-9\u00C0-\u024F])‘[^’\n]{1,400}’(?![A-Za-z0-9\u00C0-\u024F])/;
export const NUMBER = /\d+(?:[.,:/]\d+)*/;
/** camelCase / PascalCase with an inner capital, snake_case, words with digits, dotted names. */
export const IDENTIFIER = new RegExp(
  [
    String.raw`\b[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+(?:\(\))?`,
    String.raw`\b[A-Za-z0-9]*(?:[a-z][A-Z]|[A-Za-z0-9]_[A-Za-z0-9]|[A-Za-z]\d|\d[A-Za-z])\w*`,
    String.raw`\b_+[A-Za-z0-9]\w*`, // "___" is a rule line, not an identifier
  ].join('|'),
);
/** Template placeholders `{name}`, `{{name}}` and special-token spellings `<|endoftext|>` (transcript noise tags excluded). */
export const PLACEHOLDER = new RegExp(String.raw`\{\{?(?!(?:${NON_SPEECH_TAGS.join('|')})\})[A-Za-z_][\w.]*\}?\}|<\|[\w.-]+\|>`);
/** An HTML/XML tag that carries attributes: kept whole (its attribute values may hold URLs and quoted strings). */
export const TAG_WITH_ATTRIBUTES = /<\/?[A-Za-z][\w:-]*\s[^<>\n]*>/;

/**
 * Everything copied verbatim inside a prose line, found in two scans (maskProtected): spans that
 * open with their own character (inline code, tags with attributes, quotes, placeholders), then
 * word-like items (URLs, e-mails, identifiers, numbers). The second scan only tries a word that
 * holds what such an item needs (a digit, _ $ @, an inner . or :, an inner capital): plain words
 * are skipped at once, which makes the pair about twice as fast as one alternation of everything.
 */
export const SPAN_RE = new RegExp([INLINE_CODE, TAG_WITH_ATTRIBUTES, QUOTED, PLACEHOLDER].map(src).join('|'), 'g');
// The lookahead holds where one of the four can match: a digit, _ $ @, a "." or ":" inside a word
// ("os.path", "https:/"), or a capital after a lower-case letter (camelCase); a plain word, a
// capitalised word or a word before a full stop is passed over after a short scan.
const ITEM_LOOKAHEAD = String.raw`(?=[A-Za-z0-9_$.%+-]*?(?:[0-9_$@]|[.:][^\s.,;:!?)\]}'"]|[a-z][A-Z]))`;
/**
 * Most words of prose are plain: an optional capital, lower-case letters, then a character that
 * can neither continue an item (a letter, digit, _ $ % + @ -) nor be a "." or ":" that something
 * other than a space or a closing mark follows. At such a word ITEM_LOOKAHEAD always fails, but
 * only after trying its three triggers at every letter; this one greedy scan rejects the word
 * first (~35 % less time for the scan; same matches: wordItemRegExp(false) is the plain form, and
 * test/compress-core.test.ts compares the two).
 */
const PLAIN_WORD_SKIP = String.raw`(?![A-Z]?[a-z]+(?![A-Za-z0-9_$%+@-]|[.:](?![\s,;!?)\]}'"])))`;

/** The word-like items (URLs, e-mails, identifiers, numbers) as one regex; `skipPlain`: with the plain-word fast path. */
export function wordItemRegExp(skipPlain: boolean): RegExp {
  return new RegExp(`\\b${skipPlain ? PLAIN_WORD_SKIP : ''}${ITEM_LOOKAHEAD}(?:${[URL, EMAIL, IDENTIFIER, NUMBER].map(src).join('|')})`, 'g');
}
export const WORD_ITEM_RE = wordItemRegExp(true);

/** Replaces every protected span of `text` by `mask(span)` (a span may enclose an earlier mask). */
export function maskProtected(text: string, mask: (span: string) => string): string {
  return text.replace(SPAN_RE, mask).replace(WORD_ITEM_RE, mask);
}

/** Retention classes for the checker: each match of the input must occur in the output. */
export const RETAINED_CLASSES: Readonly<Record<string, RegExp>> = {
  number: new RegExp(NUMBER.source, 'g'),
  url: new RegExp(URL.source, 'g'),
  email: new RegExp(EMAIL.source, 'g'),
  quoted: new RegExp(QUOTED.source, 'g'),
  inline_code: new RegExp(INLINE_CODE.source, 'g'),
  identifier: new RegExp(IDENTIFIER.source, 'g'),
  placeholder: new RegExp(PLACEHOLDER.source, 'g'),
};

export const NEGATION_RE = new RegExp(String.raw`\b(?:${NEGATION_WORDS.join('|')})\b|n['’]t\b`, 'gi');

/**
 * An answer option of a multiple-choice question: "(A) text", "(a) text", "A) text", "A. text"
 * ("(1)" is not: at a line start it opens a numbered step more often than an option). Options
 * are answer candidates, kept verbatim in every level; so is every item of an "Options:" /
 * "Choices:" block (up to a blank line), which may also be written "- Yes" or "1. Yes", and a
 * header line that holds the options itself ("Answer Choices: (A) 5 (B) 6").
 */
export const OPTION_LINE_RE = /^[ \t]*(?:\([A-Za-z]\)|[A-Z][.)])[ \t]+\S/;
export const OPTIONS_HEADER_RE = /^[ \t]*(?:(?:answer[ \t]+)?options|(?:answer[ \t]+)?choices|candidates)[ \t]*:[ \t]*$/i;
/** The options written on the header's own line: "Answer Choices: (A) 5 (B) 6 (C) 7" (kept verbatim too). */
export const OPTIONS_INLINE_RE = /^[ \t]*(?:answer[ \t]+)?(?:options|choices)[ \t]*:[ \t]*\S/i;
/** A line of an options block: an option, or a bulleted / numbered item. */
export const OPTION_ITEM_RE = /^[ \t]*(?:[-*•][ \t]+\S|\d{1,2}[.)][ \t]+\S)/;

/**
 * Reads lines in order and tells which are answer options (kept verbatim): an option line
 * anywhere, and inside an options block (after an OPTIONS_HEADER_RE line, up to a blank line or
 * a line of another kind) also bulleted or numbered items. Shared by the masker and the checker.
 */
export function optionReader(): (line: string) => boolean {
  let inBlock = false;
  return (line) => {
    if (OPTION_LINE_RE.test(line) || OPTIONS_INLINE_RE.test(line) || (inBlock && OPTION_ITEM_RE.test(line))) return true;
    inBlock = OPTIONS_HEADER_RE.test(line);
    return false;
  };
}

/** Markdown table row: starts and ends with a pipe. */
export const TABLE_ROW_RE = /^\s*\|.*\|\s*$/;
/** Unfenced code: a line indented by a tab or four spaces. */
export const INDENTED_CODE_RE = /^(?: {4}|\t)/;
