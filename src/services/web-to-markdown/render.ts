/**
 * Extraction DOM -> GitHub-flavoured Markdown. Keeps the structure an LLM can use: headings,
 * paragraphs, nested lists, GFM tables, fenced code (language from `language-x`/`lang-x`
 * classes), block quotes, emphasis, hard line breaks, images and links with absolute URLs.
 * Inside the chosen content, blocks that read like boilerplate (link lists, image galleries
 * without text, widgets with negative class hints) are dropped, as Readability's
 * "clean conditionally" does, and so are short standalone datelines, newsletter prompts and
 * follow-us lines (boilerplate-lines.ts).
 */
import type { ElementNode, Node } from './dom.ts';
import { AUTHOR_NOTE_TAIL, furnitureBlock, isClosingNote, isConsentNotice, isExcerptList, isHeadlineList, isShortItemList } from './boilerplate-lines.ts';
import { classWeight, isStrongBoilerplate, wrapsEmbeddedPost } from './class-hints.ts';
import { firstMatching, soleChild, textOf } from './dom-queries.ts';
import { isBlock, isHeading, linkDensity } from './measure.ts';

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
/** A text that ends as a sentence: a full stop, question or exclamation mark, maybe a closing quote or bracket. */
const ENDS_SENTENCE_RE = /[.!?。！？]["'”’)]?\s*$/;
const CLEANABLE = new Set(['div', 'section', 'ul', 'ol', 'table', 'form', 'fieldset', 'header', 'figure', 'center', 'details', 'aside']);
/** Link targets worth keeping; javascript:, data: and typos such as `ttps:` become plain text. */
const LINK_SCHEMES = /^(?:https?|mailto|tel|ftp):/i;
const CODE_LANG = /(?:^|\s)(?:lang(?:uage)?-|highlight-(?:source-)?|brush:\s*)([A-Za-z0-9_+#.-]+)/;
const WS = /[ \t\n\r\f\u00a0]+/g;
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
/** Stand-in for <br> while inline whitespace is collapsed; becomes a Markdown hard break. */
const HARD_BREAK = '\uE000';

/** Collapses inline whitespace and turns <br> stand-ins into hard breaks (two spaces, newline). */
function finishInline(s: string): string {
  const t = trimBreaks(s.replace(/ {2,}/g, ' '));
  // Most paragraphs hold no <br>: skip the third pass.
  if (!t.includes(HARD_BREAK)) return t;
  return t.replace(/ *\uE000[ \uE000]*/g, (m) => '  \n'.repeat(Math.min(2, m.split(HARD_BREAK).length - 1)));
}

/** One character of JavaScript's `\s` (WhiteSpace and LineTerminator in the spec). */
const SPACE_CHAR = /\s/;

/** `c` is white space as `\s` reads it. */
function isSpace(c: number): boolean {
  if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) return true;
  // Every other `\s` character is U+00A0 or above: one regex test for the rare ones.
  return c >= 0xa0 && SPACE_CHAR.test(String.fromCharCode(c));
}

/** `c` is white space as `\s` reads it, or a <br> stand-in. */
function isSpaceOrBreak(c: number): boolean {
  return c === 0xe000 || isSpace(c);
}

/**
 * `s` without whitespace and <br> stand-ins at either end, found by a scan inward from each end.
 * Not the regex `/^[\s\uE000]+|[\s\uE000]+$/g`: its `[...]+$` alternative is tried at every
 * position and runs to the end of each inner run before failing, so a paragraph of 64 KiB of
 * `<br>`s took 2 s, and 256 KiB 34 s.
 */
function trimBreaks(s: string): string {
  let from = 0;
  let to = s.length;
  while (from < to && isSpaceOrBreak(s.charCodeAt(from))) from++;
  while (to > from && isSpaceOrBreak(s.charCodeAt(to - 1))) to--;
  return from === 0 && to === s.length ? s : s.slice(from, to);
}

/** Renders the selected content elements to Markdown (trimmed, blocks separated by a blank line). */
export function renderMarkdown(nodes: readonly ElementNode[], options: RenderOptions): string {
  const r = new Renderer(options);
  const blocks: string[] = [];
  r.top = blocks;
  for (const n of nodes) r.blocksOf([n], blocks);
  return ((options.furniture ?? options.clean) ? dropFurniture(blocks, r.labels) : blocks).join('\n\n').replace(/\n{3,}/g, '\n\n').trim();
}

/**
 * A blockquote being rendered: its blocks, and the quotes nested straight in it (pushed into
 * `blocks` itself, not into a list item or other block of it) by their index in `blocks`, where
 * NESTED_QUOTE holds their place. Each quote used to prefix the lines of its finished Markdown,
 * its nested quotes' lines included, so 90 nested quotes went over the innermost text 90 times
 * (4.2 s for 1 MiB); the outermost quote now writes every line once with its full prefix.
 */
interface QuoteFrame {
  readonly blocks: string[];
  readonly nested: Map<number, QuoteFrame>;
}
/** Holds a nested quote's place in its enclosing quote's blocks; never in the output (not empty, so the quote is not empty). */
const NESTED_QUOTE = '>';

/**
 * The lines of a quote `depth` levels deep: its blocks' lines behind `> ` once per level, a
 * blank line between blocks and each empty line behind `> ` once per enclosing level and a last
 * `>` (what prefixing the Markdown once per level gives: `>` for a blank line, `> > x` for x).
 */
function quoteLines(frame: QuoteFrame, depth: number, lines: string[]): void {
  const prefix = '> '.repeat(depth);
  const blank = prefix.slice(0, -1);
  for (let i = 0; i < frame.blocks.length; i++) {
    if (i > 0) lines.push(blank);
    const nested = frame.nested.get(i);
    if (nested !== undefined) quoteLines(nested, depth + 1, lines);
    else for (const l of frame.blocks[i]!.split('\n')) lines.push(l === '' ? blank : prefix + l);
  }
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
        if (!this.#o.includeLinks) return text;
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
      default:
        return this.inlineChildren(el);
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
    if (img > 1 && p / img < 0.5 && el.tag !== 'figure' && el.textLen < 200) return true;
    if (!isList && el.liCount - 100 > p) return true;
    if (!isList && el.textLen < 25 && (img === 0 || img > 2) && ld > 0) return true;
    if (!isList && weight < 25 && ld > 0.2 && el.textLen < 2000 && !mostlyProse(el)) return true;
    if (weight >= 25 && ld > 0.5) return true;
    if (isList && ld > 0.7 && el.textLen / Math.max(1, el.liCount) < 60 && !announced(el, this.#indexInParent(el))) return true;
    return false;
  }
}

/** Longest block (characters of Markdown) that is said once when the page says it twice in a row. */
const REPEAT_MAX_CHARS = 300;

/**
 * Without short standalone furniture lines, consent notices, author notes among the last blocks,
 * lists of bare headlines or of excerpts cut off with an ellipsis, related-links labels and the
 * short-item list after such a label (boilerplate-lines.ts), the second of two equal short blocks
 * in a row, and `labels` (headings of a block whose class says `header`) that head nothing: last,
 * or followed by a heading of their level or above (the box they labelled was left out).
 */
function dropFurniture(blocks: readonly string[], labels: ReadonlySet<number>): string[] {
  const kept: string[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i]!;
    if (labels.has(i) && headsNothing(b, blocks[i + 1])) continue;
    // A short block said twice in a row is said once (a caption printed for the collapsed and the
    // open viewer); a long paragraph said twice stays as the page has it.
    if (b.length <= REPEAT_MAX_CHARS && b === blocks[i - 1]) continue;
    const kind = furnitureBlock(b);
    if (kind === 'line' || isHeadlineList(b) || isExcerptList(b) || (i >= blocks.length - AUTHOR_NOTE_TAIL && isClosingNote(b))) continue;
    if (b.charCodeAt(0) !== 0x23 && !b.includes('\n') && isConsentNotice(b)) continue;
    if (kind === 'label') {
      if (i + 1 < blocks.length && isShortItemList(blocks[i + 1]!)) i++;
      continue;
    }
    kept.push(b);
  }
  // A heading that closes the content heads nothing in it: the label of a box left out, or a
  // closing prompt ("Not the answer you're looking for? Browse other questions ...").
  if (kept.length > 1 && kept[kept.length - 1]!.charCodeAt(0) === 0x23 /* # */) kept.pop();
  // A rule separates blocks: one that closes the content (its footer left out) or follows another separates nothing.
  for (let i = kept.length - 1; i >= 0; i--) if (kept[i] === '---' && (i === kept.length - 1 || i === 0 || kept[i - 1] === '---')) kept.splice(i, 1);
  return kept;
}

/** Heading `b` is followed by nothing, or by a heading of its level or above. */
function headsNothing(b: string, next: string | undefined): boolean {
  if (next === undefined) return true;
  const level = /^#*/.exec(b)![0].length;
  const nextLevel = /^#*/.exec(next)![0].length;
  return nextLevel > 0 && nextLevel <= level;
}

/**
 * The heading of a block that holds one heading as a child and, besides it, no image and no other
 * block, only inline links shorter than the heading (an [edit] or permalink, not headlines under a
 * label) and at most three other characters (brackets, separators); null for any other block. The
 * heading is not itself mostly a link (a teaser title).
 */
function soleHeading(el: ElementNode): ElementNode | null {
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
function isStandalone(link: ElementNode): boolean {
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
      links += k.tag === 'a' ? k.textLen : k.linkLen;
    }
  }
  return links >= text * 0.8;
}

function isInlineNode(n: Node): boolean {
  return typeof n === 'string' || (!isBlock(n.tag) && !n.hasBlock);
}

/** A block worth emitting: some letter or digit, or an image (separators such as `* * *` are not). */
function hasContent(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(text) || text.includes('![');
}

/**
 * `inner` between emphasis marks, its white space at either end left outside them (`*a*`, not
 * `* a *`); all white space stays as it is. The ends are found by a scan inward, not by
 * `/^(\s*)([\s\S]*?)(\s*)$/`: the lazy middle tried `\s*$` at every position, running to the
 * end of each inner run of white space, so <b> around 256 KiB of spaces between empty elements
 * took 9 s.
 */
function wrap(inner: string, mark: string): string {
  let from = 0;
  let to = inner.length;
  while (from < to && isSpace(inner.charCodeAt(from))) from++;
  if (from === to) return inner;
  while (isSpace(inner.charCodeAt(to - 1))) to--;
  if (from === 0 && to === inner.length) return mark + inner + mark;
  return `${inner.slice(0, from)}${mark}${inner.slice(from, to)}${mark}${inner.slice(to)}`;
}

const MARKDOWN_SPECIAL = /[\\`*_]/;

function escapeText(s: string): string {
  // Most text holds none of these: one scan instead of a replace with look-arounds.
  if (!MARKDOWN_SPECIAL.test(s)) return s;
  return s.replace(/[\\`*]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g, '\\$&');
}

