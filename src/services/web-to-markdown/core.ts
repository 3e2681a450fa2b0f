/**
 * API-01 core: HTML (or plain text) in, Markdown out. Pure and synchronous: the worker pool runs
 * it (workers/web-to-markdown.ts) and tests and benchmarks call it directly.
 *
 * Strategy (Readability's retry ladder on a faster DOM): parse once; score and pick the main
 * content in the tree without class/id boilerplate, render; when that yields less than
 * MIN_ARTICLE_CHARS while the page holds more text, do the same on the tree with it; and as a
 * last resort render the whole body (and, when even that is empty, the body of a parse with its
 * header/nav/footer kept). The longest result of the attempts wins, so a page with visible text
 * never gives an empty string.
 */
import { countTokens } from '../../tokenizer/index.ts';
import { bodyOf, firstMatching, isAncestor } from './dom-queries.ts';
import { bodyParagraphs, headlineBlock } from './fallback-blocks.ts';
import { articleBodyDocument, longestArticleBody } from './json-ld.ts';
import { isProse, measure } from './measure.ts';
import { selectContent } from './score.ts';
import { parsePage, strictView, type ElementNode, type ParsedPage } from './dom.ts';
import { markReplies } from './section-marks.ts';
import { renderMarkdown } from './render.ts';
import { estimateHtmlTokens } from './token-estimate.ts';

export interface ExtractInput {
  /** The page: HTML, or plain text when `isHtml` is false. */
  readonly html: string;
  /** Page URL: resolves relative links (after `<base href>`). */
  readonly url: string;
  readonly includeLinks: boolean;
  /** Default true; false for text/plain (and other text/*) pages. */
  readonly isHtml?: boolean;
  /** Default true: an `<iframe srcdoc>` document may be read when the page shows next to nothing. */
  readonly frames?: boolean;
}

/** What the extraction itself gives: everything but the HTML side of the token numbers. */
export interface ExtractedBody {
  readonly markdown: string;
  readonly title: string | null;
  /** Characters (UTF-16 code units are not characters: this counts code points). */
  readonly markdownLength: number;
  /** o200k_base tokens of the Markdown, exact. */
  readonly markdownTokens: number;
}

export interface ExtractResult extends ExtractedBody {
  /** o200k_base tokens of the raw page: calibrated estimate (see token-estimate.ts). */
  readonly htmlTokens: number;
  readonly tokensSaved: number;
}

/** Below this many characters the strict attempt is considered a miss (Readability uses 500). */
export const MIN_ARTICLE_CHARS = 500;

/**
 * Extracts the main content of a page as Markdown.
 *
 * @example extractMarkdown({ html: '<article><h1>T</h1><p>Hello</p></article>', url: 'https://x.test/', includeLinks: true })
 */
export function extractMarkdown(input: ExtractInput): ExtractResult {
  const body = extractBody(input);
  return withHtmlTokens(body, estimateHtmlTokens(input.html));
}

/** The result with the page's (estimated) token count: `tokensSaved` never below 0. */
export function withHtmlTokens(body: ExtractedBody, htmlTokens: number): ExtractResult {
  return { ...body, htmlTokens, tokensSaved: Math.max(0, htmlTokens - body.markdownTokens) };
}

/**
 * The extraction without the HTML token estimate, which depends on the raw page only: the
 * gateway runs this on the worker while the event loop computes the estimate (split-estimate.ts).
 */
export function extractBody(input: ExtractInput): ExtractedBody {
  let markdown: string;
  let title: string | null = null;
  if (input.isHtml === false) {
    markdown = input.html.replace(/\r\n?/g, '\n').trim();
  } else {
    // One parse serves the first two attempts: the strict one reads a copy without the subtrees
    // whose class/id says boilerplate, the lenient one the tree as parsed.
    const lenient = parsePage(input.html, 'lenient');
    if (lenient.discussion) {
      measure(lenient.root);
      markReplies(lenient.root, isProse);
    }
    title = pickTitle(lenient);
    const base = resolveBase(input.url, lenient.baseHref);
    markdown = attempt(strictView(lenient), base, input.includeLinks, false);
    if (visibleLength(markdown, MIN_ARTICLE_CHARS) < MIN_ARTICLE_CHARS) markdown = fallback(input, lenient, base, markdown, title);
  }
  if (title !== null) markdown = dropRepeatedTitle(markdown, title);
  return { markdown, title, markdownLength: codePointLength(markdown), markdownTokens: countTokens(markdown, 'o200k_base') };
}

function attempt(page: ParsedPage, base: URL | null, includeLinks: boolean, relaxed: boolean): string {
  const nodes = selectContent(page.root, relaxed);
  // A question-and-answer page whose answers were chosen: the question is its text too, first.
  if (page.discussion) {
    const question = questionText(page.root);
    if (question !== null && !nodes.some((n) => within(question, n) || within(n, question))) nodes.unshift(question);
  }
  return renderMarkdown(nodes, { base, includeLinks, clean: true, relaxed });
}

