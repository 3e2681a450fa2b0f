/**
 * A small DOM built from htmlparser2's SAX events: only what extraction needs. Scripts, styles,
 * form controls, embedded media and hidden subtrees are dropped while parsing, so later passes
 * never see them. Boilerplate by class/id ("unlikely candidates", as Readability names them) is
 * marked, and `strictView` copies the tree without it; the `all` mode keeps page chrome (last
 * resort for pages whose only text sits in a header, nav or footer).
 * This file holds the node types, the parser and the strict view; the rules by an element's own
 * tag and names are in parse-rules.ts, the sections marked after parsing in section-marks.ts.
 */
import { parseTree } from './html-events.ts';
import { isNegativeHint, wrapsEmbeddedPost } from './class-hints.ts';
import { isMeterSpace, TextMeter } from './measure.ts';
import { dropped, HEADINGS, isAnchorId, isUnlikely, TAG_BITS, VOID, withinArticle } from './parse-rules.ts';
import { childIndex, isReplyControl, markReplyThreads, markSectionByHeading, REPLY_CONTROL_CHARS } from './section-marks.ts';

export interface ElementNode {
  readonly tag: string;
  readonly attrs: Readonly<Record<string, string>>;
  readonly children: Node[];
  parent: ElementNode | null;
  /**
   * The element's own text runs (not its children's), counted while parsing (measure.ts TextMeter):
   * characters with whitespace runs read as one, and commas.
   */
  ownText: number;
  ownCommas: number;
  /** Filled by the scorer: trimmed text length, text inside links, paragraph score. */
  textLen: number;
  linkLen: number;
  commas: number;
  /** Descendant counts used by the conditional cleaner. */
  pCount: number;
  imgCount: number;
  liCount: number;
  /** <form> elements below. */
  formCount: number;
  /** True when a block-level element sits anywhere below. */
  hasBlock: boolean;
  score: number;
  scored: boolean;
  /** Class/id reads as boilerplate (see UNLIKELY): left out of the strict view (`strictView`). */
  unlikely: boolean;
  /** The id is an anchor that spells a heading (`sharing-the-output`), not a hint: see `isAnchorId`. */
  anchorId: boolean;
  /** A reply of a discussion named as a comment: its comment hints are not read (see `markReplies`). */
  reply: boolean;
  /** On the path from the article's text container up to the choice (score.ts holdArticle): the cleaner keeps it. */
  held: boolean;
  /** A comment thread or related-links box by its heading (`markSectionByHeading`): boilerplate in every view, as its names would make it. */
  headed: boolean;
}
export type Node = ElementNode | string;

export interface ParsedPage {
  readonly root: ElementNode;
  readonly title: string | null;
  readonly ogTitle: string | null;
  readonly baseHref: string | null;
  /** Lower-cased `lang` attribute of <html>, if any. */
  readonly lang: string | null;
  /** The page says it is a discussion (see DISCUSSION_TYPE, DISCUSSION_BODY): replies are its content. */
  readonly discussion: boolean;
  /** The documents of its `<iframe srcdoc>` elements (read only when the page shows next to nothing). */
  readonly frames: readonly string[];
}

/**
 * Elements deeper than this are flattened into their ancestor at this depth (their text is kept):
 * every later pass recurses, and real pages stay far below it.
 */
export const MAX_DEPTH = 96;
/**
 * Close tags, implied closes and the climb in `closeTag` search the open elements, so a document
 * of tens of thousands of unclosed elements would cost quadratic time. Parsing stops when this
 * many elements are open at once: no real page comes close.
 */
export const MAX_OPEN_ELEMENTS = 4096;
/**
 * A forum thread or Q&A page by its schema.org microdata (the types Google reads for forum and Q&A
 * pages), or by a <body> class that names the page's content type a forum topic or question
 * (Drupal `page-node-type-forum`, bbPress `single-topic`, WordPress Q&A plugins `single-question`).
 * A newspaper's "Forum" section (`section-forum`) names no content type.
 */
const DISCUSSION_TYPE = /schema\.org\/(?:QAPage|Question|DiscussionForumPosting)\b/;
const DISCUSSION_BODY = /(?:^|\s)(?:page-)?(?:node-type|post-type|single)-(?:forum|topic|question)(?:\s|$)/;

function newElement(tag: string, attrs: Record<string, string>, parent: ElementNode | null, unlikely: boolean, anchorId: boolean, children: Node[] = []): ElementNode {
  return { tag, attrs, children, parent, ownText: 0, ownCommas: 0, textLen: 0, linkLen: 0, commas: 0, pCount: 0, imgCount: 0, liCount: 0, formCount: 0, hasBlock: false, score: 0, scored: false, unlikely, anchorId, reply: false, held: false, headed: false };
}

