/**
 * Main-content selection, in the spirit of Readability's scoring (and arc90 before it), on the
 * small DOM of dom.ts:
 *
 *   1. measure: text length (whitespace collapsed), text inside links, commas and p/img/li counts
 *      for every element, bottom-up in one pass;
 *   2. every paragraph-like block with >= 25 characters scores 1 + commas + length/100 (max 3)
 *      and gives it to five ancestors (1, 1/2, 1/6, 1/9, 1/12): text-dense containers win;
 *   3. each candidate starts from its tag (div +5, lists -3, headings -5) and class/id hints
 *      (+-25), and is scaled by (1 - link density): link farms lose;
 *   4. the best candidate is widened to a shared ancestor when other strong candidates sit under
 *      it, and its siblings join when they score close to it or read like prose.
 *
 * This file holds the choice (selectContent); beside it are measure.ts (step 1), class-hints.ts
 * (the hints of step 3 and a candidate's start), grid-columns.ts and siblings.ts (step 4),
 * fallback-blocks.ts (what core.ts's fallback takes when the choice is short) and dom-queries.ts
 * (walks they share).
 */
import type { ElementNode } from './dom.ts';
import { initialScore } from './class-hints.ts';
import { bodyOf, isAncestor, unwrap } from './dom-queries.ts';
import { wideColumnBeside, wideColumnBesideSide } from './grid-columns.ts';
import { hasBlockChild, HEADING_TAGS, isToggle, linkDensity, measure, MIN_PARAGRAPH_CHARS, OWN_TEXT_CHARS, PARAGRAPH_TAGS } from './measure.ts';
import { isThread, withSiblings } from './siblings.ts';
import { withinArticle } from './parse-rules.ts';

/**
 * A paragraph that captions an image: in a <figure> or <figcaption>, or the one paragraph of a
 * box whose other children are images (`<div><img><p>In this file photo, …</p></div>`). It gives
 * no points: a long caption with its commas outscored a short article beside it.
 */
function isCaption(el: ElementNode): boolean {
  const parent = el.parent;
  if (parent === null) return false;
  if (parent.tag === 'figcaption' || parent.tag === 'figure') return true;
  if (parent.imgCount === 0) return false;
  let image = false;
  for (const c of parent.children) {
    if (typeof c === 'string') {
      if (c.trim() !== '') return false;
    } else if (c.tag === 'img' || c.tag === 'picture' || ((c.tag === 'a' || c.tag === 'span' || c.tag === 'div') && c.textLen === 0 && c.imgCount > 0)) image = true;
    else if (c !== el) return false;
  }
  return image;
}

function initCandidate(el: ElementNode, relaxed: boolean): void {
  if (el.scored) return;
  el.scored = true;
  el.score = initialScore(el, relaxed);
}

/**
 * A block scored as a paragraph: p, li and the like, or a div, section, span or table cell without
 * block children. A cell that holds blocks is a layout column (an old table layout's centre column
 * of title, text, comments): scored as one paragraph, its commas all went to the row, which then
 * outscored the column and took the side columns and the footer row in with it.
 */
function isParagraphLike(el: ElementNode): boolean {
  if (el.tag === 'td' || el.tag === 'th') return !hasBlockChild(el);
  return PARAGRAPH_TAGS.has(el.tag) || ((el.tag === 'div' || el.tag === 'section' || el.tag === 'span') && !hasBlockChild(el));
}

/**
 * Picks the elements that hold the main content, in document order. Falls back to the whole
 * body when nothing scores (a page of short fragments). `relaxed`: negative class/id hints are
 * ignored (see classWeight).
 */
