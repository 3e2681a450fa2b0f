/**
 * What joins the chosen block (score.ts selectContent): siblings that score close to it or read as
 * prose, the other posts of a thread, and the headings over kept siblings.
 */
import type { ElementNode } from './dom.ts';
import { ARTICLE_TAG_BONUS, classWeight } from './class-hints.ts';
import { firstMatching, isAncestor, soleChild, textOf, unwrap } from './dom-queries.ts';
import { cardGridInBody } from './clean-rules.ts';
import { sideColumnOf } from './grid-columns.ts';
import { hasBlockChild, HEADING_TAGS, isBlock, isProse, linkDensity } from './measure.ts';

export function withSiblings(top: ElementNode, final: (el: ElementNode) => number, topScore: number, inner: ElementNode, thread: boolean): ElementNode[] {
  const parent = top.parent;
  if (parent === null || parent.tag === '#root') return [top];
  // The page itself marks this as the main content: what sits beside it is page furniture.
  if (top.tag === 'main' || top.tag === 'article' || top.attrs.role === 'main') return [top];
  const threshold = Math.max(10, topScore * 0.2);
  // The choice holds the headline (an <h1>): a short sentence after it is not the article's
  // (Readability joins such lines as split-off paragraphs of an article that starts elsewhere).
  let headed: boolean | undefined;
  const out: ElementNode[] = [];
  let afterTop = false;
  const kids = parent.children;
  for (let at = 0; at < kids.length; at++) {
    const sib = kids[at]!;
    if (typeof sib === 'string') continue;
    if (sib === top) {
      out.push(sib);
      afterTop = true;
      continue;
    }
    // The sidebar column beside the grid's wide column that holds the article.
    if (sideColumnOf(sib, top)) continue;
    let bonus = 0;
    const sameClass = sib.attrs.class !== undefined && sib.attrs.class === top.attrs.class;
    if (sameClass) bonus += topScore * 0.2;
    // The <article> tag's bonus finds an article; beside the choice, an <article> is a composition
    // of its own (a teaser card) and joins on the points of its text alone.
    const own = sib.tag === 'article' && top.tag !== 'article' ? final(sib) - ARTICLE_TAG_BONUS * (1 - linkDensity(sib)) : final(sib);
    if (sib.scored && own + bonus >= threshold) {
      out.push(sib);
      continue;
    }
    // A wrapper of one block (div > p, div > div > p) reads as, and is rendered as, that block:
    // the wrapper's class names the embed or layout around the paragraph (a lead in a media
    // slot). After the choice, a wrapper with a negative hint (an author's note) stays out.
    let block = sib.tag === 'p' || (afterTop && classWeight(sib) < 0) ? sib : unwrap(sib);
    // A block of inline text only (`<div class="lead"><b>…</b></div>`) is read as that block.
    if (!isBlock(block.tag) && block.parent !== null && block !== sib) block = block.parent;
    if (block.tag === 'p' || (block.tag === 'div' && !hasBlockChild(block))) {
      const ld = linkDensity(block);
      if (block.textLen > 80 && ld < 0.25) out.push(block);
      else if (block.textLen > 0 && block.textLen <= 80 && ld === 0 && !(afterTop && (headed ??= firstMatching(top, (el) => el.tag === 'h1') !== null)) && /[.!?。]\s*$/.test(textOf(block))) out.push(block);
    } else if ((sameClass || sameKind(sib, top) || sameFrame(sib, top)) && (isProse(block) || isSentenceList(block))) {
      // Text too deep to have scored (points reach five ancestors): a run of paragraphs of
      // prose, or a list of sentences, beside the choice is the next part of the article (a page
      // of sections, a grid's rows).
      out.push(sib);
    } else if (cardGridInBody(sib, at)) {
      // A grid of cards the text goes on after (a docs index's, a landing page's features).
      out.push(sib);
    } else if (thread && holdsLike(sib, inner)) {
      // Another post of the thread's template: a question beside the block of its answers, a
      // first post beside the replies, its body a block of the text container's tag and class.
      out.push(sib);
    }
  }
  return withHeadings(parent, out);
}

/** A list of two or more items that read as sentences (40+ characters each on average, few links), 200+ characters in all. */
function isSentenceList(el: ElementNode): boolean {
  return el.liCount >= 2 && el.textLen >= 200 && el.textLen >= 40 * el.liCount && linkDensity(el) < 1 / 6;
}

/** Longest text of a line (a date, a byline) between a heading and the block it heads. */
const DATELINE_CHARS = 80;
/** Longest text (characters) of a sibling read as a heading by `withHeadings`. */
const SIBLING_HEADING_CHARS = 200;

/**
 * `out` (siblings under `parent`, in document order) with the sibling headings that head a kept
 * sibling: a block that is only a heading (through wrappers of one child) whose next sibling with
 * text was kept. Builders put each heading in a component of its own between the text components
 * (Wix rich-text elements, AEM `title` beside `text`), with other class names than the text's.
 */