/** Escapes what would turn a paragraph's first characters into a heading, quote or list item. */
function escapeLineStart(s: string): string {
  return s.replace(/^(#{1,6} |>|[-+] |(\d+)\. )/, (m, _all, num?: string) => (num ? `${num}\\. ` : '\\' + m));
}

function indentItem(marker: string, body: string): string {
  const pad = ' '.repeat(marker.length);
  return marker + body.split('\n').map((l, i) => (i === 0 || l === '' ? l : pad + l)).join('\n');
}

function codeBlock(pre: ElementNode): string {
  let lang = CODE_LANG.exec(pre.attrs.class ?? '')?.[1] ?? pre.attrs['data-lang'] ?? pre.attrs['data-language'];
  if (lang === undefined) {
    const code = pre.children.find((c): c is ElementNode => typeof c !== 'string' && c.tag === 'code');
    if (code) lang = CODE_LANG.exec(code.attrs.class ?? '')?.[1] ?? code.attrs['data-lang'];
  }
  // trimEnd, not /\s+$/: the regex retries from every position of a long blank run, O(n²).
  const text = preText(pre).replace(/^\n/, '').trimEnd();
  // One backtick more than the longest run in the code, and at least three (CommonMark: a fence
  // closes only on a run as long). Found by one scan: lengthening the fence until the code no
  // longer holds it searched the code once per backtick of the run, O(n²) on a long run.
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(text) + 1));
  return `${fence}${lang ?? ''}\n${text}\n${fence}`;
}