export function selectContent(root: ElementNode, relaxed = false): ElementNode[] {
  measure(root);
  const candidates: ElementNode[] = [];
  const stack: ElementNode[] = [root];
  while (stack.length > 0) {
    const el = stack.pop()!;
    // A thread or link box by its heading is no candidate, in any view (dom.ts `headed`).
    if (el.headed) continue;
    for (let i = el.children.length - 1; i >= 0; i--) {
      const c = el.children[i]!;
      if (typeof c !== 'string') stack.push(c);
    }
    const paragraphLike = isParagraphLike(el);
    let points: number;
    if (paragraphLike && el.textLen >= MIN_PARAGRAPH_CHARS) {
      if (((el.tag === 'li' || HEADING_TAGS.has(el.tag)) && linkDensity(el) > 0.5) || isCaption(el)) continue;
      points = 1 + el.commas + Math.min(3, Math.floor(el.textLen / 100));
    } else if (el.ownText >= OWN_TEXT_CHARS && el.parent !== null) {
      // Text written straight into a container between <br>s, beside block children (a figure,
      // an ad slot): Readability wraps such runs in paragraphs; here the container scores for its
      // own text, for itself (it holds the text) and its ancestors.
      points = 1 + el.ownCommas + Math.min(3, Math.floor(el.ownText / 100));
      if (!el.scored) {
        initCandidate(el, relaxed);
        candidates.push(el);
      }
      el.score += points;
    } else {
      continue;
    }
    let anc = el.parent;
    for (let level = 0; level < 5 && anc !== null && anc.parent !== null; level++, anc = anc.parent) {
      if (!anc.scored) {
        initCandidate(anc, relaxed);
        candidates.push(anc);
      }
      anc.score += points / (level === 0 ? 1 : level === 1 ? 2 : level * 3);
    }
  }
  if (candidates.length === 0) return [bodyOf(root)];

  // A block inside a link (a card whose whole face links to another page: Kadence's info box,
  // a teaser) is that link's text, however plain it reads inside: it is no candidate.
  const final = (el: ElementNode) => (insideLink(el) ? 0 : el.score * (1 - linkDensity(el)));
  candidates.sort((a, b) => final(b) - final(a));
  let top = candidates[0]!;
  // The page marks its main content (one <main> or role=main, else one <article>): a candidate in
  // it that scores at least MARKED_SHARE of the best wins over a best outside it (a teaser list
  // of summaries beside the article).
  const marked = markedMain(root);
  if (marked !== null && !isAncestor(marked, top) && top !== marked) {
    const inside = candidates.find((c) => (c === marked || isAncestor(marked, c)) && final(c) >= final(top) * MARKED_SHARE);
    if (inside !== undefined) top = inside;
  }
  // A choice in a page grid's side column (Bootstrap's `col-md-4` of cards whose `card-body` and
  // `card-text` read as content names) loses to a candidate in the wide column beside it that
  // scores MARKED_SHARE of it: the wide column holds the article.
  const wide = wideColumnBeside(top);
  if (wide !== null) {
    const inside = candidates.find((c) => (c === wide || isAncestor(wide, c)) && final(c) >= final(top) * MARKED_SHARE);
    if (inside !== undefined) top = inside;
  }
  const topScore = final(top);

  // Several strong candidates under one ancestor: the article is split in blocks; take the ancestor.
  const strong = candidates.slice(1, 6).filter((c) => final(c) >= topScore * 0.75);
  // The choice is itself the wide column of a grid: the strong candidates beyond it are the side column's.
  if (strong.length >= 2 && !wideColumnBesideSide(top)) {
    for (let anc = top.parent; anc !== null && anc.tag !== '#root' && anc.tag !== 'body'; anc = anc.parent) {
      let inside = 0;
      for (const c of strong) if (isAncestor(anc, c)) inside++;
      // The wide column of a page grid beside a sidebar column: the article's blocks are in it,
      // a strong candidate beyond it is the sidebar's (a content block named as the article's).
      const wide = wideColumnBesideSide(anc);
      if (inside >= 2 || (wide && inside >= 1)) {
        top = anc;
        break;
      }
      if (wide) break;
    }
  }
  // The choice is one paragraph's wrapper (paragraphs each in wrappers of their own, as Arc and
  // other block editors write them, the names that would tell the body aside): the wrappers'
  // common parent got a sixth of each paragraph's points, the longest paragraph's wrapper all of
  // its. As Readability does, climb to the first parent whose score rises over the one below it,
  // until a score falls under a third of the best.
  if (paragraphsWithin(top, 2) <= 1) {
    let last = final(top);
    for (let anc = top.parent; anc !== null && anc.tag !== '#root' && anc.tag !== 'body'; anc = anc.parent) {
      if (!anc.scored) continue;
      const score = final(anc);
      if (score < topScore / 3) break;
      if (score > last) {
        top = anc;
        break;
      }
      last = score;
    }
  }
  // Climb while the parent holds (nearly) only this candidate's text, and adds no more than 20
  // characters outside links after it: what a wrapper adds before the article is its headline
  // and standfirst, what it adds after is the page's (a source line, an author note, a site note
  // in an app shell's plain div).
  // The choice holds the page's <main> and little beside it (an announcement bar above the
  // header, a notice): the page marks where its content is.
  if (marked !== null && marked.tag !== 'article' && isAncestor(top, marked) && marked.textLen >= top.textLen * MAIN_SHARE) top = marked;
  // A page of sections (a landing, service or pricing page): the choice is one section of three or
  // more with text under the page's <main>, and holds under half of its text; the <main>, not a
  // link list, is the content (its steps, fee table and FAQ beside the chosen tabs).
  // Not from inside an <article>: the page marks that as its text, what follows it in the <main> is
  // the cards of other stories.
  if (marked !== null && marked.tag !== 'article' && isAncestor(marked, top) && !withinArticle(top) && top.textLen < marked.textLen * SECTION_SHARE && linkDensity(marked) < SECTIONS_MAX_LINK_DENSITY && sectionsWithText(marked) >= 3) top = marked;
  const limit = top.textLen * 1.1 + 20;
  while (top !== marked && top.parent !== null && top.parent.tag !== '#root' && top.parent.tag !== 'body' && top.parent.textLen <= limit && plainTextAfter(top) <= 20) top = top.parent;
  const inner = textContainer(top, candidates, relaxed);
  let chosen = withSiblings(top, final, Math.max(topScore, final(top)), inner, isThread(top, inner, candidates));
  const lead = keyPointLists(top);
  // A list the choice already holds (a key-points box beside the body, taken as its sibling) is not added twice.
  if (lead.length > 0) chosen = [...lead.filter((el) => !chosen.some((c) => c === el || isAncestor(c, el))), ...chosen];
  holdArticle(top, inner, candidates);
  return chosen;
}

