/**
 * Extraction DOM -> GitHub-flavoured Markdown. Keeps the structure an LLM can use: headings,
 * paragraphs, nested lists, GFM tables, fenced code (language from `language-x`/`lang-x`
 * classes), block quotes, emphasis, hard line breaks, images and links with absolute URLs.
 * Inside the chosen content, blocks that read like boilerplate (link lists, image galleries
 * without text, widgets with negative class hints) are dropped, as Readability's
 * "clean conditionally" does, and so are short standalone datelines, newsletter prompts and
 * follow-us lines (boilerplate-lines.ts).
 * This file holds the Renderer; its stateless parts are inline-text.ts, markdown-blocks.ts,
 * quote-lines.ts, clean-rules.ts (the cleaner's element tests) and drop-furniture.ts (the last pass).
 */
import type { ElementNode, Node } from './dom.ts';
import { classWeight, isStrongBoilerplate, wrapsEmbeddedPost } from './class-hints.ts';
import { announced, besideMoreText, cardGridInBody, countLinks, ENDS_SENTENCE_RE, isDataTable, isNavigationCell, isStandalone, isTeaserCardList, mostlyProse, soleHeading } from './clean-rules.ts';
import { dropFurniture } from './drop-furniture.ts';
import { escapeLineStart, escapeText, finishInline, HARD_BREAK, hasContent, textContent, wrap, WS } from './inline-text.ts';
import { codeBlock, collectRows, hasDescendant, indentItem, span } from './markdown-blocks.ts';
import { isBlock, isToggle, linkDensity } from './measure.ts';
import { NESTED_QUOTE, quoteLines, type QuoteFrame } from './quote-lines.ts';

export interface RenderOptions {
  /** Base for relative URLs (`<base href>` resolved against the page URL); null = leave as is. */
  readonly base: URL | null;
  readonly includeLinks: boolean;
  /** Apply the conditional cleaner (off for the last-resort whole-body rendering). */
  readonly clean: boolean;
  /** Negative class/id hints count for nothing (the relaxed fallback, see core.ts). */
  readonly relaxed?: boolean;
  /**
   * Leave out furniture lines, consent notices and related-links labels (dropFurniture); default:
   * as `clean`. The body-paragraph fallback sets it without the conditional cleaner.
   */
  readonly furniture?: boolean;
}