/** The length of the longest run of backticks in `s` (0 without one). */
function longestBacktickRun(s: string): number {
  let longest = 0;
  for (let i = s.indexOf('`'); i !== -1; ) {
    let j = i + 1;
    while (j < s.length && s.charCodeAt(j) === 0x60) j++;
    if (j - i > longest) longest = j - i;
    i = s.indexOf('`', j);
  }
  return longest;
}

function preText(el: ElementNode): string {
  let s = '';
  for (const c of el.children) {
    if (typeof c === 'string') s += c;
    else if (c.tag === 'br') s += '\n';
    else {
      s += preText(c);
      if (c.tag === 'div' || c.tag === 'p' || c.tag === 'li' || c.tag === 'tr') s += '\n';
    }
  }
  return s;
}

export function textContent(el: ElementNode): string {
  let s = '';
  for (const c of el.children) s += typeof c === 'string' ? c : textContent(c);
  return s;
}

function collectRows(el: ElementNode, rows: ElementNode[][]): void {
  for (const c of el.children) {
    if (typeof c === 'string') continue;
    if (c.tag === 'tr') {
      const cells = c.children.filter((x): x is ElementNode => typeof x !== 'string' && (x.tag === 'td' || x.tag === 'th'));
      if (cells.length > 0) rows.push(cells);
    } else if (c.tag === 'thead' || c.tag === 'tbody' || c.tag === 'tfoot') {
      collectRows(c, rows);
    }
  }
}

