/**
 * A small DOM built from htmlparser2's SAX events: only what extraction needs. Scripts, styles,
 * form controls, embedded media and hidden subtrees are dropped while parsing, so later passes
 * never see them. Boilerplate by class/id ("unlikely candidates", as Readability names them) is
 * marked, and `strictView` copies the tree without it; the `all` mode keeps page chrome (last
 * resort for pages whose only text sits in a header, nav or footer).
 */
import { parseTree } from './html-events.ts';
import { RELATED_LABEL } from './boilerplate-lines.ts';
import { hintClass, isNegativeHint, wrapsEmbeddedPost } from './class-hints.ts';
import { isMeterSpace, TextMeter } from './measure.ts';

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
}

/** Subtrees never rendered: code, styling, media players, form controls, document metadata. */
const SKIP_TAGS = new Set([
  'script', 'style', 'noscript', 'template', 'svg', 'math', 'iframe', 'object', 'embed', 'canvas', 'video', 'audio',
  'select', 'option', 'button', 'input', 'textarea', 'label', 'dialog', 'map', 'link', 'meta', 'frameset',
]);
/** Page chrome: always dropped. */
const CHROME_TAGS = new Set(['nav', 'aside', 'footer', 'menu']);
const CHROME_ROLES = new Set(['navigation', 'complementary', 'banner', 'contentinfo', 'menu', 'menubar', 'dialog', 'alertdialog', 'search', 'tablist', 'toolbar']);
const VOID_TAGS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr', 'param', 'keygen']);

/** Readability's "unlikely candidate" hints, extended with cookie/consent/newsletter/share widgets. */
const UNLIKELY = /-ad-|\bads?\b|ai2html|banner|breadcrumb|combx|comment|community|cover-wrap|disqus|extra|gdpr|consent|cookie|legends|menu|related|remark|replies|rss|shoutbox|sidebar|skyscraper|social|sponsor|supplemental|ad-break|agegate|pagination|pager|popup|newsletter|subscribe|signup|share|sharing|promo|outbrain|taboola|byline|masthead|toolbar|tags?-list|jump-?link|skip-?link|modal|overlay|print-only|screen-reader|sr-only|visually-?hidden/i;
/**
 * A call-to-action band or box (`cta`, `cta-band`, `section--cta`, `newsletter-cta`): a prompt
 * to sign up, book or buy. Read on the class with its BEM modifiers, where a landing page's
 * section names its kind (`section section--cta`). Not saved by MAYBE: `cta-band`,
 * `cta-content` are still the box. Only on a div or section: a link so named inside a sentence
 * (`a.cta-link`) is the sentence's words (render.ts reads button links).
 */
const CALL_TO_ACTION = /(?:^|[\s_-])cta(?:$|[\s_-])/i;
const MAYBE = /and|article|body|column|content|main|shadow|post|entry|story|text/i;
const PROTECTED_TAGS = new Set(['html', 'body', 'article', 'main', 'table', 'tbody', 'tr', 'td', 'th', 'pre', 'code', 'p', 'li']);
/**
 * The four sets above as bits of one map: an open or close tag looks its name up once instead of
 * up to six times (Set lookups were ~3% of the extraction's instructions).
 */
