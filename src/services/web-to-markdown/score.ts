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
 */
import { isConsentNotice } from './boilerplate-lines.ts';
import type { ElementNode, Node } from './dom.ts';

const POSITIVE = /article|body|content|entry|hentry|h-entry|main|page|post|text|blog|story|prose|rich-?text/i;
/**
 * Readability's negative hints. `hidden` counts as a class of its own (`hidden`, `is-hidden`), the
 * CSS-hidden block Readability means; in a compound it names where a visible block hides
 * (Shopify's `quick-add-hidden` on the product description, `no-js-hidden`, `mobile-hidden`).
 */
const NEGATIVE = /-ad-|(?:^|\s)(?:is-)?hidden(?:\s|$)|^hid$| hid$| hid |^hid |banner|combx|comment|com-|contact|footer|gdpr|masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|widget|header|nav|newsletter|subscribe|cookie|byline|author|caption|credit/i;

/**
 * The negative hints read on a heading (and on a block that is only a heading): without `header`,
 * which names what a heading is (`element-header`, `entry-header`), and `nav`, which on a heading
 * is the offset below a sticky navbar (`anchorWithStickyNavbar`), not a menu (menus are <nav>).
 */
const NEGATIVE_HEADING = /-ad-|(?:^|\s)(?:is-)?hidden(?:\s|$)|^hid$| hid$| hid |^hid |banner|combx|comment|com-|contact|footer|gdpr|masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|widget|newsletter|subscribe|cookie|byline|author|caption|credit/i;
const HEADING_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/**
 * The negative hints the relaxed fallback still reads: names of a block that is never the article
 * (a comment, a sidebar, a byline or author box, related or sponsored links, a consent or
 * newsletter box). The others (`widget`, `media`, `meta`, `hidden`, `header`, `com-`, ...) also
 * name CMS containers that hold the article (Joomla's `com-content-article`), which is why the
 * relaxed attempt runs.
 */
const NEGATIVE_STRONG = /comment|sidebar|shoutbox|outbrain|sponsor|skyscraper|related|cookie|gdpr|newsletter|subscribe|byline|author/i;

/** A class or id that holds a negative hint (as classWeight reads it on other elements than headings). */
export function isNegativeHint(s: string): boolean {
  return NEGATIVE.test(s);
}

/**
 * Class names (whole, one of the class list) and ids that name a comment thread or form, a
 * related-posts block, an author box, a forum post's user card or signature (phpBB `postprofile`
 * and `signature`, Stack Exchange `post-signature` and `user-info`), a forum's who-is-online box or a
 * cookie/consent notice: boilerplate whatever the block's score, as
 * trafilatura drops them before choosing. A whole name only: `comments-open`, `has-comments`,
 * `comment-count` or `related-tags` say something of a post, not that the block is the thread.
 * The name may carry a one-letter layer prefix, as FLOCSS and atomic-design class names do
 * (`c-author-box`, `p-related`, `o-creatorProfile`); an author box may name the author a creator or
 * writer (`creator-profile`, `writer-info`).
 */
const STRONG_BOILERPLATE = /(?:^|\s)(?:[a-z]-)?(?:comments?|comment-?list|comments-(?:list|area|section|wrapper|container|block)|comment-(?:area|section|thread|respond|form)|respond|disqus_thread|related|(?:jp-)?related-?(?:posts?|articles?|stories|content|products)|cookie-?(?:banner|notice|bar|consent|law-info-bar|popup|notification|message)|(?:cookie-?)?consent-?(?:banner|bar|notice|popup|modal|dialog)?|gdpr-?(?:banner|notice|consent|popup)?|(?:author|creator|writer)-?(?:bio|box|info|card|profile)|about-?the-?author|(?:user|poster)-?(?:info|card|details|profile)|post-?(?:profile|signature)|(?:message-|user-)?signature|online-?list|(?:whos|users|members)-?online)(?:\s|$)/i;

/**
 * A comment thread, related-posts block, author box or cookie/consent notice by its class or id
 * (STRONG_BOILERPLATE; an anchor id is not read), or a thread or link box by its heading (dom.ts `headed`).
 */