/** Share of its <main>'s text under which a choice is one section of a page of sections. */
const SECTION_SHARE = 0.5;
/** Link density over which a <main> of sections reads as a listing, not a page of text. */
const SECTIONS_MAX_LINK_DENSITY = 0.3;

/** Children (under single-child wrappers) of `el` that hold 100+ characters of text. */
function sectionsWithText(el: ElementNode): number {
  const e = unwrap(el);
  let n = 0;
  for (const c of e.children) if (typeof c !== 'string' && c.textLen >= 100) n++;
  return n;
}

/** How far up a link around a candidate is looked for. */
const LINK_LEVELS = 8;

/** `el` lies inside an `<a href>` that leads elsewhere (not an in-page toggle), within LINK_LEVELS levels. */
function insideLink(el: ElementNode): boolean {
  let anc = el.parent;
  for (let level = 0; level < LINK_LEVELS && anc !== null; level++, anc = anc.parent) {
    if (anc.tag === 'a') return anc.attrs.href !== undefined && !isToggle(anc);
  }
  return false;
}

/** Paragraph-like blocks (as scored: MIN_PARAGRAPH_CHARS or more) in `el`, counted up to `max`. */
function paragraphsWithin(el: ElementNode, max: number): number {
  if (isParagraphLike(el)) return el.textLen >= MIN_PARAGRAPH_CHARS ? 1 : 0;
  let n = 0;
  for (const c of el.children) {
    if (typeof c === 'string' || c.textLen < MIN_PARAGRAPH_CHARS) continue;
    n += paragraphsWithin(c, max - n);
    if (n >= max) break;
  }
  return n;
}

/** Share of a choice's text its <main> holds for the <main> to be chosen instead. */
const MAIN_SHARE = 0.8;

/** Share of the best candidate's score a candidate in the page's marked main content needs to win. */
const MARKED_SHARE = 0.4;