const VOID = 1;
const SKIP = 2;
const CHROME = 4;
const PROTECTED = 8;
const TAG_BITS = new Map<string, number>();
for (const [set, bit] of [[VOID_TAGS, VOID], [SKIP_TAGS, SKIP], [CHROME_TAGS, CHROME], [PROTECTED_TAGS, PROTECTED]] as const) {
  for (const tag of set) TAG_BITS.set(tag, (TAG_BITS.get(tag) ?? 0) | bit);
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
const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i;

function newElement(tag: string, attrs: Record<string, string>, parent: ElementNode | null, unlikely: boolean, anchorId: boolean, children: Node[] = []): ElementNode {
  return { tag, attrs, children, parent, ownText: 0, ownCommas: 0, textLen: 0, linkLen: 0, commas: 0, pCount: 0, imgCount: 0, liCount: 0, formCount: 0, hasBlock: false, score: 0, scored: false, unlikely, anchorId, reply: false, held: false, headed: false };
}

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** Letters and digits of `s`, lower-cased, one space between runs. */
function slugWords(s: string): string {
  return s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/**
 * Site generators give headings ids made from their text (Hugo, Jekyll, MkDocs, Docusaurus,
 * MediaWiki: `<h2 id="sharing-the-work">Sharing the work`), and Sphinx/docutils give each section
 * the id of its heading (`<section id="comment-lines-in-the-list"><h2>Comment lines in the list`):
 * such an id is an anchor, and a boilerplate word in it (share, comment, social, media) says
 * nothing. The id must spell the heading (the element's own text, or its first child's when that
 * is a heading) in two words or more: `<h3 id="comments">3 Responses</h3>` and `<div
 * id="comments"><h3>Comments</h3>` stay hints.
 */
function isAnchorId(el: ElementNode): boolean {
  const id = el.attrs.id;
  if (id === undefined || id.length > 120) return false;
  let heading: ElementNode | null = HEADINGS.has(el.tag) ? el : null;
  if (heading === null) for (const c of el.children) {
    if (typeof c === 'string') {
      if (c.trim() !== '') return false;
      continue;
    }
    heading = HEADINGS.has(c.tag) ? c : null;
    break;
  }
  if (heading === null) return false;
  const words = slugWords(id);
  return words.includes(' ') && words === slugWords(textOfShallow(heading));
}

/** Text of an element (a heading: small), children included. */
function textOfShallow(el: ElementNode): string {
  let s = '';
  for (const c of el.children) s += typeof c === 'string' ? c : textOfShallow(c);
  return s;
}

/**
 * lenient: drop by tag, role and hidden-ness, and mark class/id boilerplate as `unlikely` (the
 * strict view leaves those out, see `strictView`); all: keep page chrome too (last resort);
 * hidden: as lenient, but keep what the page hides (`hidden`, `aria-hidden`, `display: none`) and
 * what it shows without scripts (<noscript>): the text of a page whose article a script reveals.
 */
export type ParseMode = 'lenient' | 'all' | 'hidden';

function dropped(name: string, bits: number, attrs: Record<string, string>, mode: ParseMode, parent: string, inArticle: boolean, panel = false): boolean {
  // The toggle of an accordion is the heading's text (Bootstrap's `h2.accordion-header > button`: the question of a FAQ).
  // A declarative shadow root (`<template shadowrootmode="open">`, Lit and Stencil server output) is rendered where it stands.
  if ((bits & SKIP) !== 0 && !(name === 'button' && HEADINGS.has(parent)) && !(name === 'template' && isShadowRoot(attrs)) && !(name === 'noscript' && mode === 'hidden')) return true;
  if (mode !== 'all' && (bits & CHROME) !== 0 && !(name === 'aside' && (isFactBox(attrs) || inArticle))) return true;
  // A disclosure's panel (`panel`: a toggle's aria-controls names it) is hidden until opened.
  if (mode !== 'hidden' && !panel) {
    if (attrs.hidden !== undefined || attrs['aria-hidden'] === 'true') return true;
    if (attrs.style !== undefined && HIDDEN_STYLE.test(attrs.style)) return true;
  }
  const role = attrs.role;
  if (mode !== 'all' && role !== undefined && CHROME_ROLES.has(role.toLowerCase())) return true;
  return false;
}

/** `shadowrootmode` (HTML standard) or `shadowroot` (Chrome's first form), open or closed. */
function isShadowRoot(attrs: Record<string, string>): boolean {
  return attrs.shadowrootmode !== undefined || attrs.shadowroot !== undefined;
}

/**
 * A box of facts set beside the text (`<aside class="factbox">`, `info-box`, `key-facts`, "at a
 * glance", "tl;dr"): an <aside> by its tag, yet part of the article, as an infobox is. Read on
 * whole class/id words; a role (complementary) still drops it. Any <aside> inside an <article>
 * is kept too (a fact box, a side note, Starlight's notes): the strict view drops those whose
 * class says boilerplate, and the cleaner (render.ts) link lists among them.
 */
const FACT_BOX = /(?:^|[\s_-])(?:fact-?box(?:es)?|facts|fact-?file|fact-?sheet|info-?box|key-?facts|key-?points|at-?a-?glance|tl-?dr|takeaways)(?:$|[\s_-])/i;

function isFactBox(attrs: Record<string, string>): boolean {
  return (attrs.class !== undefined && FACT_BOX.test(attrs.class)) || (attrs.id !== undefined && FACT_BOX.test(attrs.id));
}

/** `el` or an ancestor is an <article> (read for an <aside> only: asides are few). */
function withinArticle(el: ElementNode): boolean {
  for (let e: ElementNode | null = el; e !== null; e = e.parent) if (e.tag === 'article') return true;
  return false;
}

/** Readability's "unlikely candidate" test on class and id (never for structural tags; `anchorId`: the id is not read). */
function isUnlikely(tag: string, bits: number, attrs: Record<string, string>, anchorId = false): boolean {
  const id = anchorId ? undefined : attrs.id;
  if (attrs.class === undefined && id === undefined) return false;
  if ((bits & PROTECTED) !== 0) return false;
  const cls = attrs.class === undefined ? undefined : hintClass(attrs.class);
  // Read as the hint "class id", tested part by part: no alternative of either pattern matches a
  // space, so a match never spans the two, and \b sees the same boundary at a part's end as at the
  // space (no joined string to allocate and flatten per element).
  if ((tag === 'div' || tag === 'section') && ((attrs.class !== undefined && CALL_TO_ACTION.test(attrs.class)) || (id !== undefined && CALL_TO_ACTION.test(id)))) return true;
  const unlikely = (cls !== undefined && UNLIKELY.test(cls)) || (id !== undefined && UNLIKELY.test(id));
  return unlikely && !((cls !== undefined && MAYBE.test(cls)) || (id !== undefined && MAYBE.test(id)));
}

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
  let baseHref: string | null = null;
  let lang: string | null = null;
  let discussion = false;
  const meter = new TextMeter();
  const sectionHeadings: ElementNode[] = [];
  /** Ids of the panels that disclosure toggles control (see openElement). */
  let disclosed: Set<string> | undefined;
  const quotes: ElementNode[] = [];
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
    } else if (name === 'html' && attrs.lang) {
      lang = attrs.lang.toLowerCase();
    } else if (name === 'body' && attrs.class !== undefined && DISCUSSION_BODY.test(attrs.class)) {
      discussion = true;
    }
    if (attrs.itemtype !== undefined && !discussion && DISCUSSION_TYPE.test(attrs.itemtype)) discussion = true;
    if (name === 'title') return;
    // A disclosure's toggle (an accordion's question: `<button aria-expanded="false"
    // aria-controls="a1">`): the panel it names is hidden until opened, and is the page's text
    // (a FAQ's answers), not hidden furniture.
    if (attrs['aria-expanded'] !== undefined && attrs['aria-controls'] !== undefined && (name === 'button' || attrs.role === 'button')) {
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

  for (const h of sectionHeadings) markSectionByHeading(h, discussion);
  if (!discussion) markReplyThreads(replies);
  // An embedded post is quoted by the article: wrappers named for social media around it stay.
  for (const q of quotes) {
    if (!wrapsEmbeddedPost(q)) continue;
    for (let e = q.parent; e !== null && e.parent !== null && wrapsEmbeddedPost(e); e = e.parent) e.unlikely = false;
  }
  return {
    root,
    title: sawTitle ? title.replace(/\s+/g, ' ').trim() || null : null,
    ogTitle: ogTitle === null ? null : (ogTitle as string).replace(/\s+/g, ' ').trim() || null,
    baseHref,
    lang,
    discussion,
  };
}

/**
 * A comment thread by its heading, as a reader tells it on a page whose class names say
 * nothing: "34 responses to “…”", "Comments (12)", "Top Rated Comments", "Leave a Reply", "Kommentare", "评论". The
 * whole heading must read so: "Comments on the draft rule" does not. A box of other pages' links
 * is told by its label (boilerplate-lines.ts RELATED_LABEL, MORE_HEADING).
 */
const COMMENTS_HEADING = new RegExp(
  '^(?:(?:\\d[\\d,.]*|one|no)\\s+(?:comments?|responses?|replies|thoughts?|reactions?)(?:\\s+(?:to|on)\\s.+)?' +
    '|(?:(?:top|most|best|featured|latest|newest|recent|popular|selected|reader|user|visitor)s?[\'’]?(?:\\s+(?:rated|liked|voted|recommended|recent))?\\s+)?comments?(?:\\s*\\(\\d[\\d,.]*\\))?' +
    '|(?:leave|post|add|write|submit)\\s+(?:a|an|your)\\s+(?:reply|comment|response)|join the (?:conversation|discussion)|comments are closed' +
    '|(?:\\d+\\s+)?(?:leser)?kommentare?(?:\\s*\\(\\d+\\))?|kommentar (?:schreiben|verfassen|hinterlassen)|schreibe(?:n sie)? einen kommentar' +
    '|(?:\\d+\\s+)?(?:commentaires?|comentarios?|commenti|comentários?|reacties?|komentarze?|kommentarer|yorumlar|комментари[йяеи]в?|댓글)(?:\\s*[(（]?\\d+[)）]?개?)?' +
    '|(?:laisser|laissez|ajouter|écrire) un commentaire|(?:deja|dejar|deje|escribe) (?:un|tu|su) comentario|lascia un commento|deixe (?:um|seu) comentário|laat een reactie achter' +
    '|(?:网友|读者|最新|热门)?评论(?:\\s*[(（]\\d+[)）])?|发表评论|コメント(?:\\s*[(（]\\d+件?[)）])?|コメントを(?:書く|残す|投稿する)|\\d+件のコメント' +
    // "《Title》已有1件评论", "12条评论": a count of comments, after the post's title or alone.
    '|.{0,80}?(?:已有|共有|共)\\s*\\d+\\s*[件条條个個]?(?:评论|評論)|\\d+\\s*[件条條个個]?(?:评论|評論))[.:!]?$',
  'iu',
);
/**
 * Headings only: "More <Site or Section>" in capitals ("More Washington Examiner", "More Politics")
 * and "More in/on/about …"; a paragraph may open with such words, a section's heading does not.
 */
const MORE_HEADING = /^(?:more|More|MORE)(?: (?:in|on|about) .{1,60}|(?: \p{Lu}[\p{L}\p{N}.’'&-]*){1,4})$/u;

const LABEL_WITH_TITLE_RE = /[:：]\s*\S/;
/** Longest heading text read as a section's label. */
const SECTION_HEADING_CHARS = 120;

/**
 * The block a comment or related-links heading opens (`COMMENTS_HEADING`, `RELATED_LABEL`, `MORE_HEADING`) is
 * unlikely: the smallest wrapper, up to three levels, that the heading opens (nothing but white
 * space before it) and that holds more than the heading. A comment heading that opens no wrapper
 * (it stands among the article's blocks, the thread after it) takes the blocks after it with it.
 */
function markSectionByHeading(h: ElementNode, discussion: boolean): void {
  // Already in a thread an earlier heading of its parent took (each parent's blocks are walked once).
  if (h.headed) return;
  const text = textOfShallow(h);
  if (text.length > SECTION_HEADING_CHARS * 2) return;
  const label = text.replace(/\s+/g, ' ').trim();
  if (label === '' || label.length > SECTION_HEADING_CHARS) return;
  // On a forum or Q&A page the replies under "23 replies" are the content.
  const comments = !discussion && COMMENTS_HEADING.test(label);
  // A label alone: "Related post: <title>" or "Read more: …" may be a story's own heading.
  if (!comments && !((RELATED_LABEL.test(label) && !LABEL_WITH_TITLE_RE.test(label)) || MORE_HEADING.test(label))) return;
  const visible = label.replace(/\s/g, '').length;
  let box = h;
  for (let level = 0; level < 3; level++) {
    const parent = box.parent;
    if (parent === null || parent.parent === null || ((TAG_BITS.get(parent.tag) ?? 0) & PROTECTED) !== 0 || !opens(parent, box)) break;
    if (visibleOver(parent, visible)) {
      parent.unlikely = true;
      parent.headed = true;
      return;
    }
    box = parent;
  }
  if (!comments || h.parent === null) return;
  let after = false;
  for (const c of h.parent.children) {
    if (c === h) after = true;
    if (after && typeof c !== 'string') c.unlikely = c.headed = true;
  }
}

/**
 * A comment's reply control: a link or button that says only "Reply", in the languages the
 * boilerplate vocabulary covers.
 */
const REPLY_CONTROL = /^(?:reply|antworten|répondre|responder|rispondi|odpowiedz|ответить|beantwoorden|reageer|svara|svar|yanıtla|cevapla|回复|回覆|返信|답글|답글 달기|답글쓰기)$/iu;
/** Longest text read as a reply control. */
const REPLY_CONTROL_CHARS = 40;
const isReplyControl = (text: string): boolean => text.length <= REPLY_CONTROL_CHARS && REPLY_CONTROL.test(text.replace(/\s+/g, ' ').trim());
/** How many levels above a reply control its comment's block may start. */
const REPLY_ITEM_LEVELS = 5;
/** Comments that make a thread: a list of fewer is a reply form or a single quoted remark. */
const REPLY_THREAD_MIN = 3;

/**
 * A comment thread told by its reply controls, on a page whose class names and headings say
 * nothing: where 3+ sibling blocks each hold a "Reply" link or button (`replies`: the links that
 * may be one, and the elements that hold a reply button), each such block is
 * unlikely (left out of the strict view, as a block named `comments` is); their siblings without
 * one (the article's paragraphs, when comments follow them in one wrapper) stay. Not on a discussion page, whose
 * replies are its content; a forum thread that does not say it is one has every post in such
 * items, so the strict view finds too little and the lenient view (which keeps them) is taken.
 */
function markReplyThreads(replies: readonly ElementNode[]): void {
  let items: Map<ElementNode, Set<ElementNode>> | undefined;
  for (const c of replies) {
    // A link is a control when it says "Reply"; a button's text was read as it was skipped, and
    // `c` is the element that holds it.
    if (c.tag === 'a' && !isReplyControl(textOfShallow(c))) continue;
    let item = c;
    for (let level = 0; level < REPLY_ITEM_LEVELS && item.parent !== null && item.parent.parent !== null; level++) {
      const thread = item.parent;
      let seen = (items ??= new Map()).get(thread);
      if (seen === undefined) items.set(thread, (seen = new Set<ElementNode>()));
      seen.add(item);
      item = thread;
    }
  }
  if (items === undefined) return;
  for (const replied of items.values()) if (replied.size >= REPLY_THREAD_MIN) for (const item of replied) item.unlikely = true;
}

/** `el` holds more than `n` characters other than white space (counts only that far). */
function visibleOver(el: ElementNode, n: number): boolean {
  let left = n;
  const walk = (e: ElementNode): boolean => {
    for (const c of e.children) {
      if (typeof c !== 'string') {
        if (walk(c)) return true;
        continue;
      }
      for (let i = 0; i < c.length; i++) if (c.charCodeAt(i) > 32 && c.charCodeAt(i) !== 0xa0 && --left < 0) return true;
    }
    return false;
  };
  return walk(el);
}

/** `child` is the first element of `parent`, with only white space before it. */
function opens(parent: ElementNode, child: ElementNode): boolean {
  for (const c of parent.children) {
    if (c === child) return true;
    if (typeof c !== 'string' || c.trim() !== '') return false;
  }
  return false;
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

/** Comment names in a class or id: how blogs name their comment threads, and some forums their replies. */
const COMMENT_HINT = /comment|replies|remark/i;

/**
 * On a discussion page (`page.discussion`), the blocks named as comments that hold prose in
 * paragraphs (a reply post, the thread of such replies) are replies: not unlikely, and their
 * comment names are not read as boilerplate (class-hints.ts). A forum that names its replies
 * comments (Drupal's forum, whose replies are comment entities) keeps them; remarks of a line or
 * two under a post (Stack Exchange's comment list: text in spans, no paragraphs) stay out.
 * `isProse` is measure.ts's test, passed in by core.ts; `measure` must have run.
 */
export function markReplies(el: ElementNode, isProse: (el: ElementNode) => boolean): void {
  for (const c of el.children) {
    if (typeof c === 'string' || c.textLen < 200) continue;
    const hint = (c.attrs.class ?? '') + ' ' + (c.anchorId ? '' : (c.attrs.id ?? ''));
    if (COMMENT_HINT.test(hint) && isProse(c)) {
      c.reply = true;
      c.unlikely = isUnlikely(c.tag, TAG_BITS.get(c.tag) ?? 0, { class: hint.replace(/\S*(?:comment|replies|remark)\S*/gi, ' ') });
    }
    markReplies(c, isProse);
  }
}
