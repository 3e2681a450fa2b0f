/**
 * What the extraction DOM's parser (dom.ts) drops or marks by an element's own tag, role,
 * hidden-ness and class/id: skipped subtrees, page chrome, fact boxes, Readability's "unlikely
 * candidates", and ids that are a heading's anchor rather than a hint.
 */
import { hintClass } from './class-hints.ts';
import type { ElementNode, ParseMode } from './dom.ts';

/** Subtrees never rendered: code, styling, media players, form controls, document metadata. */
const SKIP_TAGS = new Set([
  'script', 'style', 'noscript', 'template', 'svg', 'math', 'iframe', 'object', 'embed', 'canvas', 'video', 'audio',
  'select', 'option', 'button', 'input', 'textarea', 'label', 'dialog', 'map', 'link', 'meta', 'frameset',
]);
/** Page chrome: always dropped. */
const CHROME_TAGS = new Set(['nav', 'aside', 'footer', 'menu']);
const CHROME_ROLES = new Set(['navigation', 'complementary', 'banner', 'contentinfo', 'menu', 'menubar', 'dialog', 'alertdialog', 'search', 'toolbar']);
const VOID_TAGS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr', 'param', 'keygen']);

/**
 * Readability's "unlikely candidate" hints, extended with cookie/consent/newsletter/share widgets.
 * A hint inside a longer word is not that hint: `shareholder-letter`, `book-extract`,
 * `subscriber-only` (a paywalled body), `commentary`, `remarkable`.
 */
const UNLIKELY = /-ad-|\bads?\b|ai2html|banner|(?:^|[\s_-])top-?bar|breadcrumb|combx|comment(?!ar)|community|cover-wrap|disqus|(?<!n)extra(?!ct|ordinar)|gdpr|consent|cookie|legends|menu|related|remark(?!ab)|replies|rss|shoutbox|sidebar|skyscraper|social|sponsor|supplemental|ad-break|agegate|pagination|pager|popup|newsletter|subscribe(?!r)|signup|share(?!hold)|sharing|promo|outbrain|taboola|byline|masthead|toolbar|tags?-list|jump-?link|skip-?link|modal|overlay|print-only|screen-reader|sr-only|visually-?hidden/i;
/**
 * A call-to-action band or box (`cta`, `cta-band`, `section--cta`, `newsletter-cta`,
 * `wprm-call-to-action`): a prompt to sign up, book or buy. Read on the class with its BEM modifiers, where a landing page's
 * section names its kind (`section section--cta`). Not saved by MAYBE: `cta-band`,
 * `cta-content` are still the box. Only on a div or section: a link so named inside a sentence
 * (`a.cta-link`) is the sentence's words (render.ts reads button links).
 */
const CALL_TO_ACTION = /(?:^|[\s_-])(?:cta|call-to-action)(?:$|[\s_-])/i;
const MAYBE = /and|article|body|column|content|main|shadow|post|entry|story|text/i;
const PROTECTED_TAGS = new Set(['html', 'body', 'article', 'main', 'table', 'tbody', 'tr', 'td', 'th', 'pre', 'code', 'p', 'li']);
/**
 * The four sets above as bits of one map: an open or close tag looks its name up once instead of
 * up to six times (Set lookups were ~3% of the extraction's instructions).
 */
export const VOID = 1;
const SKIP = 2;
const CHROME = 4;
export const PROTECTED = 8;
export const TAG_BITS = new Map<string, number>();
for (const [set, bit] of [[VOID_TAGS, VOID], [SKIP_TAGS, SKIP], [CHROME_TAGS, CHROME], [PROTECTED_TAGS, PROTECTED]] as const) {
  for (const tag of set) TAG_BITS.set(tag, (TAG_BITS.get(tag) ?? 0) | bit);
}

const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i;

export const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

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
 * is a heading) in two words or more; in one on the heading itself or where the heading links to
 * it (a permalink); Confluence's `<page>-<heading without spaces>` on the heading itself.
 * `<h3 id="comments">3 Responses</h3>` and `<div id="comments"><h3>Comments</h3>` stay hints.
 */
export function isAnchorId(el: ElementNode): boolean {
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
  const spelled = slugWords(textOfShallow(heading));
  // Confluence prefixes the page's name and writes the heading without spaces
  // (`<h2 id="Oncallchecklist-Escalationcontacts">Escalation contacts`): on the heading itself.
  if (heading === el && words !== spelled) return prefixedSlug(id, spelled);
  if (words !== spelled) return false;
  // One word is an anchor on the heading itself (`<h2 id="comments">Comments</h2>`, a generator's
  // slug), or where the heading links to it (a docs permalink, `<h2>Comments<a class="headerlink"
  // href="#comments">¶</a>`); a blog's thread is a wrapper `<div id="comments">` without one.
  return words.includes(' ') || heading === el || linksTo(heading, '#' + id);
}

/** `id` is "<prefix>-<the heading's words without spaces>" (6+ letters), as Confluence writes a heading's id. */
function prefixedSlug(id: string, spelled: string): boolean {
  const joined = spelled.replace(/ /g, '');
  if (joined.length < 6) return false;
  const cut = Math.max(id.lastIndexOf('-'), id.lastIndexOf('_'));
  return cut > 0 && id.slice(cut + 1).toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '') === joined;
}

function linksTo(el: ElementNode, href: string): boolean {
  for (const c of el.children) if (typeof c !== 'string' && ((c.tag === 'a' && c.attrs.href === href) || linksTo(c, href))) return true;
  return false;
}