function withHeadings(parent: ElementNode, out: ElementNode[]): ElementNode[] {
  if (out.length === 0) return out;
  let added = false;
  // What was kept, by the sibling it is or lies in (a loose paragraph is kept unwrapped).
  const kept = new Map<ElementNode, ElementNode>();
  for (const el of out) {
    let sib = el;
    while (sib.parent !== null && sib.parent !== parent) sib = sib.parent;
    kept.set(sib, el);
  }
  const result: ElementNode[] = [];
  let pending: ElementNode | null = null;
  let skipped = false; // a short unlinked line (a date, a byline) between the heading and what it heads
  for (const sib of parent.children) {
    if (typeof sib === 'string' || sib.textLen === 0) continue;
    const el = kept.get(sib);
    if (el !== undefined) {
      if (pending !== null) {
        result.push(pending);
        added = true;
      }
      result.push(el);
      pending = null;
    } else if (pending !== null && !skipped && sib.textLen <= DATELINE_CHARS && sib.linkLen === 0 && !headingWithin(sib)) {
      skipped = true;
    } else {
      pending = sib.textLen <= SIBLING_HEADING_CHARS && linkDensity(sib) < 0.5 && classWeight(sib, false, true) >= 0 && headingWithin(sib) ? sib : null;
      skipped = false;
    }
  }
  return added ? result : out;
}

/** `el` is a heading, or wrappers of one child each (no text of their own) around one. */
function headingWithin(el: ElementNode): boolean {
  for (let e: ElementNode | null = el; e !== null; e = soleChild(e)) if (HEADING_TAGS.has(e.tag)) return true;
  return false;
}

/**
 * Two elements of one component: same tag, same first class name, and in each a variant of it
 * (`name-...`), as CMSs name a component and then its kind: TYPO3 `frame frame-type-text` beside
 * `frame frame-type-textmedia`, Squarespace `sqs-block sqs-block-html` beside `sqs-block
 * sqs-block-image`. Grid cells (`col-xs-12` beside `col-xs-12 col-md-8`) have no such variant.
 */
function sameKind(a: ElementNode, b: ElementNode): boolean {
  if (a.tag !== b.tag) return false;
  const ca = a.attrs.class;
  const cb = b.attrs.class;
  if (ca === undefined || cb === undefined) return false;
  const first = /^\s*(\S+)/.exec(ca)?.[1];
  if (first === undefined || first !== /^\s*(\S+)/.exec(cb)?.[1]) return false;
  const variant = ` ${first}-`;
  return (' ' + ca).includes(variant) && (' ' + cb).includes(variant);
}

/** How many wrappers deep `sameFrame` compares. */
const FRAME_DEPTH = 3;

/**
 * Two blocks of one layout template: the same tag, and below each the same wrappers of one child
 * each (tag and class), one of them named at least, as a grid prints its rows (Umbraco's
 * `div > div.container > div.row.clearfix`, one per row of the page) or a builder its sections,
 * whatever the outer element's own class says (a row's background).
 */
function sameFrame(a: ElementNode, b: ElementNode): boolean {
  if (a.tag !== b.tag) return false;
  let x = soleChild(a);
  let y = soleChild(b);
  let named = false;
  for (let depth = 0; depth < FRAME_DEPTH && x !== null && y !== null; depth++) {
    if (x.tag !== y.tag || x.attrs.class !== y.attrs.class) return false;
    if (x.attrs.class !== undefined && x.attrs.class.trim() !== '') named = true;
    x = soleChild(x);
    y = soleChild(y);
  }
  return named;
}

/**
 * The choice holds two or more posts of one template: besides the text container `inner`, another
 * candidate of its tag and class holds prose (isProse). A thread: its other posts beside the
 * choice join (holdsLike). Post bodies hold paragraphs, so they are candidates: no walk needed.
 */
export function isThread(top: ElementNode, inner: ElementNode, candidates: readonly ElementNode[]): boolean {
  const cls = inner.attrs.class;
  if (inner === top || cls === undefined || !isProse(inner)) return false;
  for (const c of candidates) {
    if (c !== inner && c.tag === inner.tag && c.attrs.class === cls && isProse(c) && isAncestor(top, c)) return true;
  }
  return false;
}

/** `el` holds a block of `like`'s tag and class names (in any order) whose text reads as prose (isProse). */
function holdsLike(el: ElementNode, like: ElementNode): boolean {
  const cls = like.attrs.class;
  if (cls === undefined || el.textLen < 200) return false;
  const names = classSet(cls);
  if (names === '') return false;
  const stack: ElementNode[] = [el];
  while (stack.length > 0) {
    const e = stack.pop()!;
    for (const c of e.children) {
      if (typeof c === 'string' || c.textLen < 200) continue;
      if (c.tag === like.tag && c.attrs.class !== undefined && isProse(c) && classSet(c.attrs.class) === names) return true;
      stack.push(c);
    }
  }
  return false;
}

/** Class names sorted, one space apart. */
function classSet(cls: string): string {
  return cls.trim().split(/\s+/).sort().join(' ');
}