/** The page's one <main> (or role=main) element, else its one <article>; null when none or several. */
function markedMain(root: ElementNode): ElementNode | null {
  let main: ElementNode | null = null;
  let mains = 0;
  let article: ElementNode | null = null;
  let articles = 0;
  const stack: ElementNode[] = [root];
  while (stack.length > 0) {
    const el = stack.pop()!;
    if (el.tag === 'main' || el.attrs.role === 'main') {
      main = el;
      mains++;
    } else if (el.tag === 'article') {
      article = el;
      articles++;
    }
    for (const c of el.children) if (typeof c !== 'string') stack.push(c);
  }
  if (mains === 1 && main!.textLen > 0) return main;
  return mains === 0 && articles === 1 && article!.textLen > 0 ? article : null;
}

/** How far up (levels) the <article> around a chosen body block is looked for. */
const ARTICLE_LEVELS = 3;

/**
 * A box of bullet points the <article> around the chosen body block holds before the body's
 * branch ("Key points", "At a glance", a summary list under the headline): lists of two or more
 * items that read as sentences (40+ characters on average, links under a fifth of the text).
 * Only lists: the standfirst paragraph beside the headline (`content-header__dek`,
 * `article__lead-paragraph`) is left out, as the development references leave it out, and so
 * are the headline, byline and lead image. What follows the body (tags, share row, author box)
 * is not looked at.
 */
function keyPointLists(top: ElementNode): ElementNode[] {
  if (top.tag === 'article') return [];
  let branch = top;
  let anc = top.parent;
  for (let i = 0; i < ARTICLE_LEVELS && anc !== null && anc.tag !== 'article'; i++) {
    branch = anc;
    anc = anc.parent;
  }
  if (anc === null || anc.tag !== 'article') return [];
  const lists: ElementNode[] = [];
  const walk = (el: ElementNode): void => {
    for (const c of el.children) {
      if (typeof c === 'string' || c.unlikely) continue;
      if ((c.tag === 'ul' || c.tag === 'ol') && c.liCount >= 2 && c.textLen >= 40 * c.liCount && linkDensity(c) < 0.2) lists.push(c);
      else if (c.hasBlock) walk(c);
    }
  };
  for (const c of anc.children) {
    if (c === branch) break;
    if (typeof c !== 'string' && !c.unlikely) walk(c);
  }
  return lists;
}

/**
 * The article's text container inside the choice: the candidate under `top` that its paragraphs
 * gave the most points (its score beyond what its tag and class gave it), or `top` itself. A
 * <main> whose class and id score high holds the article but is not it. `candidates`: best first.
 */
function textContainer(top: ElementNode, candidates: readonly ElementNode[], relaxed: boolean): ElementNode {
  let inner = top;
  let most = -Infinity;
  for (const c of candidates) {
    if (c === top || !isAncestor(top, c)) continue;
    const points = c.score - initialScore(c, relaxed);
    if (points > most) {
      most = points;
      inner = c;
    }
  }
  return inner;
}

/** Characters outside links in the siblings after `el`. */
function plainTextAfter(el: ElementNode): number {
  const kids = el.parent!.children;
  let n = 0;
  for (let i = kids.indexOf(el) + 1; i < kids.length; i++) {
    const c = kids[i]!;
    if (typeof c !== 'string') n += c.textLen - c.linkLen;
  }
  return n;
}

/**
 * The blocks from the article's text container (`inner`, see textContainer) up to the choice hold
 * the article: each scores at least as the best candidate, so the cleaner (render.ts) weighs them
 * as such, whatever their class says of the layout (a `sidebar-grid` around the article and its
 * sidebar, the `wy-grid-for-nav` a choice climbed into); those that hold half the choice's text or
 * more are `held`: kept whatever their links say (a body with a list of related links, a quarter
 * of its text). `candidates`: best first.
 */
function holdArticle(top: ElementNode, inner: ElementNode, candidates: readonly ElementNode[]): void {
  const score = Math.max(inner.score, candidates[0]!.score);
  for (let el: ElementNode | null = inner; el !== null && el !== top.parent; el = el.parent) {
    el.held = el.textLen * 2 >= top.textLen;
    if (!el.scored || el.score < score) {
      el.scored = true;
      el.score = score;
    }
  }
}
