/**
 * Tag and attribute names of the tree events (html-events.ts), looked up lower-cased straight from
 * the page's characters; WANTED is the set of attributes the extractor reads at all.
 */

/** Attributes the extractor reads (dom.ts and its parse-rules.ts, section-marks.ts, score.ts, class-hints.ts, siblings.ts, grid-columns.ts, render.ts and its markdown-blocks.ts, clean-rules.ts); others are never sliced. */
const WANTED = new Set([
  'class', 'id', 'style', 'role', 'hidden', 'aria-hidden', 'itemprop', 'itemtype', 'lang', 'href', 'property', 'name', 'content',
  'src', 'alt', 'width', 'height', 'srcset', 'data-src', 'data-lazy-src', 'data-original', 'data-srcset',
  'start', 'colspan', 'summary', 'data-lang', 'data-language', 'shadowrootmode', 'shadowroot', 'aria-expanded', 'aria-controls',
  // the page's own URL, and an article's (dom.ts dropNextArticles)
  'rel', 'data-url', 'data-permalink', 'data-href', 'data-canonical', 'data-article-url',
  // a frame's own document (core.ts fallback); a component's slot content (parse-rules.ts)
  'srcdoc', 'slot',
  // an animated counter's final value (render.ts counterValue)
  'data-to-value', 'data-number-value', 'data-purecounter-end', 'data-count',
]);

/**
 * Lower-cased names looked up straight from the source characters, so the common tag and
 * attribute names cost no string at all (slice + toLowerCase made two per tag and attribute).
 */
class NameTable {
  readonly #slots: (string | undefined)[];
  readonly #mask: number;
  constructor(names: Iterable<string>) {
    const list = [...names];
    let size = 64;
    while (size < list.length * 4) size *= 2;
    this.#mask = size - 1;
    this.#slots = new Array<string | undefined>(size).fill(undefined);
    for (const name of list) {
      let i = NameTable.#hashOf(name, 0, name.length) & this.#mask;
      while (this.#slots[i] !== undefined && this.#slots[i] !== name) i = (i + 1) & this.#mask;
      this.#slots[i] = name;
    }
  }
  static #hashOf(s: string, start: number, end: number): number {
    let h = end - start;
    for (let i = start; i < end; i++) {
      const c = s.charCodeAt(i);
      h = (Math.imul(h, 31) + (c >= 65 && c <= 90 ? c | 32 : c)) | 0;
    }
    return h ^ (h >>> 15);
  }
  /** The name `src[start, end)` lower-cased (ASCII), if it is in the table. */
  find(src: string, start: number, end: number): string | undefined {
    const len = end - start;
    for (let i = NameTable.#hashOf(src, start, end) & this.#mask; ; i = (i + 1) & this.#mask) {
      const name = this.#slots[i];
      if (name === undefined) return undefined;
      if (name.length !== len) continue;
      let k = 0;
      while (k < len) {
        const c = src.charCodeAt(start + k);
        if ((c >= 65 && c <= 90 ? c | 32 : c) !== name.charCodeAt(k)) break;
        k++;
      }
      if (k === len) return name;
    }
  }
}

/** Tag names of real pages (others are sliced and lower-cased as usual). */
export const TAG_NAMES = new NameTable([
  'html', 'head', 'body', 'title', 'meta', 'link', 'script', 'style', 'noscript', 'template', 'base', 'div', 'span', 'p', 'a',
  'b', 'i', 'u', 's', 'em', 'strong', 'small', 'big', 'sub', 'sup', 'br', 'hr', 'img', 'image', 'picture', 'source', 'figure',
  'figcaption', 'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th', 'caption', 'colgroup',
  'col', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'footer', 'nav', 'aside', 'main', 'article', 'section', 'blockquote',
  'pre', 'code', 'kbd', 'samp', 'tt', 'var', 'cite', 'dfn', 'abbr', 'time', 'mark', 'q', 'del', 'ins', 'strike', 'form',
  'input', 'select', 'option', 'optgroup', 'button', 'textarea', 'label', 'fieldset', 'legend', 'datalist', 'output',
  'iframe', 'object', 'embed', 'param', 'canvas', 'video', 'audio', 'track', 'map', 'area', 'center', 'font', 'details',
  'summary', 'dialog', 'menu', 'address', 'wbr', 'nobr', 'ruby', 'rt', 'rp', 'bdi', 'bdo', 'data', 'meter', 'progress',
  'slot', 'math', 'mi', 'mo', 'mn', 'ms', 'mtext', 'svg', 'path', 'g', 'rect', 'circle', 'ellipse', 'line', 'polyline',
  'polygon', 'use', 'defs', 'symbol', 'stop', 'mask', 'pattern', 'text', 'tspan', 'desc', 'filter', 'clippath',
  'lineargradient', 'radialgradient', 'foreignobject',
]);
export const WANTED_NAMES = new NameTable(WANTED);
