/**
 * What the main-content scoring (score.ts) counts of each element: text, link text, commas and
 * p/img/li/form counts (measure, bottom-up; TextMeter counts the text runs while dom.ts parses),
 * and the tags it reads as headings, blocks and paragraphs.
 */
import type { ElementNode } from './dom.ts';
import { textOf } from './dom-queries.ts';

export const HEADING_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** h1-h6. */
export function isHeading(tag: string): boolean {
  return HEADING_TAGS.has(tag);
}

const BLOCK_TAGS = new Set([
  'address', 'article', 'blockquote', 'dd', 'div', 'dl', 'dt', 'fieldset', 'figure', 'figcaption', 'footer', 'form', 'h1', 'h2', 'h3',
  'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'ol', 'p', 'pre', 'section', 'table', 'tbody', 'thead', 'tfoot', 'tr', 'td', 'th', 'ul', 'details', 'summary', 'center',
]);
export const PARAGRAPH_TAGS = new Set(['p', 'pre', 'td', 'blockquote', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'dd']);
export const MIN_PARAGRAPH_CHARS = 25;
/** Own text (not in child elements) that makes a container with block children score as a paragraph. */
export const OWN_TEXT_CHARS = 100;

export function isBlock(tag: string): boolean {
  return BLOCK_TAGS.has(tag);
}

/**
 * What `measure` counts in text: characters with every whitespace run (space, tab, CR, LF, FF,
 * NBSP) read as one, and commas (ASCII, full-width, ideographic, Arabic). A text run is counted
 * once, when it is parsed (dom.ts), from the page string itself: `textLen` of an element is its
 * own text (`ownText`) plus its children's. Counting there instead of in `measure` reads one flat
 * string instead of hundreds of small ones of mixed representations (sliced, concatenated,
 * one- and two-byte), on which `s.length` and `s.charCodeAt` were megamorphic loads per character.
 */
export class TextMeter {
  /** Characters counted by the last `count`. */
  chars = 0;
  commas = 0;
  /** The counted run ended in whitespace (or, when empty, the value passed in). */
  space = true;

  /**
   * Counts `src[start, end)`; `space`: the text before it ended in whitespace (or nothing comes
   * before it in its element), so a leading whitespace run adds nothing.
   */
  count(src: string, start: number, end: number, space: boolean): void {
    let chars = 0;
    let commas = 0;
    let prevSpace = space;
    for (let i = start; i < end; i++) {
      const c = src.charCodeAt(i);
      // Letters first: one comparison for most characters (the whitespace set is 9, 10, 12, 13, 32, 160).
      if (c > 44 ? c === 160 : c === 32 || c === 10 || c === 9 || c === 13 || c === 12) {
        if (!prevSpace) chars++;
        prevSpace = true;
      } else {
        chars++;
        prevSpace = false;
        if (c === 44 || (c >= 0x060c && (c === 0x060c || c === 0x3001 || c === 0xff0c))) commas++;
      }
    }
    this.chars = chars;
    this.commas = commas;
    this.space = prevSpace;
  }
}

/** A whitespace character as `TextMeter` reads it. */
export function isMeterSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 13 || c === 12 || c === 160;
}

/**
 * Bottom-up counts of text, link text, commas, p/img/li/form for every element. Text runs were counted
 * while parsing (`ownText`, `ownCommas`: see TextMeter); this sums them up the tree.
 */
export function measure(el: ElementNode): void {
  let text = el.ownText;
  let link = 0;
  let commas = el.ownCommas;
  let p = 0;
  let img = 0;
  let li = 0;
  let form = 0;
  let block = false;
  const children = el.children;
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    if (typeof child === 'string') continue;
    measure(child);
    text += child.textLen;
    link += child.tag === 'a' ? (isToggle(child) || isToggleTitle(child) || isContactLink(child) ? 0 : child.textLen) : child.linkLen;
    commas += child.commas;
    p += child.pCount + (child.tag === 'p' ? 1 : 0);
    img += child.imgCount + (child.tag === 'img' ? 1 : 0);
    li += child.liCount + (child.tag === 'li' ? 1 : 0);
    form += child.formCount + (child.tag === 'form' ? 1 : 0);
    block ||= child.hasBlock || BLOCK_TAGS.has(child.tag);
  }
  el.textLen = text;
  el.linkLen = link;
  el.commas = commas;
  el.pCount = p;
  el.imgCount = img;
  el.liCount = li;
  el.formCount = form;
  el.hasBlock = block;
}

/**
 * An `<a>` without `href` (no link but "a placeholder for where a link might otherwise have been
 * placed", HTML standard) inside a disclosure's toggle, which names the panel it opens
 * (`aria-controls`, `aria-expanded`): an accordion's question as Elementor writes it
 * (`div.elementor-tab-title[role=button][aria-controls] > a.elementor-accordion-title`). Its text
 * is the page's text; an href-less tab of a tab bar (Jira's) is still a control.
 */
function isToggleTitle(a: ElementNode): boolean {
  const parent = a.parent;
  return a.attrs.href === undefined && parent !== null && (parent.attrs['aria-controls'] !== undefined || parent.attrs['aria-expanded'] !== undefined);
}

/**
 * A link that only opens or closes a part of the page (an accordion's question: `href="#collapse1"`
 * with `data-toggle`, `data-bs-toggle`, `aria-controls` or `role="button"`): its text is the
 * page's text, no link to elsewhere (Readability likewise weighs in-page links less).
 */
export function isToggle(a: ElementNode): boolean {
  const attrs = a.attrs;
  const href = attrs.href;
  if (href !== undefined && href !== '' && href.charCodeAt(0) !== 0x23 /* # */ && !href.startsWith('javascript:')) return false;
  return attrs['data-toggle'] !== undefined || attrs['data-bs-toggle'] !== undefined || attrs['aria-controls'] !== undefined || attrs.role === 'button';
}

/**
 * A link that shows a phone number or an e-mail address (`tel:`, `sms:` with digits, `mailto:`
 * with an "@" in its text): a value of the text (an office's contact details), not a way to
 * another page; it counts as text. "Reply by email" is a link.
 */
export function isContactLink(a: ElementNode): boolean {
  const href = a.attrs.href;
  if (href === undefined || !CONTACT_HREF.test(href)) return false;
  const text = textOf(a);
  return /^\s*mailto:/i.test(href) ? text.includes('@') : /\d(?:\D?\d){4}/.test(text);
}
const CONTACT_HREF = /^\s*(?:tel|mailto|sms):/i;

export function linkDensity(el: ElementNode): number {
  return el.textLen === 0 ? 0 : el.linkLen / el.textLen;
}

export function hasBlockChild(el: ElementNode): boolean {
  return el.hasBlock;
}

/** Paragraphs of prose: 200+ characters in <p>s of 80+ characters on average, links under a sixth of the text. */
export function isProse(el: ElementNode): boolean {
  const p = el.pCount;
  if (p < 1 || el.textLen < 200) return false;
  return el.textLen / p >= 80 && linkDensity(el) < 1 / 6;
}