export function isStrongBoilerplate(el: ElementNode): boolean {
  if (el.reply) return false;
  if (el.headed) return true;
  const cls = el.attrs.class;
  if (cls !== undefined && STRONG_BOILERPLATE.test(cls)) return true;
  const id = el.anchorId ? undefined : el.attrs.id;
  return id !== undefined && STRONG_BOILERPLATE.test(id);
}

/** h1-h6. */
export function isHeading(tag: string): boolean {
  return HEADING_TAGS.has(tag);
}

const BLOCK_TAGS = new Set([
  'address', 'article', 'blockquote', 'dd', 'div', 'dl', 'dt', 'fieldset', 'figure', 'figcaption', 'footer', 'form', 'h1', 'h2', 'h3',
  'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'ol', 'p', 'pre', 'section', 'table', 'tbody', 'thead', 'tfoot', 'tr', 'td', 'th', 'ul', 'details', 'summary', 'center',
]);
const PARAGRAPH_TAGS = new Set(['p', 'pre', 'td', 'blockquote', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'dd']);
const MIN_PARAGRAPH_CHARS = 25;
/** Own text (not in child elements) that makes a container with block children score as a paragraph. */
const OWN_TEXT_CHARS = 100;

export function isBlock(tag: string): boolean {
  return BLOCK_TAGS.has(tag);
}

/**
 * A class attribute without its BEM modifiers (`block--modifier`): a modifier says how a block
 * looks, not what it holds. Drupal's `field--label-hidden` hides the field's label, not its text;
 * `node--view-mode-teaser`, `block--widget` name the variant of a generic block.
 */
export function withoutModifiers(cls: string): string {
  return cls.includes('--') ? cls.replace(/--\S*/g, '') : cls;
}

/**
 * Elementor, the WordPress page builder, wraps every element of a page in `elementor-widget`,
 * `elementor-widget-container` and `elementor-widget-<type>`: `widget` there names no sidebar
 * widget. The type is read as the hint (`theme-post-content`, `share-buttons`, `author-box`,
 * `posts`), the generic wrappers as no hint.
 */
const BUILDER_WIDGET = /(^|\s)elementor-widget(?:-container(?=\s|$)|-|(?=\s|$))/g;

/** The class attribute as its hints are read: without BEM modifiers (withoutModifiers) and page-builder widget wrappers (BUILDER_WIDGET). */
export function hintClass(cls: string): string {
  const c = withoutModifiers(cls);
  return c.includes('elementor-widget') ? c.replace(BUILDER_WIDGET, '$1') : c;
}

/**
 * +-25 per hint matched in class and in id (Readability's class weight). `relaxed`: only the strong
 * negative hints (NEGATIVE_STRONG) count (the fallback for pages whose first choice came out small,
 * see core.ts).
 * `heading`: weigh as a heading (NEGATIVE_HEADING); h1-h6 always are. An anchor id (dom.ts
 * `anchorId`) is not read.
 */