/** The text of the page's schema.org Question (`itemprop="text"` in its `itemscope`), or null. */
function questionText(root: ElementNode): ElementNode | null {
  const question = firstMatching(root, (el) => el.attrs.itemtype !== undefined && QUESTION_TYPE.test(el.attrs.itemtype));
  return question === null ? null : itemText(question);
}
const QUESTION_TYPE = /schema\.org\/Question\b/;

/** The `itemprop="text"` element of an item, not of an item nested in it (an answer's). */
function itemText(item: ElementNode): ElementNode | null {
  const stack: ElementNode[] = [...item.children].filter((c): c is ElementNode => typeof c !== 'string').reverse();
  while (stack.length > 0) {
    const el = stack.pop()!;
    if (el.attrs.itemprop !== undefined && /(?:^|\s)text(?:\s|$)/.test(el.attrs.itemprop)) return el;
    if (el.attrs.itemscope !== undefined || el.attrs.itemtype !== undefined) continue;
    for (let i = el.children.length - 1; i >= 0; i--) {
      const c = el.children[i]!;
      if (typeof c !== 'string') stack.push(c);
    }
  }
  return null;
}

/** True when `el` is `ancestor` or lies inside it. */
const within = (el: ElementNode, ancestor: ElementNode): boolean => el === ancestor || isAncestor(ancestor, el);

/**
 * Below this many visible characters after the first two attempts, the choice is taken to have
 * missed the article rather than found a short one, and the relaxed steps run. At MIN_ARTICLE_CHARS
 * they replaced correct short articles (300-450 characters) by longer comment or teaser blocks.
 */
export const MIN_FOUND_CHARS = 250;

/**
 * The first choice came out short (< MIN_ARTICLE_CHARS visible characters): fall back in steps,
 * as Readability and trafilatura do, keeping the longest result. (1) Choose again on the tree
 * with the class/id boilerplate kept. If that still holds < MIN_FOUND_CHARS: (2) choose again
 * with weak negative class/id hints ignored (CMS class names such as `com-content-article` or
 * `view-mode-teaser` hold the article), then (3) the nearest block around the page's <h1> that
 * holds text beyond it (headlineBlock), or when there is none the body's paragraphs minus
 * boilerplate (bodyParagraphs). (4) When that is next to nothing, what the page hides or shows only
 * without scripts, then its `<iframe srcdoc>` documents, then the `articleBody` of its JSON-LD.
 * (5) When all is empty, the whole body, and then the body of a parse that
 * keeps header, nav and footer: a page with visible text never yields "".
 */
function fallback(input: ExtractInput, lenient: ParsedPage, base: URL | null, first: string, title: string | null): string {
  let markdown = first;
  let best = visibleLength(first);
  const keep = (candidate: string): void => {
    const n = visibleLength(candidate);
    if (n > best) {
      markdown = candidate;
      best = n;
    }
  };
  keep(attempt(lenient, base, input.includeLinks, false));
  if (best >= MIN_FOUND_CHARS) return markdown;
  // The same tree again: selectContent scores from scratch (initCandidate resets what it reads).
  resetScores(lenient.root);
  keep(attempt(lenient, base, input.includeLinks, true));
  if (best >= MIN_ARTICLE_CHARS) return markdown;
  const body = bodyOf(lenient.root);
  measure(body);
  // A short article under its headline (a brief, a product with a short description): the block
  // that holds the <h1> of the page's title and text beyond it, cleaned as the first choice is.
  // When it gives the most text, the article is in one place: the body's loose paragraphs would
  // only add what lies around it.
  const headline = title === null ? null : headlineBlock(body, title);
  let underHeadline = false;
  if (headline !== null) {
    const before = best;
    keep(renderMarkdown([headline], { base, includeLinks: input.includeLinks, clean: true }));
    underHeadline = best > before;
  }
  // Without the conditional cleaner (the paragraphs are already chosen), but without furniture
  // lines: the longest result wins, and a paywall prompt or share label must not make it longer.
  if (!underHeadline) keep(renderMarkdown(bodyParagraphs(body), { base, includeLinks: input.includeLinks, clean: false, furniture: true }));
  // Next to nothing visible: the article may be hidden until a script reveals it (`display: none`,
  // `aria-hidden`, `hidden`) or shown only without scripts (<noscript>). Taken when it holds an
  // article's length and twice what shows (a short visible article stays without the hidden bits
  // around it); the strict view first, so hidden pop-ups (modal, newsletter, consent: boilerplate by
  // class) are not the article.
  if (best < MIN_FOUND_CHARS) {
    const hidden = parsePage(input.html, 'hidden');
    for (const view of [strictView(hidden), hidden]) {
      const candidate = attempt(view, base, input.includeLinks, false);
      // Han characters weigh as words here: a hidden article of 450 of them is a long one.
      const n = visibleLength(candidate, Infinity, true);
      if (n >= MIN_ARTICLE_CHARS && n >= 2 * visibleLength(markdown, Infinity, true)) {
        keep(candidate);
        break;
      }
    }
  }
  // Still next to nothing: a page that shows its article in an <iframe srcdoc> (a preview, an
  // e-mail's HTML) has it there; the frame's document is read as a page of its own (its own
  // frames are not).
  if (best < MIN_FOUND_CHARS && lenient.frames.length > 0 && input.frames !== false) {
    for (const html of lenient.frames) keep(extractBody({ ...input, html, frames: false }).markdown);
  }
  // Still next to nothing: a page a script renders (an empty app shell, a loading skeleton) often
  // states its article for search engines in schema.org JSON-LD (`articleBody`). Taken as the
  // hidden text is: when it holds more than a short note and twice what shows.
  if (best < MIN_FOUND_CHARS) {
    const stated = longestArticleBody(input.html);
    if (stated !== null) {
      const candidate = extractBody({ ...input, html: articleBodyDocument(stated), frames: false }).markdown;
      const n = visibleLength(candidate, Infinity, true);
      if (n >= MIN_FOUND_CHARS && n >= 2 * visibleLength(markdown, Infinity, true)) keep(candidate);
    }
  }
  if (markdown.trim() !== '') return markdown;
  markdown = renderMarkdown([body], { base, includeLinks: input.includeLinks, clean: false });
  if (markdown.trim() !== '') return markdown;
  // Only chrome holds text (a header, nav or footer): that is still the page's text.
  const all = parsePage(input.html, 'all');
  const allBody = bodyOf(all.root);
  measure(allBody);
  return renderMarkdown([allBody], { base, includeLinks: input.includeLinks, clean: false });
}