/**
 * lenient: drop by tag, role and hidden-ness, and mark class/id boilerplate as `unlikely` (the
 * strict view leaves those out, see `strictView`); all: keep page chrome too (last resort);
 * hidden: as lenient, but keep what the page hides (`hidden`, `aria-hidden`, `display: none`) and
 * what it shows without scripts (<noscript>): the text of a page whose article a script reveals.
 */
export type ParseMode = 'lenient' | 'all' | 'hidden';

/**
 * Parses HTML into the extraction DOM (see ParseMode for what each mode drops).
 */
export function parsePage(html: string, mode: ParseMode): ParsedPage {
  const root = newElement('#root', {}, null, false, false);
  let current = root;
  let depth = 0;
  let flattened = 0;
  let open = 0;
  let skipDepth = 0;
  let inTitle = false;
  let title = '';
  let sawTitle = false;
  let ogTitle: string | null = null;
  const frames: string[] = [];
  /** The page's own URL (`<link rel="canonical">`, else og:url). */
  let pageUrl: string | null = null;
  let baseHref: string | null = null;
  let lang: string | null = null;
  let discussion = false;
  const meter = new TextMeter();
  const sectionHeadings: ElementNode[] = [];
  /** Ids of the panels that disclosure toggles control (see openElement). */
  let disclosed: Set<string> | undefined;
  const quotes: ElementNode[] = [];
  /** <main> (or role main, itemprop articleBody) and <article> elements, for the wrappers around them. */
  const mains: ElementNode[] = [];
  const articles: ElementNode[] = [];
  /** Where a comment's reply control stands (see `markReplyThreads`): links that may be one, the elements that hold a reply button. */
  const replies: ElementNode[] = [];
  /** The text of a <button> being skipped, read to tell a reply button; null outside one. */
  let buttonText: string | null = null;
  /** The last text run added to the tree ended in whitespace (read when the next one joins it). */
  let endsInSpace = true;

  parseTree(html, {
    wantsAttributes: () => skipDepth === 0,
    wantsText: () => inTitle || skipDepth === 0 || buttonText !== null,
    openTag(name, attrs) {
      const bits = TAG_BITS.get(name) ?? 0;
      const more = (bits & VOID) !== 0 || ++open <= MAX_OPEN_ELEMENTS;
      openElement(name, bits, attrs);
      return more;
    },
    text(text, start) {
      if (inTitle) {
        title += text;
        return;
      }
      if (skipDepth > 0) {
        if (buttonText !== null && buttonText.length <= REPLY_CONTROL_CHARS) buttonText += text;
        return;
      }
      if (text === '') return;
      const kids = current.children;
      const last = kids.length - 1;
      // Counted where it stands: after text it joins, at the start of its element, or after an element.
      let space: boolean;
      if (last >= 0 && typeof kids[last] === 'string') {
        kids[last] += text;
        space = endsInSpace;
      } else {
        kids.push(text);
        space = last < 0;
      }
      if (start >= 0) meter.count(html, start, start + text.length, space);
      else meter.count(text, 0, text.length, space);
      current.ownText += meter.chars;
      current.ownCommas += meter.commas;
      endsInSpace = meter.space;
    },
    closeTag(name) {
      const isVoid = ((TAG_BITS.get(name) ?? 0) & VOID) !== 0;
      if (!isVoid) open--;
      if (name === 'title' && inTitle) {
        inTitle = false;
        return;
      }
      if (skipDepth > 0) {
        if (!isVoid) skipDepth--;
        if (skipDepth === 0 && buttonText !== null) {
          if (isReplyControl(buttonText)) replies.push(current);
          buttonText = null;
        }
        return;
      }
      if (isVoid || name === 'title') return;
      if (flattened > 0) {
        flattened--;
        return;
      }
      // The tree rules close implied elements first; climb to the matching element.
      let el: ElementNode | null = current;
      let up = 1;
      while (el !== null && el.tag !== name) {
        el = el.parent;
        up++;
      }
      if (el !== null && el.parent !== null) {
        if (HEADINGS.has(el.tag)) sectionHeadings.push(el);
        else if (el.tag === 'blockquote' && el.attrs.class !== undefined) quotes.push(el);
        else if (el.tag === 'main' || el.attrs.role === 'main' || el.attrs.itemprop === 'articleBody') mains.push(el);
        else if (el.tag === 'article') articles.push(el);
        else if (el.tag === 'a' && el.children.length <= 3) replies.push(el);
        // A boilerplate hint in an id that turns out to be a heading's anchor.
        const id = el.attrs.id;
        if (id !== undefined && (el.unlikely || isNegativeHint(id)) && isAnchorId(el)) {
          el.anchorId = true;
          el.unlikely = isUnlikely(el.tag, TAG_BITS.get(el.tag) ?? 0, el.attrs, true);
        }
        current = el.parent;
        depth = Math.max(0, depth - up);
      }
    },
  });

  function openElement(name: string, bits: number, attrs: Record<string, string>): void {
    const isVoid = (bits & VOID) !== 0;
    if (skipDepth > 0) {
      if (!isVoid) skipDepth++;
      return;
    }
    if (name === 'title' && !sawTitle) {
      inTitle = true;
      sawTitle = true;
    } else if (name === 'base' && baseHref === null && attrs.href) {
      baseHref = attrs.href;
    } else if (name === 'meta') {
      const key = (attrs.property ?? attrs.name ?? '').toLowerCase();
      if ((key === 'og:title' || key === 'twitter:title') && ogTitle === null && attrs.content) ogTitle = attrs.content;
      if (key === 'og:url' && pageUrl === null && attrs.content) pageUrl = attrs.content;
    } else if (name === 'link' && attrs.href && attrs.rel !== undefined && attrs.rel.toLowerCase() === 'canonical') {
      pageUrl = attrs.href;
    } else if (name === 'html' && attrs.lang) {
      lang = attrs.lang.toLowerCase();
    } else if (name === 'body' && attrs.class !== undefined && DISCUSSION_BODY.test(attrs.class)) {
      discussion = true;
    }
    if (attrs.itemtype !== undefined && !discussion && DISCUSSION_TYPE.test(attrs.itemtype)) discussion = true;
    if (name === 'title') return;
    if (name === 'iframe' && attrs.srcdoc && frames.length < MAX_FRAMES) frames.push(attrs.srcdoc);
    // A disclosure's toggle (an accordion's question: `<button aria-expanded="false"
    // aria-controls="a1">`): the panel it names is hidden until opened, and is the page's text
    // (a FAQ's answers), not hidden furniture.
    // A tab (`role="tab"`) names its panel so too: an inactive tab's panel (`hidden` until chosen:
    // a schedule's second day, a product's specifications) is the page's text.
    if (attrs['aria-controls'] !== undefined && ((attrs['aria-expanded'] !== undefined && (name === 'button' || attrs.role === 'button')) || attrs.role === 'tab')) {
      for (const id of attrs['aria-controls'].split(/\s+/)) if (id !== '') (disclosed ??= new Set()).add(id);
    }
    if (dropped(name, bits, attrs, mode, current.tag, name === 'aside' && withinArticle(current), disclosed !== undefined && attrs.id !== undefined && disclosed.has(attrs.id))) {
      if (!isVoid) {
        skipDepth = 1;
        if (name === 'button') buttonText = '';
      }
      return;
    }
    if (depth >= MAX_DEPTH && !isVoid) {
      // Flattened, whatever its class/id: past this depth its text joins the ancestor in both views.
      flattened++;
      return;
    }
    const el = newElement(name, attrs, current, isUnlikely(name, bits, attrs), false);
    current.children.push(el);
    if (!isVoid) {
      current = el;
      depth++;
    }
  }

  const indexIn = childIndex();
  for (const h of sectionHeadings) markSectionByHeading(h, discussion, indexIn);
  if (!discussion) markReplyThreads(replies);
  // An embedded post is quoted by the article: wrappers named for social media around it stay.
  for (const q of quotes) {
    if (!wrapsEmbeddedPost(q)) continue;
    for (let e = q.parent; e !== null && e.parent !== null && wrapsEmbeddedPost(e); e = e.parent) e.unlikely = false;
  }
  // The page's main content (its <main>, or its one <article>) is no sidebar, whatever the
  // wrappers around it are named for what sits beside it ("wrap has-sidebar", "container
  // with-ads", "page-wrap menu-closed"): they stay in the strict view. A thread marked by its
  // heading stays marked.
  if (pageUrl !== null && articles.length > 1) dropNextArticles(articles, pageUrl);
  const main = mains.length > 0 ? mains : articles.length === 1 ? articles : [];
  for (const m of main) for (let e = m.parent; e !== null && e.parent !== null; e = e.parent) if (!e.headed) e.unlikely = false;
  return {
    root,
    title: sawTitle ? title.replace(/\s+/g, ' ').trim() || null : null,
    ogTitle: ogTitle === null ? null : (ogTitle as string).replace(/\s+/g, ' ').trim() || null,
    baseHref,
    lang,
    discussion,
    frames,
  };
}