/** Text of an element (a heading: small), children included. */
export function textOfShallow(el: ElementNode): string {
  let s = '';
  for (const c of el.children) s += typeof c === 'string' ? c : textOfShallow(c);
  return s;
}

export function dropped(name: string, bits: number, attrs: Record<string, string>, mode: ParseMode, parent: string, inArticle: boolean, panel = false): boolean {
  // The toggle of an accordion is the heading's text (Bootstrap's `h2.accordion-header > button`: the question of a FAQ).
  // A declarative shadow root (`<template shadowrootmode="open">`, Lit and Stencil server output)
  // and a component's slot content (Vue's `<template slot="contents">`: Wiki.js renders its pages
  // so) are rendered where they stand; in the hidden view (a page that shows next to
  // nothing) every <template> and <noscript> is read.
  if ((bits & SKIP) !== 0 && !(name === 'button' && HEADINGS.has(parent)) && !(name === 'template' && (isShadowRoot(attrs) || isSlotContent(attrs) || mode === 'hidden')) && !(name === 'noscript' && mode === 'hidden')) return true;
  // A <nav> that is a disclosure's panel (a toggle names it, or Webflow's dropdown list, which a
  // FAQ's answer sits in) is the panel's text; a site's menu sits in a <nav> of its own, dropped
  // whole before its dropdowns are reached.
  if (mode !== 'all' && (bits & CHROME) !== 0 && !(name === 'aside' && (isFactBox(attrs) || inArticle)) && !(name === 'nav' && (panel || isDropdownList(attrs)))) return true;
  // A disclosure's panel (`panel`: a toggle's aria-controls names it) is hidden until opened.
  if (mode !== 'hidden' && !panel) {
    if (attrs.hidden !== undefined || attrs['aria-hidden'] === 'true') return true;
    if (attrs.style !== undefined && HIDDEN_STYLE.test(attrs.style)) return true;
  }
  const role = attrs.role;
  if (mode !== 'all' && role !== undefined && CHROME_ROLES.has(role.toLowerCase())) return !isAccordion(role, attrs);
  return false;
}

/**
 * A tablist that is an accordion (ARIA 1.0's pattern, Bootstrap 3's `panel-group`): its panels,
 * a FAQ's answers, are the page's text, not a bar of tabs.
 */
function isAccordion(role: string, attrs: Record<string, string>): boolean {
  if (role.toLowerCase() !== 'tablist') return false;
  return attrs['aria-multiselectable'] !== undefined || (attrs.class !== undefined && /(?:^|\s)(?:panel-group|accordion)(?:\s|$)/.test(attrs.class));
}

/** `shadowrootmode` (HTML standard) or `shadowroot` (Chrome's first form), open or closed. */
function isShadowRoot(attrs: Record<string, string>): boolean {
  return attrs.shadowrootmode !== undefined || attrs.shadowroot !== undefined;
}

/** Webflow's dropdown panel (`<nav class="w-dropdown-list">`). */
function isDropdownList(attrs: Record<string, string>): boolean {
  return attrs.class !== undefined && /(?:^|\s)w-dropdown-list(?:\s|$)/.test(attrs.class);
}

/** A component's slot content, as a server renders it for Vue 2 to hydrate: `<template slot="name">`. */
function isSlotContent(attrs: Record<string, string>): boolean {
  return attrs.slot !== undefined;
}

/**
 * A box of facts set beside the text (`<aside class="factbox">`, `info-box`, `key-facts`, "at a
 * glance", "tl;dr") or a docs page's note (`starlight-aside`, `admonition`, `callout`): an <aside>
 * by its tag, yet part of the article, as an infobox is. Read on
 * whole class/id words; a role (complementary) still drops it. Any <aside> inside an <article>
 * is kept too (a fact box, a side note, Starlight's notes): the strict view drops those whose
 * class says boilerplate, and the cleaner (render.ts) link lists among them.
 */
const FACT_BOX = /(?:^|[\s_-])(?:fact-?box(?:es)?|facts|fact-?file|fact-?sheet|info-?box|key-?facts|key-?points|at-?a-?glance|tl-?dr|takeaways|starlight-aside|admonition|callout)(?:$|[\s_-])/i;

function isFactBox(attrs: Record<string, string>): boolean {
  return (attrs.class !== undefined && (FACT_BOX.test(attrs.class) || CONTENT_ASIDE.test(attrs.class))) || (attrs.id !== undefined && (FACT_BOX.test(attrs.id) || CONTENT_ASIDE.test(attrs.id)));
}

/**
 * An <aside> that a theme named as the page's content (`<aside class="content">` beside the real
 * `<aside class="sidebar">`): a whole class or id word that says content, never a part of a longer
 * name (`sidebar-content`, `related-content` stay sidebars).
 */
const CONTENT_ASIDE = /(?:^|\s)(?:(?:main|page|post|entry|article|story)[-_])?(?:content|body|article)(?:$|\s)/i;

/** `el` or an ancestor is an <article> (read for an <aside> only: asides are few). */
export function withinArticle(el: ElementNode): boolean {
  for (let e: ElementNode | null = el; e !== null; e = e.parent) if (e.tag === 'article') return true;
  return false;
}

/** Readability's "unlikely candidate" test on class and id (never for structural tags; `anchorId`: the id is not read). */
export function isUnlikely(tag: string, bits: number, attrs: Record<string, string>, anchorId = false): boolean {
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