function resetScores(el: ElementNode): void {
  el.scored = false;
  el.score = 0;
  el.held = false;
  for (const c of el.children) if (typeof c !== 'string') resetScores(c);
}

function resolveBase(pageUrl: string, baseHref: string | null): URL | null {
  let page: URL | null = null;
  try {
    page = new URL(pageUrl);
  } catch {
    return null;
  }
  if (baseHref === null) return page;
  try {
    const b = new URL(baseHref, page);
    return b.protocol === 'http:' || b.protocol === 'https:' ? b : page;
  } catch {
    return page;
  }
}

/** og:title / twitter:title, else <title>, each without a trailing " | Site name" part. */
function pickTitle(page: ParsedPage): string | null {
  const raw = page.ogTitle ?? page.title;
  if (raw === null) return null;
  const m = /^(.*\S)\s+[|\-–—»:]\s+[^|\-–—»:]{1,40}$/.exec(raw);
  if (m && m[1]!.split(/\s+/).length >= 3) return m[1]!;
  return raw;
}

/**
 * The article's own headline is returned as `title`; when the Markdown opens with the same text
 * as a level-1/2 heading, that heading is not repeated (as in the benchmark's article bodies).
 */
function dropRepeatedTitle(markdown: string, title: string): string {
  const m = /^#{1,2} ([^\n]+)(?:\n+|$)/.exec(markdown);
  if (!m) return markdown;
  const norm = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  const heading = norm(m[1]!);
  const t = norm(title);
  if (heading === '' || (heading !== t && !t.startsWith(heading + ' ') && !heading.startsWith(t + ' '))) return markdown;
  return markdown.slice(m[0].length);
}

/**
 * Visible characters of `md` (no whitespace or Markdown markers); stops counting at `cap` (most
 * pages pass MIN_ARTICLE_CHARS in the first few KB). A Hangul syllable counts as two: Korean is
 * written in letters, two to four to a syllable block, and the thresholds are set for text written
 * a letter at a time. `han`: a Han character counts as three (about what a word says), where a
 * length decides between a visible and a hidden article.
 */
function visibleLength(md: string, cap = Infinity, han = false): number {
  let n = 0;
  for (let i = 0; i < md.length; i++) {
    const c = md.charCodeAt(i);
    if (c > 32 && c !== 35 && c !== 42 && c !== 62 && c !== 124 && c !== 45) {
      n += c >= 0xac00 && c <= 0xd7a3 ? 2 : han && c >= 0x3400 && c <= 0x9fff ? 3 : 1;
      if (n >= cap) return n;
    }
  }
  return n;
}

const HIGH_SURROGATE = /[\ud800-\udbff]/;

function codePointLength(s: string): number {
  // Most pages are all in the Basic Multilingual Plane: one native search instead of a loop.
  if (!HIGH_SURROGATE.test(s)) return s.length;
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff) n++;
  }
  return n;
}
