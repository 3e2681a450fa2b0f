/**
 * What an element's class and id say before its text is read (Readability's class weight, the
 * strong boilerplate names, an embedded social post), and the score a candidate starts from: its
 * tag and those hints (score.ts).
 */
import type { ElementNode } from './dom.ts';
import { soleChild } from './dom-queries.ts';
import { HEADING_TAGS } from './measure.ts';

const POSITIVE = /article|body|content|entry|hentry|h-entry|main|page|post|text|blog|story|prose|rich-?text/i;
/**
 * Readability's negative hints, not inside a longer word that names content (`shareholder`,
 * `subscriber-only`, `commentary`, `metal`, `authority`). `hidden` counts as a class of its own (`hidden`, `is-hidden`), the
 * CSS-hidden block Readability means; in a compound it names where a visible block hides
 * (Shopify's `quick-add-hidden` on the product description, `no-js-hidden`, `mobile-hidden`).
 */
const NEGATIVE = /-ad-|(?:^|\s)(?:is-)?hidden(?:\s|$)|^hid$| hid$| hid |^hid |banner|combx|comment(?!ar)|com-|contact|footer|gdpr|masthead|media|meta(?!l)|outbrain|promo|related|scroll|share(?!hold)|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|widget|header|nav|newsletter|subscribe(?!r)|cookie|byline|author(?!it|i[sz])|caption|credit/i;

/**
 * The negative hints read on a heading (and on a block that is only a heading): without `header`,
 * which names what a heading is (`element-header`, `entry-header`), and `nav`, which on a heading
 * is the offset below a sticky navbar (`anchorWithStickyNavbar`), not a menu (menus are <nav>).
 */
const NEGATIVE_HEADING = /-ad-|(?:^|\s)(?:is-)?hidden(?:\s|$)|^hid$| hid$| hid |^hid |banner|combx|comment(?!ar)|com-|contact|footer|gdpr|masthead|media|meta(?!l)|outbrain|promo|related|scroll|share(?!hold)|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|widget|newsletter|subscribe(?!r)|cookie|byline|author(?!it|i[sz])|caption|credit/i;
/**
 * The negative hints the relaxed fallback still reads: names of a block that is never the article
 * (a comment, a sidebar, a byline or author box, related or sponsored links, a consent or
 * newsletter box). The others (`widget`, `media`, `meta`, `hidden`, `header`, `com-`, ...) also
 * name CMS containers that hold the article (Joomla's `com-content-article`), which is why the
 * relaxed attempt runs.
 */
const NEGATIVE_STRONG = /comment|sidebar|shoutbox|outbrain|sponsor|skyscraper|related|cookie|gdpr|newsletter|subscribe(?!r)|byline|author/i;

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
 * writer (`creator-profile`, `writer-info`). A shop's reviews are its customers' comments
 * (`customer-reviews`, `review-list`, Bitrix's `reviews-block-container`); a review site's own article (`review`,
 * `review-body`) is no list. A Tumblr post's notes (`notes-container`, `post-notes`) are its
 * reblogs and replies.
 */
const STRONG_BOILERPLATE = /(?:^|\s)(?:[a-z]-)?(?:comments?|comment-?list|comments-(?:list|area|section|wrapper|container|block)|comment-(?:area|section|thread|respond|form)|respond|disqus_thread|related|(?:jp-)?related-?(?:posts?|articles?|stories|content|products)|cookie-?(?:banner|notice|bar|consent|law-info-bar|popup|notification|message)|(?:cookie-?)?consent-?(?:banner|bar|notice|popup|modal|dialog)?|gdpr-?(?:banner|notice|consent|popup)?|(?:author|creator|writer)-?(?:bio|box|info|card|profile)|about-?the-?author|(?:user|poster)-?(?:info|card|details|profile)|post-?(?:profile|signature)|(?:message-|user-)?signature|online-?list|(?:whos|users|members)-?online|(?:customer|product|user)-?reviews?|reviews?-?(?:block-?)?(?:list|items|section|container|widget)|notes-container|post-notes)(?:\s|$)/i;

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

/**
 * SiteOrigin Page Builder names every block of a page `so-panel widget widget_sow-<type>`, its
 * parts `so-widget-sow-<type>` and `siteorigin-widget-tinymce textwidget`; HubSpot's drag-and-drop
 * layout `span12 widget-span widget-type-cell` and `hs_cos_wrapper hs_cos_wrapper_widget` (ids
 * `hs_cos_wrapper_widget_<n>`): there too `widget` names no sidebar widget, and the names without
 * it are read.
 */
const SITEORIGIN = /(?:^|\s)(?:so-panel|so-widget-|siteorigin-widget|hs_cos_wrapper|widget-span)/;
const WIDGET_NAME = /\S*widget\S*/g;

/** The class attribute as its hints are read: without BEM modifiers (withoutModifiers) and page-builder widget wrappers (BUILDER_WIDGET, SITEORIGIN). */
export function hintClass(cls: string): string {
  const c = withoutModifiers(cls);
  if (c.includes('elementor-widget')) return c.replace(BUILDER_WIDGET, '$1');
  return c.includes('widget') && SITEORIGIN.test(c) ? c.replace(WIDGET_NAME, '') : c;
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
  // A discussion's reply (section-marks.ts markReplies): its comment names say what it is, not boilerplate.
  if (el.reply) return 0;
  const cls = el.attrs.class;
  const negative = relaxed ? NEGATIVE_STRONG : heading ? NEGATIVE_HEADING : NEGATIVE;
  if (cls) {
    const c = hintClass(cls);
    if (negative.test(c)) w -= 25;
    if (POSITIVE.test(c)) w += 25;
  }
  const id = el.anchorId || el.attrs.id?.startsWith('hs_cos_wrapper') ? undefined : el.attrs.id;
  if (id) {
    if (negative.test(id)) w -= 25;
    if (POSITIVE.test(id)) w += 25;
  }
  return w;
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

/** What <article>, <main> and `itemprop="articleBody"` add to a candidate's start. */
export const ARTICLE_TAG_BONUS = 10;

/** What a candidate starts from: its tag, and its class/id hints. */
export function initialScore(el: ElementNode, relaxed: boolean): number {
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