export function classWeight(el: ElementNode, relaxed = false, heading = HEADING_TAGS.has(el.tag)): number {
  let w = 0;
  // A discussion's reply (dom.ts markReplies): its comment names say what it is, not boilerplate.
  if (el.reply) return 0;
  const cls = el.attrs.class;
  const negative = relaxed ? NEGATIVE_STRONG : heading ? NEGATIVE_HEADING : NEGATIVE;
  if (cls) {
    const c = hintClass(cls);
    if (negative.test(c)) w -= 25;
    if (POSITIVE.test(c)) w += 25;
  }
  const id = el.anchorId ? undefined : el.attrs.id;
  if (id) {
    if (negative.test(id)) w -= 25;
    if (POSITIVE.test(id)) w += 25;
  }
  return w;
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
    link += child.tag === 'a' ? child.textLen : child.linkLen;
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

export function linkDensity(el: ElementNode): number {
  return el.textLen === 0 ? 0 : el.linkLen / el.textLen;
}

function hasBlockChild(el: ElementNode): boolean {
  return el.hasBlock;
}

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

/** What <article>, <main> and `itemprop="articleBody"` add to a candidate's start. */
const ARTICLE_TAG_BONUS = 10;

/** What a candidate starts from: its tag, and its class/id hints. */
function initialScore(el: ElementNode, relaxed: boolean): number {
  let base = 0;
  switch (el.tag) {
    case 'div': case 'article': case 'main': case 'section':
      base = 5;
      break;
    case 'pre': case 'td': case 'blockquote':
      base = 3;
      break;
    case 'address': case 'ol': case 'ul': case 'dl': case 'dd': case 'dt': case 'li': case 'form':
      base = -3;
      break;
    case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': case 'th':
      base = -5;
      break;
  }
  if (el.tag === 'article' || el.tag === 'main' || el.attrs.itemprop === 'articleBody') base += ARTICLE_TAG_BONUS;
  return base + classWeight(el, relaxed);
}

/** A block scored as a paragraph: p, li, td and the like, or a div, section or span without block children. */
function isParagraphLike(el: ElementNode): boolean {
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

  const final = (el: ElementNode) => el.score * (1 - linkDensity(el));
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
  const topScore = final(top);

  // Several strong candidates under one ancestor: the article is split in blocks; take the ancestor.
  const strong = candidates.slice(1, 6).filter((c) => final(c) >= topScore * 0.75);
  if (strong.length >= 2) {
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
  const limit = top.textLen * 1.1 + 20;
  while (top.parent !== null && top.parent.tag !== '#root' && top.parent.tag !== 'body' && top.parent.textLen <= limit && plainTextAfter(top) <= 20) top = top.parent;
  const inner = textContainer(top, candidates, relaxed);
  let chosen = withSiblings(top, final, Math.max(topScore, final(top)), inner, isThread(top, inner, candidates));
  const lead = keyPointLists(top);
  // A list the choice already holds (a key-points box beside the body, taken as its sibling) is not added twice.
  if (lead.length > 0) chosen = [...lead.filter((el) => !chosen.some((c) => c === el || isAncestor(c, el))), ...chosen];
  holdArticle(top, inner, candidates);
  return chosen;
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

function withSiblings(top: ElementNode, final: (el: ElementNode) => number, topScore: number, inner: ElementNode, thread: boolean): ElementNode[] {
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
  for (const sib of parent.children) {
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
    const block = sib.tag === 'p' || (afterTop && classWeight(sib) < 0) ? sib : unwrap(sib);
    if (block.tag === 'p' || (block.tag === 'div' && !hasBlockChild(block))) {
      const ld = linkDensity(block);
      if (block.textLen > 80 && ld < 0.25) out.push(block);
      else if (block.textLen > 0 && block.textLen <= 80 && ld === 0 && !(afterTop && (headed ??= firstMatching(top, (el) => el.tag === 'h1') !== null)) && /[.!?。]\s*$/.test(textOf(block))) out.push(block);
    } else if ((sameClass || sameKind(sib, top) || sameFrame(sib, top)) && isProse(block)) {
      // Text too deep to have scored (points reach five ancestors): a run of paragraphs of
      // prose beside the choice is the next part of the article (a page of sections, a grid's rows).
      out.push(sib);
    } else if (thread && holdsLike(sib, inner)) {
      // Another post of the thread's template: a question beside the block of its answers, a
      // first post beside the replies, its body a block of the text container's tag and class.
      out.push(sib);
    }
  }
  return withHeadings(parent, out);
}

/**
 * A column of a page grid and its width in twelfths: Bootstrap `col-md-8`, `col-4`, Foundation
 * `large-8`, Bootstrap 2 `span8`. Of several (`col-12 col-lg-8`), the narrowest: the desktop layout.
 */
const GRID_COLUMN = /(?:^|\s)(?:col-(?:(?:xs|sm|md|lg|xl|xxl)-)?|(?:small|medium|large)-|span)(\d{1,2})(?=\s|$)/g;

function gridWidth(el: ElementNode): number {
  const cls = el.attrs.class;
  if (cls === undefined || (!cls.includes('col') && !cls.includes('span') && !cls.includes('large-') && !cls.includes('medium-'))) return 0;
  let width = 0;
  for (const m of cls.matchAll(GRID_COLUMN)) {
    const w = Number(m[1]);
    if (w >= 1 && w <= 12 && (width === 0 || w < width)) width = w;
  }
  return width;
}

/** Widest column (twelfths) read as a sidebar beside the article's, and narrowest read as the article's. */
const SIDE_COLUMN = 4;
const WIDE_COLUMN = 8;

/** `el` is a grid column of WIDE_COLUMN twelfths or more with a column of SIDE_COLUMN or fewer beside it. */
function wideColumnBesideSide(el: ElementNode): boolean {
  if (el.parent === null || gridWidth(el) < WIDE_COLUMN) return false;
  for (const s of el.parent.children) {
    if (typeof s === 'string' || s === el) continue;
    const w = gridWidth(s);
    if (w > 0 && w <= SIDE_COLUMN) return true;
  }
  return false;
}

/** `sib` is a grid column of SIDE_COLUMN twelfths or fewer beside `top`, a column of WIDE_COLUMN or more. */
function sideColumnOf(sib: ElementNode, top: ElementNode): boolean {
  const w = gridWidth(sib);
  return w > 0 && w <= SIDE_COLUMN && gridWidth(top) >= WIDE_COLUMN;
}

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
    } else {
      pending = sib.textLen <= SIBLING_HEADING_CHARS && linkDensity(sib) < 0.5 && classWeight(sib, false, true) >= 0 && headingWithin(sib) ? sib : null;
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
 * A post embedded from a social network: the quotation as the network's embed code writes it
 * (`blockquote.twitter-tweet`, `instagram-media`, `tiktok-embed`, `bluesky-embed`), which the
 * article quotes, however its wrapper is named (`div.social-media-embed`).
 */
const EMBEDDED_POST = /(?:^|\s)(?:twitter-tweet|instagram-media|tiktok-embed|bluesky-embed|mastodon-embed|reddit-embed-bq)(?:\s|$)/;

/** `el` is an embedded post, or wrappers of one child each (up to three) around one. */
export function wrapsEmbeddedPost(el: ElementNode): boolean {
  let e: ElementNode | null = el;
  for (let depth = 0; depth < 4 && e !== null; depth++, e = soleChild(e)) {
    if (e.tag === 'blockquote') return e.attrs.class !== undefined && EMBEDDED_POST.test(e.attrs.class);
  }
  return false;
}

/** The only child element of `el` when it has no text of its own beside it, else null. */
export function soleChild(el: ElementNode): ElementNode | null {
  let only: ElementNode | null = null;
  for (const c of el.children) {
    if (typeof c === 'string') {
      if (c.trim() !== '') return null;
      continue;
    }
    if (only !== null) return null;
    only = c;
  }
  return only;
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
function isThread(top: ElementNode, inner: ElementNode, candidates: readonly ElementNode[]): boolean {
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

/** The element under single-child wrappers (no text of their own). */
function unwrap(el: ElementNode): ElementNode {
  let e = el;
  for (;;) {
    if (e.ownText > 0) return e;
    let only: ElementNode | null = null;
    for (const c of e.children) {
      if (typeof c === 'string') continue;
      if (only !== null) return e;
      only = c;
    }
    if (only === null || only.textLen !== e.textLen) return e;
    e = only;
  }
}

/** Paragraphs of prose: 200+ characters in <p>s of 80+ characters on average, links under a sixth of the text. */
export function isProse(el: ElementNode): boolean {
  const p = el.pCount;
  if (p < 1 || el.textLen < 200) return false;
  return el.textLen / p >= 80 && linkDensity(el) < 1 / 6;
}

function isAncestor(anc: ElementNode, el: ElementNode): boolean {
  for (let p = el.parent; p !== null; p = p.parent) if (p === anc) return true;
  return false;
}

/**
 * The last step of the fallback (trafilatura's "baseline"): the body's paragraphs minus
 * boilerplate, in document order. A paragraph is a p/pre/blockquote/dd, a div/section/td/li
 * without block children, or any element with >= 100 characters of its own text (text between
 * <br>s), of >= 25 characters and link density < 0.25; subtrees whose class/id says boilerplate
 * (`unlikely`, isStrongBoilerplate) are skipped. A heading joins when a paragraph after it is
 * kept. `measure` must have run on `body`.
 */
export function bodyParagraphs(body: ElementNode): ElementNode[] {
  const out: ElementNode[] = [];
  // The last heading passed: it joins when a paragraph after it is kept (a page of short
  // sections keeps their headings), and is replaced by the next heading otherwise.
  let heading: ElementNode | null = null;
  const walk = (el: ElementNode): void => {
    for (const c of el.children) {
      if (typeof c === 'string' || c.unlikely) continue;
      if (HEADING_TAGS.has(c.tag)) {
        heading = c.textLen > 0 && linkDensity(c) < 0.5 && !isStrongBoilerplate(c) ? c : null;
        continue;
      }
      if (c.textLen < MIN_PARAGRAPH_CHARS || isStrongBoilerplate(c)) continue;
      const leaf = c.tag === 'p' || c.tag === 'pre' || c.tag === 'blockquote' || c.tag === 'dd' || (!c.hasBlock && (c.tag === 'div' || c.tag === 'section' || c.tag === 'td' || c.tag === 'li')) || c.ownText >= OWN_TEXT_CHARS;
      if (leaf) {
        // A consent notice whose markup names no cookie (a consent manager's own ids) is read by its text.
        if (linkDensity(c) < 0.25 && !(c.textLen <= 600 && isConsentNotice(textOf(c)))) {
          if (heading !== null) out.push(heading);
          heading = null;
          out.push(c);
        }
      } else {
        walk(c);
      }
    }
  };
  walk(body);
  return out;
}

/** Text beyond the headline that makes a block around it the article's (two sentences of a brief). */
const HEADLINE_BLOCK_TEXT = 100;

/**
 * The nearest ancestor of the page's headline (the first <h1> whose text is the page's title, or
 * begins it, or is begun by it) that holds at least HEADLINE_BLOCK_TEXT characters besides it,
 * below the body: the article under its headline. Null without such an <h1> (a site logo in an
 * <h1> is not the headline), or when only the body holds more. `measure` must have run on `body`.
 */
export function headlineBlock(body: ElementNode, title: string): ElementNode | null {
  const t = slug(title);
  if (t === '') return null;
  const h1 = firstMatching(body, (el) => {
    if (el.tag !== 'h1') return false;
    const h = slug(textOf(el));
    return h !== '' && (h === t || t.startsWith(h + ' ') || h.startsWith(t + ' '));
  });
  if (h1 === null) return null;
  for (let el = h1.parent; el !== null && el !== body; el = el.parent) {
    if (el.textLen - h1.textLen >= HEADLINE_BLOCK_TEXT) return el;
  }
  return null;
}

/** Letters and digits, lower-cased, one space between runs. */
function slug(s: string): string {
  return s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/** The first element under `el`, in document order, that `test` accepts. */
export function firstMatching(el: ElementNode, test: (el: ElementNode) => boolean): ElementNode | null {
  for (const c of el.children) {
    if (typeof c === 'string') continue;
    if (test(c)) return c;
    const found = firstMatching(c, test);
    if (found !== null) return found;
  }
  return null;
}

export function bodyOf(root: ElementNode): ElementNode {
  const stack: Node[] = [...root.children];
  while (stack.length > 0) {
    const n = stack.shift()!;
    if (typeof n === 'string') continue;
    if (n.tag === 'body') return n;
    stack.push(...n.children);
  }
  return root;
}

/** Plain text of an element, whitespace collapsed. */
export function textOf(el: ElementNode): string {
  let out = '';
  const walk = (n: ElementNode) => {
    for (const c of n.children) {
      if (typeof c === 'string') out += c;
      else walk(c);
    }
  };
  walk(el);
  return out.replace(/\s+/g, ' ').trim();
}
