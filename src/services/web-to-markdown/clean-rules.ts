/**
 * Element tests of the renderer's conditional cleaner (render.ts): heading blocks, standalone
 * button links, link boxes, teaser card lists, lists an article announces, navigation cells of
 * layout tables and data tables. Each reads the DOM's counts (dom.ts) and renders nothing.
 */
import type { ElementNode, Node } from './dom.ts';
import { firstMatching, soleChild, textOf } from './dom-queries.ts';
import { textContent } from './inline-text.ts';
import { hasDescendant } from './markdown-blocks.ts';
import { isBlock, isHeading, isToggle, linkDensity } from './measure.ts';

/** A text that ends as a sentence: a full stop, question or exclamation mark, maybe a closing quote or bracket. */
export const ENDS_SENTENCE_RE = /[.!?。！？]["'”’)]?\s*$/;

/**
 * The heading of a block that holds one heading as a child and, besides it, no image and no other
 * block, only inline links shorter than the heading (an [edit] or permalink, not headlines under a
 * label) and at most three other characters (brackets, separators); null for any other block. The
 * heading is not itself mostly a link (a teaser title).
 */
export function soleHeading(el: ElementNode): ElementNode | null {
  if (el.imgCount > 0) return null;
  // Layout wrappers of one child around a heading without links (Notion's `notion-header-block` > div > div > h2).
  const inner = el.linkLen === 0 ? soleChild(el) : null;
  if (inner !== null && (inner.tag === 'div' || inner.tag === 'section' || inner.tag === 'header')) return soleHeading(inner);
  if (!el.children.some((c) => typeof c !== 'string' && isHeading(c.tag))) return null;
  let heading: ElementNode | null = null;
  let loose = 0;
  const walk = (e: ElementNode): boolean => {
    for (const c of e.children) {
      if (typeof c === 'string') {
        for (let i = 0; i < c.length; i++) if (c.charCodeAt(i) > 32 && c.charCodeAt(i) !== 160 && ++loose > 3) return false;
      } else if (c.tag === 'a') {
        continue;
      } else if (isHeading(c.tag)) {
        if (e !== el || heading !== null) return false;
        heading = c;
      } else if (isBlock(c.tag) || !walk(c)) {
        return false;
      }
    }
    return true;
  };
  if (!walk(el) || heading === null) return null;
  const h: ElementNode = heading;
  return h.linkLen * 5 < h.textLen && el.linkLen - h.linkLen <= h.textLen ? h : null;
}

/** Siblings beyond which a button link counts as standing alone without a search (isStandalone). */
const MAX_RUN_SIBLINGS = 200;

/**
 * A link that stands alone: the run of inline content around it (its siblings up to the nearest
 * block on either side: a button row, a paragraph holding the button) is at least four fifths
 * links. Inside a sentence the run holds the sentence's words.
 */
export function isStandalone(link: ElementNode): boolean {
  const p = link.parent;
  if (p === null) return true;
  const kids = p.children;
  // A container of hundreds of children (a tag cloud of button links) is no sentence, and the
  // search for the link among its siblings would repeat for each of them.
  if (kids.length > MAX_RUN_SIBLINGS) return true;
  const at = kids.indexOf(link);
  let from = at;
  while (from > 0 && isInlineNode(kids[from - 1]!)) from--;
  let to = at;
  while (to < kids.length - 1 && isInlineNode(kids[to + 1]!)) to++;
  let text = 0;
  let links = 0;
  for (let i = from; i <= to; i++) {
    const k = kids[i]!;
    if (typeof k === 'string') text += k.trim().length;
    else {
      text += k.textLen;
      links += k.tag === 'a' ? (isToggle(k) ? 0 : k.textLen) : k.linkLen;
    }
  }
  return links >= text * 0.8;
}

function isInlineNode(n: Node): boolean {
  return typeof n === 'string' || (!isBlock(n.tag) && !n.hasBlock);
}

/**
 * Half of the box's text or more is in 2+ paragraphs of prose (80+ characters, under a fifth
 * linked): a block of the article's paragraphs that ends in a "Don't miss" list of links is not a
 * link box (the list's own paragraph goes by the teaser rule, or stays).
 */
export function mostlyProse(el: ElementNode): boolean {
  if (el.pCount === 1) return oneSentenceParagraph(el);
  if (el.pCount < 2) return false;
  let prose = 0;
  let n = 0;
  for (const c of el.children) {
    if (typeof c === 'string' || c.tag !== 'p' || c.textLen < 80 || linkDensity(c) >= 0.2) continue;
    prose += c.textLen;
    n++;
  }
  return n >= 2 && prose * 2 >= el.textLen;
}

/** Fewest words of a sentence that announces the list after it ("We are hiring for these roles:"); a label ("Related:", "See also:") is shorter. */
const ANNOUNCING_WORDS = 4;

/**
 * The block before the list is a sentence ending in a colon: the list is what it announces (the
 * open roles of a careers page, the documents of a notice), links or not. Related-links labels
 * ("Read more:") are short and go with their list as furniture (boilerplate-lines.ts). `at`: the
 * list's index among its parent's children.
 */
export function announced(list: ElementNode, at: number): boolean {
  const kids = list.parent?.children;
  if (kids === undefined) return false;
  for (let i = at - 1; i >= 0; i--) {
    const c = kids[i]!;
    if (typeof c === 'string') {
      if (c.trim() === '') continue;
      return false;
    }
    if (c.textLen === 0 || c.textLen > 2000) return false;
    const t = textOf(c).trimEnd();
    return t.endsWith(':') && t.split(/\s+/).length >= ANNOUNCING_WORDS;
  }
  return false;
}

/** Most text outside links a teaser card holds: a summary of a line or two. */
const TEASER_CARD_TEXT = 200;

/**
 * A list of teaser cards: 3+ items, each with a heading that is all link (another story's
 * headline) and at most TEASER_CARD_TEXT characters beside its links (the summary). A listicle's
 * items hold their text; cards of other stories hold a line.
 */
export function isTeaserCardList(list: ElementNode): boolean {
  let items = 0;
  for (const li of list.children) {
    if (typeof li === 'string') continue;
    if (li.tag !== 'li' || li.textLen - li.linkLen > TEASER_CARD_TEXT) return false;
    const h = firstMatching(li, (el) => isHeading(el.tag));
    if (h === null || h.textLen === 0 || h.linkLen < h.textLen * 0.9) return false;
    items++;
  }
  return items >= 3;
}

/** Text beside a list that makes it a list beside an article (a few paragraphs). */
const BESIDE_TEXT_CHARS = 400;

/**
 * Past the wrappers around `el` (parents that hold little beside it), the block holds an
 * article's paragraphs beside it (BESIDE_TEXT_CHARS, or as much as the list): `el` is beside an
 * article, not the page's own list (a listing of press releases under its heading).
 */
export function besideMoreText(el: ElementNode): boolean {
  let a = el;
  while (a.parent !== null && a.parent.textLen <= a.textLen * 1.1 + 20) a = a.parent;
  return a.parent !== null && a.parent.textLen - el.textLen >= Math.min(el.textLen, BESIDE_TEXT_CHARS);
}

/**
 * The box (through wrappers of one child) is one paragraph that reads as a sentence: 60+
 * characters outside its links, which are under 40% of it, and a full stop at the end. A
 * builder's text card holding "… published in the [journal Nature Astronomy]." is a paragraph of
 * the article; a teaser card's headline link beside its summary fails the test.
 */
function oneSentenceParagraph(el: ElementNode): boolean {
  let p: ElementNode | null = el;
  while (p !== null && p.tag !== 'p') p = soleChild(p);
  if (p === null || p.textLen < el.textLen * 0.9 || p.textLen - p.linkLen < 60 || linkDensity(p) >= 0.4) return false;
  return ENDS_SENTENCE_RE.test(textContent(p));
}

/**
 * A cell of a layout table that is a column of navigation beside the page's text: 3+ links, over
 * 60% of its text linked, and a cell of its row holds 3x its text. A key-value table's value cell
 * ("Korean, English, Chinese" as three links beside the label "Languages") stays.
 */
export function isNavigationCell(cell: ElementNode): boolean {
  if (cell.textLen === 0 || linkDensity(cell) <= 0.6 || countLinks(cell, 3) < 3 || cell.parent === null) return false;
  for (const c of cell.parent.children) if (typeof c !== 'string' && c !== cell && c.textLen >= 3 * cell.textLen) return true;
  return false;
}

/** The <a> elements below `el`, counted up to `max`. */
export function countLinks(el: ElementNode, max: number): number {
  let n = 0;
  for (const c of el.children) {
    if (typeof c === 'string') continue;
    n += c.tag === 'a' ? 1 : countLinks(c, max - n);
    if (n >= max) break;
  }
  return n;
}

export function isDataTable(el: ElementNode): boolean {
  if (el.attrs.role === 'presentation') return false;
  if (el.attrs.summary || hasDescendant(el, 'th') || hasDescendant(el, 'caption') || hasDescendant(el, 'thead')) return true;
  return false;
}

/** Shortest description of a card (characters outside its heading) read as a sentence. */
const CARD_DESCRIPTION_CHARS = 40;

/**
 * A grid of cards the body goes on after (`at`: its index among its parent's children): 2+
 * children, each a card whose heading and a description of a sentence or more sit in it (in a
 * link or not), and after the grid, in the same parent, a paragraph of prose (80+ characters
 * outside links). A docs index's cards or a landing page's features between two parts of the
 * text; a teaser grid below an article has none of the article after it.
 */
export function cardGridInBody(grid: ElementNode, at: number): boolean {
  let cards = 0;
  for (const c of grid.children) {
    if (typeof c === 'string') continue;
    const h = firstMatching(c, (el) => isHeading(el.tag));
    if (h === null || c.textLen - h.textLen < CARD_DESCRIPTION_CHARS || !ENDS_SENTENCE_RE.test(textContent(c))) return false;
    cards++;
  }
  if (cards < 2 || grid.parent === null) return false;
  const kids = grid.parent.children;
  for (let i = at + 1; i < kids.length; i++) {
    const k = kids[i]!;
    if (typeof k === 'string') continue;
    const prose = (el: ElementNode): boolean => el.tag === 'p' && el.textLen - el.linkLen >= 80;
    if (prose(k) || firstMatching(k, prose) !== null) return true;
  }
  return false;
}