/** `<iframe srcdoc>` documents kept per page, at most. */
const MAX_FRAMES = 4;

/** Where a page's article says its own URL (infinite scroll sets it for the address bar). */
const ARTICLE_URL_ATTRS = ['data-url', 'data-permalink', 'data-href', 'data-canonical', 'data-article-url'] as const;

/** The path of `url` (absolute or from the root), without a trailing slash; '' when unreadable. */
function pathOf(url: string): string {
  try {
    return new URL(url, 'https://page.invalid/').pathname.replace(/\/+$/, '');
  } catch {
    return '';
  }
}

/**
 * Articles an infinite scroll appended under the page's own: where one <article> names the page's
 * URL (canonical link or og:url) in a `data-url`-like attribute, the others that name another URL
 * are other pages' articles, and leave the tree.
 */
function dropNextArticles(articles: readonly ElementNode[], pageUrl: string): void {
  const own = pathOf(pageUrl);
  if (own === '') return;
  const urlOf = (a: ElementNode): string | undefined => {
    for (const k of ARTICLE_URL_ATTRS) if (a.attrs[k]) return pathOf(a.attrs[k]);
    return undefined;
  };
  if (!articles.some((a) => urlOf(a) === own)) return;
  for (const a of articles) {
    const url = urlOf(a);
    if (url === undefined || url === own || url === '' || a.parent === null) continue;
    const at = a.parent.children.indexOf(a);
    if (at !== -1) a.parent.children.splice(at, 1);
  }
}