function span(cell: ElementNode): number {
  const n = Number.parseInt(cell.attrs.colspan ?? '1', 10);
  return Number.isFinite(n) && n > 1 && n <= 50 ? n : 1;
}

function hasDescendant(el: ElementNode, tag: string): boolean {
  for (const c of el.children) if (typeof c !== 'string' && (c.tag === tag || hasDescendant(c, tag))) return true;
  return false;
}

/**
 * Half of the box's text or more is in 2+ paragraphs of prose (80+ characters, under a fifth
 * linked): a block of the article's paragraphs that ends in a "Don't miss" list of links is not a
 * link box (the list's own paragraph goes by the teaser rule, or stays).
 */
function mostlyProse(el: ElementNode): boolean {
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
function announced(list: ElementNode, at: number): boolean {
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
function isTeaserCardList(list: ElementNode): boolean {
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
function besideMoreText(el: ElementNode): boolean {
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
function isNavigationCell(cell: ElementNode): boolean {
  if (cell.textLen === 0 || linkDensity(cell) <= 0.6 || countLinks(cell, 3) < 3 || cell.parent === null) return false;
  for (const c of cell.parent.children) if (typeof c !== 'string' && c !== cell && c.textLen >= 3 * cell.textLen) return true;
  return false;
}

/** The <a> elements below `el`, counted up to `max`. */
function countLinks(el: ElementNode, max: number): number {
  let n = 0;
  for (const c of el.children) {
    if (typeof c === 'string') continue;
    n += c.tag === 'a' ? 1 : countLinks(c, max - n);
    if (n >= max) break;
  }
  return n;
}

function isDataTable(el: ElementNode): boolean {
  if (el.attrs.role === 'presentation') return false;
  if (el.attrs.summary || hasDescendant(el, 'th') || hasDescendant(el, 'caption') || hasDescendant(el, 'thead')) return true;
  return false;
}

function firstSrcset(srcset: string | undefined): string | undefined {
  if (!srcset) return undefined;
  const first = srcset.split(',')[0]?.trim().split(/\s+/)[0];
  return first || undefined;
}