const HEADING_LEVEL: Readonly<Record<string, number>> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };
const CLEANABLE = new Set(['div', 'section', 'ul', 'ol', 'table', 'form', 'fieldset', 'header', 'figure', 'center', 'details', 'aside']);
/** Link targets worth keeping; javascript:, data: and typos such as `ttps:` become plain text. */
const LINK_SCHEMES = /^(?:https?|mailto|tel|ftp):/i;
/** Text of a link that only marks an anchor. */
const PERMALINK_SIGN = /^[\s\u200b\ufeff¶§#🔗]*$/u;
/** Longest block (characters of text) tested as a heading block (soleHeading). */
const HEADING_BLOCK_CHARS = 300;
/**
 * A link styled as a button (`btn btn-primary`, `button`, `wp-block-button__link`, `hero__cta`):
 * a control ("Book a demo", "Get started", "Apply now"), not text. A class word that is, begins
 * or ends with btn/button/cta. Only where it stands alone (isStandalone: a button row, a
 * paragraph holding the button): a link so styled inside a sentence keeps its words.
 */
const BUTTON_CLASS = /(?:^|[\s_-])(?:btn|button|cta)(?:$|[\s_-])/i;
/** Most characters of text in a form, or a block around one, that the cleaner drops as a form box. */
const FORM_BOX_CHARS = 250;

/** Renders the selected content elements to Markdown (trimmed, blocks separated by a blank line). */
export function renderMarkdown(nodes: readonly ElementNode[], options: RenderOptions): string {
  const r = new Renderer(options);
  const blocks: string[] = [];
  r.top = blocks;
  for (const n of nodes) r.blocksOf([n], blocks);
  return ((options.furniture ?? options.clean) ? dropFurniture(blocks, r.labels) : blocks).join('\n\n').replace(/\n{3,}/g, '\n\n').trim();
}

class Renderer {
  readonly #o: RenderOptions;
  /** The top-level block list, and the indexes in it of headings kept as their block's label (see `block`). */
  top: string[] | null = null;
  readonly labels = new Set<number>();
  /**
   * Where each element stands among its parent's children, filled for all of a parent's element
   * children the first time one of them is asked for: a search of the children per element
   * (`indexOf`) is quadratic in a parent of many lists (35 s at 5 MiB of sibling link lists).
   */
  readonly #childIndex = new Map<ElementNode, number>();
  /** The innermost blockquote being rendered (see QuoteFrame). */
  #quote: QuoteFrame | null = null;
  constructor(o: RenderOptions) {
    this.#o = o;
  }

  /** The index of `el` in its parent's children (-1 without a parent). */
  #indexInParent(el: ElementNode): number {
    if (el.parent === null) return -1;
    let at = this.#childIndex.get(el);
    if (at === undefined) {
      const kids = el.parent.children;
      for (let i = 0; i < kids.length; i++) {
        const k = kids[i]!;
        if (typeof k !== 'string') this.#childIndex.set(k, i);
      }
      at = this.#childIndex.get(el)!;
    }
    return at;
  }

  /** Appends the blocks of a run of nodes; consecutive inline content becomes one paragraph. */
  blocksOf(nodes: readonly Node[], out: string[]): void {
    let inline = '';
    const flush = () => {
      // Nothing since the last block (blocks in a row): no paragraph, and no pass over ''.
      if (inline === '') return;
      const text = finishInline(inline);
      if (hasContent(text)) out.push(escapeLineStart(text));
      inline = '';
    };
    for (const n of nodes) {
      if (typeof n === 'string') {
        inline += escapeText(n.replace(WS, ' '));
        continue;
      }
      if (!isBlock(n.tag) && !(n.hasBlock && n.tag !== 'a' && n.tag !== 'p')) {
        inline += this.inline(n);
        continue;
      }
      flush();
      this.block(n, out);
    }
    flush();
  }

  block(el: ElementNode, out: string[]): void {
    // A comment thread, related posts or a consent notice stays out whatever it scored.
    if (this.#o.clean && isStrongBoilerplate(el)) return;
    // A block that is one heading (TYPO3's `frame-header`) is weighed as a heading: `header` in
    // its class names what it is. With an [edit] or permalink beside the heading (MediaWiki's
    // `mw-heading`), it renders as the heading unless its class says boilerplate.
    if ((el.tag === 'div' || el.tag === 'header' || el.tag === 'section') && el.textLen <= HEADING_BLOCK_CHARS) {
      const heading = soleHeading(el);
      if (heading !== null) {
        if (this.#o.clean && classWeight(el, this.#o.relaxed, el.linkLen === 0) < 0) return;
        const n = out.length;
        this.block(heading, out);
        // Kept for its `header`: a label whose section came out empty goes (dropFurniture).
        if (this.#o.clean && out === this.top && out.length > n && classWeight(el, this.#o.relaxed) < 0) this.labels.add(n);
        return;
      }
    }
    if (this.#o.clean && (CLEANABLE.has(el.tag) ? this.#isJunk(el) : (el.tag === 'td' || el.tag === 'th') && isNavigationCell(el))) return;
    const level = HEADING_LEVEL[el.tag];
    if (level !== undefined) {
      if (this.#o.clean && classWeight(el, this.#o.relaxed) < 0) return;
      let text = this.inlineChildren(el).replace(/[\s\uE000]+/g, ' ').trim();
      // A heading is already strong: `## **Title**` reads as `## Title`.
      const bold = /^\*\*([^*]+)\*\*$/.exec(text);
      if (bold) text = bold[1]!;
      if (hasContent(text)) out.push('#'.repeat(level) + ' ' + text);
      return;
    }
    switch (el.tag) {
      case 'p': {
        // A short paragraph that is mostly a link is a teaser ("Related: ...", "READ MORE"),
        // unless it reads as a sentence of its own: 20+ characters outside the links and a full stop.
        // So is a longer one of 3+ links over 60% of its text, unless 60+ characters outside them
        // end in a full stop: a "Don't miss" list written with <br>s, not a sentence full of links.
        if (this.#o.clean && linkDensity(el) > 0.6 && !(el.textLen - el.linkLen >= (el.textLen < 120 ? 20 : 60) && ENDS_SENTENCE_RE.test(textContent(el))) && (el.textLen < 120 || countLinks(el, 3) >= 3)) return;
        const text = finishInline(this.inlineChildren(el));
        if (hasContent(text)) out.push(escapeLineStart(text));
        return;
      }
      case 'pre':
        out.push(codeBlock(el));
        return;
      case 'blockquote': {
        const outer = this.#quote;
        const frame: QuoteFrame = { blocks: [], nested: new Map() };
        this.#quote = frame;
        this.blocksOf(el.children, frame.blocks);
        this.#quote = outer;
        // Empty when its blocks join to nothing (none, or one empty block).
        if (frame.blocks.length === 0 || (frame.blocks.length === 1 && frame.blocks[0] === '')) return;
        if (outer !== null && out === outer.blocks) {
          // A block of the enclosing quote itself: that quote prefixes it with its own lines.
          outer.nested.set(out.length, frame);
          out.push(NESTED_QUOTE);
        } else {
          const lines: string[] = [];
          quoteLines(frame, 1, lines);
          out.push(lines.join('\n'));
        }
        return;
      }
      case 'ul':
      case 'ol':
        this.#list(el, out);
        return;
      case 'table':
        this.#table(el, out);
        return;
      case 'hr':
        out.push('---');
        return;
      case 'dt': {
        const text = this.inlineChildren(el).replace(/[\s\uE000]+/g, ' ').trim();
        if (text !== '') out.push(`**${text}**`);
        return;
      }
      default:
        this.blocksOf(el.children, out);
    }
  }

  #list(el: ElementNode, out: string[]): void {
    const ordered = el.tag === 'ol';
    let n = ordered ? Number.parseInt(el.attrs.start ?? '1', 10) || 1 : 1;
    const items: string[] = [];
    for (const child of el.children) {
      if (typeof child === 'string') continue;
      if (child.tag !== 'li') {
        // Stray element directly in a list (invalid HTML, common): render its blocks as an item.
        const inner: string[] = [];
        this.blocksOf([child], inner);
        if (inner.length > 0) items.push(indentItem(ordered ? `${n++}. ` : '- ', inner.join('\n')));
        continue;
      }
      const inner: string[] = [];
      this.blocksOf(child.children, inner);
      const body = inner.join('\n');
      if (body.trim() === '') continue;
      items.push(indentItem(ordered ? `${n++}. ` : '- ', body));
    }
    if (items.length > 0) out.push(items.join('\n'));
  }

  #table(el: ElementNode, out: string[]): void {
    const rows: ElementNode[][] = [];
    collectRows(el, rows);
    const layout = rows.length < 2 || rows.every((r) => r.length < 2) || rows.some((r) => r.some((c) => hasDescendant(c, 'table') || c.pCount > 1 || hasDescendant(c, 'ul')));
    if (layout) {
      for (const row of rows) for (const cell of row) if (!(this.#o.clean && isNavigationCell(cell))) this.blocksOf(cell.children, out);
      return;
    }
    // A loop, not Math.max(...): spreading ~120,000 rows overflows the call stack.
    let width = 0;
    for (const r of rows) width = Math.max(width, r.reduce((s, c) => s + span(c), 0));
    const lines: string[] = [];
    rows.forEach((row, i) => {
      const cells: string[] = [];
      for (const c of row) {
        cells.push(this.inlineChildren(c).replace(/[\s\uE000]+/g, ' ').trim().replace(/\|/g, '\\|'));
        for (let k = 1; k < span(c); k++) cells.push('');
      }
      while (cells.length < width) cells.push('');
      lines.push('| ' + cells.join(' | ') + ' |');
      if (i === 0) lines.push('|' + ' --- |'.repeat(width));
    });
    const caption = el.children.find((c): c is ElementNode => typeof c !== 'string' && c.tag === 'caption');
    if (caption) {
      const text = this.inlineChildren(caption).replace(/[\s\uE000]+/g, ' ').trim();
      if (text) out.push(text);
    }
    out.push(lines.join('\n'));
  }

  inlineChildren(el: ElementNode): string {
    let s = '';
    for (const c of el.children) s += typeof c === 'string' ? escapeText(c.replace(WS, ' ')) : this.inline(c);
    return s;
  }

  inline(el: ElementNode): string {
    const counted = el.tag === 'span' || el.tag === 'div' ? counterValue(el) : null;
    if (counted !== null) return counted;
    switch (el.tag) {
      case 'br':
        return HARD_BREAK;
      case 'img':
        return this.#image(el);
      case 'a': {
        if (this.#o.clean && el.attrs.class !== undefined && BUTTON_CLASS.test(el.attrs.class) && isStandalone(el)) return '';
        const text = this.inlineChildren(el).replace(/[\s\uE000]+/g, ' ').trim();
        // A heading's permalink (Sphinx and MkDocs `¶`, Docusaurus' zero-width space, `#`, `§`).
        if (el.attrs.href?.charCodeAt(0) === 0x23 && PERMALINK_SIGN.test(text)) return '';
        if (!this.#o.includeLinks || isToggle(el)) return text;
        const href = this.#url(el.attrs.href);
        if (text === '') return '';
        if (href === null || !LINK_SCHEMES.test(href)) return text;
        return `[${text}](${href.replace(/[()]/g, (c) => (c === '(' ? '%28' : '%29'))})`;
      }
      case 'code':
      case 'kbd':
      case 'samp':
      case 'tt': {
        const raw = textContent(el).replace(WS, ' ');
        if (raw.trim() === '') return raw;
        const fence = raw.includes('`') ? '``' : '`';
        return `${fence}${raw}${fence}`;
      }
      case 'em':
      case 'i':
      case 'cite':
      case 'dfn':
        return wrap(this.inlineChildren(el), '*');
      case 'strong':
      case 'b':
        return wrap(this.inlineChildren(el), '**');
      case 'del':
      case 's':
      case 'strike':
        return wrap(this.inlineChildren(el), '~~');
      case 'sup':
      case 'sub':
        return this.inlineChildren(el);
      default: {
        // A block inside inline content (a card's heading and description inside its link) keeps
        // its words apart from its neighbours': "Install" and "Install the agent" do not run on.
        const text = this.inlineChildren(el);
        return isBlock(el.tag) && text !== '' ? ` ${text} ` : text;
      }
    }
  }

  #image(el: ElementNode): string {
    if (!this.#o.includeLinks) return '';
    const a = el.attrs;
    if (a.width === '1' || a.height === '1') return '';
    let src = a.src;
    if (!src || src.startsWith('data:')) src = a['data-src'] ?? a['data-lazy-src'] ?? a['data-original'] ?? firstSrcset(a.srcset ?? a['data-srcset']);
    if (!src || src.startsWith('data:')) return '';
    const url = this.#url(src);
    if (url === null || !/^https?:/.test(url)) return '';
    const alt = (a.alt ?? '').replace(/\s+/g, ' ').trim().replace(/[[\]]/g, '\\$&');
    return ` ![${alt}](${url.replace(/[()]/g, (c) => (c === '(' ? '%28' : '%29'))}) `;
  }

  #url(href: string | undefined): string | null {
    if (href === undefined) return null;
    const h = href.trim();
    if (h === '') return null;
    try {
      return this.#o.base ? new URL(h, this.#o.base).href : new URL(h).href;
    } catch {
      return this.#o.base ? null : h;
    }
  }

  /** Readability-style conditional cleaning of a container inside the content. */
  #isJunk(el: ElementNode): boolean {
    if (el.textLen === 0) return el.imgCount === 0 || !this.#o.includeLinks;
    // Cards of other stories below the article's text: out even when the choice's text container
    // reads as the list (the cards' summaries outscore the article's paragraphs, each in the choice).
    if ((el.tag === 'ul' || el.tag === 'ol') && linkDensity(el) > 0.2 && isTeaserCardList(el) && besideMoreText(el)) return true;
    if (el.held || (el.tag === 'table' && isDataTable(el)) || wrapsEmbeddedPost(el)) return false;
    // A code block's wrapper (a highlighter's frame, pkgdown's `div.sourceCode`): code whose
    // identifiers link to their docs, in a frame whose utility classes read as hints, is still code.
    if (el.pCount === 0 && codeWithin(el, CODE_FRAME_LEVELS) >= el.textLen * 0.6) return false;
    // A form, or a box around one, with little text and no paragraph: its heading, labels and
    // hints ("Apply for this job", "* Required", "Drop files here"). A page wrapped whole in a
    // <form> (ASP.NET) holds more text, or a brief's paragraphs.
    if ((el.tag === 'form' || el.formCount > 0) && el.textLen < FORM_BOX_CHARS && el.pCount === 0) return true;
    const weight = classWeight(el, this.#o.relaxed);
    if (weight < 0 && weight + (el.scored ? el.score : 0) < 0) return true;
    if (el.commas >= 10) return false;
    const isList = el.tag === 'ul' || el.tag === 'ol';
    const ld = linkDensity(el);
    const p = el.pCount;
    const img = el.imgCount;
    // Images without paragraphs: a gallery, but for a list whose items each carry text beside at
    // most one icon (a pricing card's ticks, a feature list's symbols).
    if (img > 1 && p / img < 0.5 && el.tag !== 'figure' && el.textLen < 200 && !(isList && img <= el.liCount && el.textLen >= 10 * el.liCount)) return true;
    if (!isList && el.liCount - 100 > p) return true;
    if (!isList && el.textLen < 25 && (img === 0 || img > 2) && ld > 0) return true;
    if (!isList && weight < 25 && ld > 0.2 && el.textLen < 2000 && !mostlyProse(el) && !cardGridInBody(el, this.#indexInParent(el))) return true;
    if (weight >= 25 && ld > 0.5) return true;
    if (isList && ld > 0.7 && el.textLen / Math.max(1, el.liCount) < 60 && !announced(el, this.#indexInParent(el))) return true;
    return false;
  }
}

/** Attributes that hold an animated counter's final value (Elementor, Divi, PureCounter, countUp). */
const COUNTER_ATTRS = ['data-to-value', 'data-number-value', 'data-purecounter-end', 'data-count'] as const;
const NUMBER_RE = /^\s*[+-]?\d[\d,.\s]*\s*$/;

/**
 * The final value of an animated counter (`<span data-to-value="180">0</span>`): its HTML shows
 * the value the animation starts from, a script counts up to the attribute's. Null for other
 * elements, or where the text or the attribute is no number.
 */
function counterValue(el: ElementNode): string | null {
  for (const name of COUNTER_ATTRS) {
    const to = el.attrs[name];
    if (to === undefined) continue;
    if (!NUMBER_RE.test(to) || el.children.length !== 1 || typeof el.children[0] !== 'string' || !NUMBER_RE.test(el.children[0])) return null;
    return to.trim();
  }
  return null;
}

/** How deep below a block its code block is looked for (`div > div > pre`). */
const CODE_FRAME_LEVELS = 3;

/** The text of the <pre> blocks within `levels` levels below `el`. */
function codeWithin(el: ElementNode, levels: number): number {
  let n = 0;
  for (const c of el.children) {
    if (typeof c === 'string') continue;
    if (c.tag === 'pre') n += c.textLen;
    else if (levels > 1 && c.hasBlock) n += codeWithin(c, levels - 1);
  }
  return n;
}

function firstSrcset(srcset: string | undefined): string | undefined {
  if (!srcset) return undefined;
  const first = srcset.split(',')[0]?.trim().split(/\s+/)[0];
  return first || undefined;
}