/**
 * The tree without the `unlikely` subtrees (the first, strict attempt), as a copy: the page's own
 * tree stays untouched for the lenient attempt. Text around a left-out element joins, as if the
 * element had never been parsed. Real pages have hundreds of elements, so the copy costs
 * microseconds, where parsing the page a second time cost as much as the first parse.
 */
export function strictView(page: ParsedPage): ParsedPage {
  return { ...page, root: copyLikely(page.root, null) };
}

function copyLikely(el: ElementNode, parent: ElementNode | null): ElementNode {
  const from = el.children;
  let leftOut = false;
  for (let i = 0; i < from.length; i++) {
    const c = from[i]!;
    if (typeof c !== 'string' && c.unlikely) {
      leftOut = true;
      break;
    }
  }
  if (!leftOut) {
    // Nothing left out (most elements): the same children, copied into an array of their number.
    const out = newElement(el.tag, el.attrs, parent, false, el.anchorId, from.slice());
    out.reply = el.reply;
    out.headed = el.headed;
    const kids = out.children;
    for (let i = 0; i < kids.length; i++) {
      const c = kids[i]!;
      if (typeof c !== 'string') kids[i] = copyLikely(c, out);
    }
    out.ownText = el.ownText;
    out.ownCommas = el.ownCommas;
    return out;
  }
  const out = newElement(el.tag, el.attrs, parent, false, el.anchorId);
  out.reply = el.reply;
  out.headed = el.headed;
  const kids = out.children;
  // The own text is the original's, except where a run now follows other text or opens the
  // element: a leading whitespace run then counts as its predecessor's (TextMeter).
  let ownText = el.ownText;
  // The last character of the text run `kids` ends with, kept as runs join: reading it from the
  // joined string would flatten that string each time, O(n²) over many left-out elements.
  let tail = NaN;
  for (let i = 0; i < from.length; i++) {
    const c = from[i]!;
    if (typeof c === 'string') {
      const last = kids.length - 1;
      const joins = last >= 0 && typeof kids[last] === 'string';
      if (isMeterSpace(c.charCodeAt(0))) {
        const prev = from[i - 1];
        const spaceBefore = i === 0 || (typeof prev === 'string' && isMeterSpace(prev.charCodeAt(prev.length - 1)));
        const spaceNow = last < 0 || (joins && isMeterSpace(tail));
        if (spaceBefore !== spaceNow) ownText += spaceBefore ? 1 : -1;
      }
      if (joins) kids[last] += c;
      else kids.push(c);
      if (c.length > 0) tail = c.charCodeAt(c.length - 1);
      else if (!joins) tail = NaN;
    } else if (!c.unlikely) {
      kids.push(copyLikely(c, out));
    }
  }
  out.ownText = ownText;
  out.ownCommas = el.ownCommas;
  return out;
}
