/**
 * Inline text of the Markdown renderer (render.ts): whitespace collapsing and the <br> stand-in,
 * emphasis wrapping, Markdown escaping, and the plain text of an element. Scans, not regexes,
 * where a regex went quadratic on long runs (see trimBreaks and wrap).
 */
import type { ElementNode } from './dom.ts';

export const WS = /[ \t\n\r\f\u00a0]+/g;

/** Stand-in for <br> while inline whitespace is collapsed; becomes a Markdown hard break. */
export const HARD_BREAK = '\uE000';

/** Collapses inline whitespace and turns <br> stand-ins into hard breaks (two spaces, newline). */
export function finishInline(s: string): string {
  const t = trimBreaks(s.replace(/ {2,}/g, ' '));
  // Most paragraphs hold no <br>: skip the third pass.
  if (!t.includes(HARD_BREAK)) return t;
  return t.replace(/ *\uE000[ \uE000]*/g, (m) => '  \n'.repeat(Math.min(2, m.split(HARD_BREAK).length - 1)));
}

/** One character of JavaScript's `\s` (WhiteSpace and LineTerminator in the spec). */
const SPACE_CHAR = /\s/;

/** `c` is white space as `\s` reads it. */
function isSpace(c: number): boolean {
  if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) return true;
  // Every other `\s` character is U+00A0 or above: one regex test for the rare ones.
  return c >= 0xa0 && SPACE_CHAR.test(String.fromCharCode(c));
}

/** `c` is white space as `\s` reads it, or a <br> stand-in. */
function isSpaceOrBreak(c: number): boolean {
  return c === 0xe000 || isSpace(c);
}

/**
 * `s` without whitespace and <br> stand-ins at either end, found by a scan inward from each end.
 * Not the regex `/^[\s\uE000]+|[\s\uE000]+$/g`: its `[...]+$` alternative is tried at every
 * position and runs to the end of each inner run before failing, so a paragraph of 64 KiB of
 * `<br>`s took 2 s, and 256 KiB 34 s.
 */
function trimBreaks(s: string): string {
  let from = 0;
  let to = s.length;
  while (from < to && isSpaceOrBreak(s.charCodeAt(from))) from++;
  while (to > from && isSpaceOrBreak(s.charCodeAt(to - 1))) to--;
  return from === 0 && to === s.length ? s : s.slice(from, to);
}

/** A block worth emitting: some letter, digit or currency sign (a price card's "£" in a block of its own), or an image (separators such as `* * *` are not). */
export function hasContent(text: string): boolean {
  return /[\p{L}\p{N}\p{Sc}]/u.test(text) || text.includes('![');
}

/**
 * `inner` between emphasis marks, its white space at either end left outside them (`*a*`, not
 * `* a *`); all white space stays as it is. The ends are found by a scan inward, not by
 * `/^(\s*)([\s\S]*?)(\s*)$/`: the lazy middle tried `\s*$` at every position, running to the
 * end of each inner run of white space, so <b> around 256 KiB of spaces between empty elements
 * took 9 s.
 */
export function wrap(inner: string, mark: string): string {
  let from = 0;
  let to = inner.length;
  while (from < to && isSpace(inner.charCodeAt(from))) from++;
  if (from === to) return inner;
  while (isSpace(inner.charCodeAt(to - 1))) to--;
  if (from === 0 && to === inner.length) return mark + inner + mark;
  return `${inner.slice(0, from)}${mark}${inner.slice(from, to)}${mark}${inner.slice(to)}`;
}

const MARKDOWN_SPECIAL = /[\\`*_]/;

export function escapeText(s: string): string {
  // Most text holds none of these: one scan instead of a replace with look-arounds.
  if (!MARKDOWN_SPECIAL.test(s)) return s;
  return s.replace(/[\\`*]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g, '\\$&');
}

/** Escapes what would turn a paragraph's first characters into a heading, quote or list item. */
export function escapeLineStart(s: string): string {
  return s.replace(/^(#{1,6} |>|[-+] |(\d+)\. )/, (m, _all, num?: string) => (num ? `${num}\\. ` : '\\' + m));
}

export function textContent(el: ElementNode): string {
  let s = '';
  for (const c of el.children) s += typeof c === 'string' ? c : textContent(c);
  return s;
}
