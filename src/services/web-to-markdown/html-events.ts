/**
 * Tree events straight from htmlparser2's Tokenizer: open tag (with only the attributes the
 * extractor reads), text, close tag. The tree rules are htmlparser2's own Parser's, ported
 * one-to-one (implied closes, void elements, `</p>` and `</br>` quirks, a second `<form>` ignored,
 * foreign content with self-closing tags and SVG name casing), so the tree is the one the Parser
 * would give; what the port leaves out is the Parser's per-tag work the extractor never used:
 *
 * - an attribute object for every tag, with every attribute name lower-cased and every value
 *   sliced (here: nothing at all inside dropped subtrees, and elsewhere only WANTED attributes);
 * - a string for every text run, script and style (here: none inside dropped subtrees);
 * - an open-element stack kept with `unshift`/`shift` (quadratic on deep documents; here
 *   `push`/`pop`);
 * - indices, comments, doctype and processing-instruction strings;
 * - walking long script and style bodies character by character (see `run`).
 *
 * On the development pages: ~27% less parse time than the Parser (the tokenizer itself is most of
 * what remains), identical Markdown on every page; test/extract-tree.test.ts compares the events
 * with the Parser's on quirks and 3,000 random tag soups.
 */
import { QuoteType, Tokenizer } from 'htmlparser2';

export interface TreeHandler {
  /** False while the element would be dropped anyway: its attributes are then not read. */
  wantsAttributes(): boolean;
  /** False inside dropped subtrees: their text (scripts, styles, menus) is never sliced. */
  wantsText(): boolean;
  /** Return false to stop parsing (the rest of the page is ignored). */
  openTag(name: string, attrs: Record<string, string>): boolean;
  /**
   * A text run. `start`: where `data` stands in the page (`data` is `html.slice(start, start +
   * data.length)`), or -1 when it was decoded (it held a character reference).
   */
  text(data: string, start: number): void;
  closeTag(name: string): void;
}

/**
 * Elements whose body the tokenizer reads as raw text (RAW_TEXT: no tags, no character references)
 * or as RCDATA (no tags, references decoded), unless they open in SVG/MathML.
 */
const RAW_TEXT = new Set(['script', 'style', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']);
const RCDATA = new Set(['title', 'textarea']);
const BODY_TEXT = 0;
const BODY_RAW = 1;
const BODY_RCDATA = 2;

/**
 * Character references, decoded as htmlparser2's tokenizer decodes them, for the text and the
 * attribute values the extractor keeps.
 *
 * The page's tokenizer runs with `decodeEntities: false`: it then skips through text and quoted
 * attribute values with one search for the next `<` or quote, instead of taking every character
 * through its state machine (~30% less parse time on the eval pages). A run that holds a `&` is
 * decoded afterwards by a second tokenizer, with references on, fed the run in the state the
 * page's tokenizer read it in: text as it is (a text run never holds `<` followed by a tag start),
 * an RCDATA body inside its element, a value in its own quotes after `<a a=`. So the decoding is
 * the library's own, legacy references, attribute rules and numeric replacements included; the
 * tree test compares the events with htmlparser2's Parser (references on) on quirks and random soups.
 */
class References {
  readonly #tokenizer: Tokenizer;
  #src = '';
  #out = '';

  constructor() {
    const append = (start: number, end: number): void => {
      this.#out += this.#src.slice(start, end);
    };
    const appendCodePoint = (cp: number): void => {
      this.#out += String.fromCodePoint(cp);
    };
    const ignore = (): void => {};
    this.#tokenizer = new Tokenizer(
      { decodeEntities: true },
      {
        ontext: append,
        ontextentity: appendCodePoint,
        onattribdata: append,
        onattribentity: appendCodePoint,
        onattribend: ignore,
        onattribname: ignore,
        oncdata: ignore,
        onclosetag: ignore,
        oncomment: ignore,
        ondeclaration: ignore,
        onend: ignore,
        onopentagend: ignore,
        onopentagname: ignore,
        onprocessinginstruction: ignore,
        onselfclosingtag: ignore,
        isInForeignContext: () => false,
      },
    );
  }

  /** Text read in the text state. */
  text(raw: string): string {
    return commonOnly(raw) ? decodeCommon(raw) : this.#run(raw);
  }

  /** The body of an RCDATA element (`title`, `textarea`). */
  rcdata(raw: string, tag: string): string {
    // No shortcut: in RCDATA a reference right after `<` is not decoded (the tokenizer's quirk).
    return this.#run(`<${tag}>${raw}</${tag}>`);
  }

  /** An attribute value read in `quote`s. */
  value(raw: string, quote: QuoteType): string {
    if (commonOnly(raw)) return decodeCommon(raw);
    const q = quote === QuoteType.Double ? '"' : quote === QuoteType.Single ? "'" : '';
    return this.#run(`<a a=${q}${raw}${q}>`);
  }

  #run(src: string): string {
    this.#src = src;
    this.#out = '';
    const t = this.#tokenizer;
    t.reset();
    t.write(src);
    t.end();
    const out = this.#out;
    this.#src = this.#out = '';
    return out;
  }
}

/**
 * The common references, each with its semicolon: the decoder reads such a reference the same
 * way in text and in attribute values (the attribute rule for `&name=` / `&name1` concerns
 * references without a semicolon; RCDATA is left out, see `rcdata`), and none is the prefix of a
 * longer one. A run whose every `&` opens one of them (most: `&amp;` in URLs) is decoded by one
 * replace instead of the second tokenizer, which walks its run character by character (10-20%
 * of the characters tokenized on the eval pages were URLs with `&amp;`).
 */
const COMMON_REFERENCES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', '#39': "'" };
const OTHER_REFERENCE = /&(?!(?:amp|lt|gt|quot|apos|nbsp|#39);)/;
const COMMON_REFERENCE = /&(amp|lt|gt|quot|apos|nbsp|#39);/g;

function commonOnly(raw: string): boolean {
  return !OTHER_REFERENCE.test(raw);
}

function decodeCommon(raw: string): string {
  return raw.replace(COMMON_REFERENCE, (_, name: string) => COMMON_REFERENCES[name]!);
}

/** Attributes the extractor reads (dom.ts, score.ts, class-hints.ts, siblings.ts, grid-columns.ts, render.ts and its markdown-blocks.ts, clean-rules.ts); others are never sliced. */
const WANTED = new Set([
  'class', 'id', 'style', 'role', 'hidden', 'aria-hidden', 'itemprop', 'itemtype', 'lang', 'href', 'property', 'name', 'content',
  'src', 'alt', 'width', 'height', 'srcset', 'data-src', 'data-lazy-src', 'data-original', 'data-srcset',
  'start', 'colspan', 'summary', 'data-lang', 'data-language', 'shadowrootmode', 'shadowroot', 'aria-expanded', 'aria-controls',
]);

// From htmlparser2 12.0.0 Parser.js (HTML mode).
const formTags = new Set(['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea']);
const pTag = new Set(['p']);
const headingTags = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p']);
const tableSectionTags = new Set(['thead', 'tbody']);
const ddtTags = new Set(['dd', 'dt']);
const rtpTags = new Set(['rt', 'rp']);
const OPEN_IMPLIES_CLOSE = new Map<string, ReadonlySet<string>>([
  ['tr', new Set(['tr', 'th', 'td'])], ['th', new Set(['th'])], ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])], ['a', new Set(['a'])], ['li', new Set(['li'])], ['p', pTag],
  ['h1', headingTags], ['h2', headingTags], ['h3', headingTags], ['h4', headingTags], ['h5', headingTags], ['h6', headingTags],
  ['select', formTags], ['input', formTags], ['output', formTags], ['button', formTags], ['datalist', formTags], ['textarea', formTags],
  ['option', new Set(['option'])], ['optgroup', new Set(['optgroup', 'option'])], ['dd', ddtTags], ['dt', ddtTags],
  ['address', pTag], ['article', pTag], ['aside', pTag], ['blockquote', pTag], ['details', pTag], ['div', pTag], ['dl', pTag],
  ['fieldset', pTag], ['figcaption', pTag], ['figure', pTag], ['footer', pTag], ['form', pTag], ['header', pTag], ['hr', pTag],
  ['main', pTag], ['nav', pTag], ['ol', pTag], ['pre', pTag], ['section', pTag], ['table', pTag], ['ul', pTag],
  ['rt', rtpTags], ['rp', rtpTags], ['tbody', tableSectionTags], ['tfoot', tableSectionTags],
]);
/** The Parser's void elements (a superset of dom.ts's VOID_TAGS). */
export const PARSER_VOID = new Set([
  'area', 'base', 'basefont', 'br', 'col', 'command', 'embed', 'frame', 'hr', 'img', 'input', 'isindex', 'keygen', 'link',
  'meta', 'param', 'source', 'track', 'wbr',
]);
const FOREIGN_ELEMENTS = new Set(['math', 'svg']);
const INTEGRATION_ELEMENTS = new Set(['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml', 'foreignObject', 'desc', 'title']);
/**
 * The sets above as bits of one map, so an open tag looks its name up once (and a close tag or a
 * pop once) instead of in up to six sets.
 */
const RULE_RAW = 1;
const RULE_RCDATA = 2;
const RULE_VOID = 4;
const RULE_FOREIGN = 8;
const RULE_INTEGRATION = 16;
const RULE_IMPLIES = 32;
const TAG_RULES = new Map<string, number>();
for (const [names, bit] of [
  [RAW_TEXT, RULE_RAW], [RCDATA, RULE_RCDATA], [PARSER_VOID, RULE_VOID], [FOREIGN_ELEMENTS, RULE_FOREIGN],
  [INTEGRATION_ELEMENTS, RULE_INTEGRATION], [OPEN_IMPLIES_CLOSE.keys(), RULE_IMPLIES],
] as const) {
  for (const name of names) TAG_RULES.set(name, (TAG_RULES.get(name) ?? 0) | bit);
}
function rulesOf(name: string): number {
  return TAG_RULES.get(name) ?? 0;
}
const SVG_NAMES = new Map(
  [
    'altGlyph', 'altGlyphDef', 'altGlyphItem', 'animateColor', 'animateMotion', 'animateTransform', 'clipPath', 'feBlend',
    'feColorMatrix', 'feComponentTransfer', 'feComposite', 'feConvolveMatrix', 'feDiffuseLighting', 'feDisplacementMap',
    'feDistantLight', 'feDropShadow', 'feFlood', 'feFuncA', 'feFuncB', 'feFuncG', 'feFuncR', 'feGaussianBlur', 'feImage',
    'feMerge', 'feMergeNode', 'feMorphology', 'feOffset', 'fePointLight', 'feSpecularLighting', 'feSpotLight', 'feTile',
    'feTurbulence', 'foreignObject', 'glyphRef', 'linearGradient', 'radialGradient', 'textPath',
  ].map((n) => [n.toLowerCase(), n]),
);
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
const TAG_NAMES = new NameTable([
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
const WANTED_NAMES = new NameTable(WANTED);

const NONE = 0;
const SVG = 1;
const MATHML = 2;
/** The tokenizer's own end of raw text: `</script` or `</style`, any case, then space, `/` or `>`. */
const SCRIPT_END = /<\/script[\t\n\f\r />]/gi;
const STYLE_END = /<\/style[\t\n\f\r />]/gi;
/** Shorter bodies are cheaper to walk than to search and restart. */
const RAW_SKIP_CHARS = 1024;
const NO_ATTRS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** The Tokenizer fields nativeSkips reads and writes (htmlparser2 12.0.0, pinned in package.json). */
interface SkippingTokenizer {
  buffer: string;
  index: number;
  offset: number;
  fastForwardTo(c: number): boolean;
  stateInTagName(c: number): void;
  stateInClosingTagName(c: number): void;
  stateInAttributeName(c: number): void;
}

/**
 * The index of the first character at or after `from` in `s` that ends a name: whitespace, `/` or
 * `>`, and `=` when `eq` (an attribute name); `s.length` when there is none.
 */
function nameEnd(s: string, from: number, eq: boolean): number {
  let i = from;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c <= 32 ? c === 32 || c === 10 || c === 9 || c === 12 || c === 13 : c === 47 || c === 62 || (eq && c === 61)) break;
  }
  return i;
}

/**
 * Name states that skip the characters of a name at once: the tokenizer's own state does nothing
 * for them but step to the next (its parse loop costs ~100 instructions a character, and names
 * were ~40% of the characters it walked on the eval pages). `index` moves to the character that
 * ends the name and the tokenizer's own state runs there, as it would have after walking; when
 * the buffer ends first, `index` stays on its last character (the parse loop's `index++` then
 * ends the loop, with the name pending, as after walking: cleanup emits nothing for a name).
 * Returns the ending character, or -1 at the end of the buffer.
 */
function toNameEnd(t: SkippingTokenizer, c: number, eq: boolean): number {
  if (c <= 32 ? c === 32 || c === 10 || c === 9 || c === 12 || c === 13 : c === 47 || c === 62 || (eq && c === 61)) return c;
  const buffer = t.buffer;
  const at = nameEnd(buffer, t.index - t.offset + 1, eq);
  if (at === buffer.length) {
    t.index = at + t.offset - 1;
    return -1;
  }
  t.index = at + t.offset;
  return buffer.charCodeAt(at);
}

const CHARS = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c));

/**
 * htmlparser2's Tokenizer skips to a known character (text up to `<`, a quoted attribute value up
 * to its quote, a comment or declaration up to `-` or `>`) with a charCodeAt loop; this replaces
 * that method on our own instance with the same skip as one native indexOf (a fifth of the parse
 * time on the eval pages went to that loop). Same contract: from index + 1, true with `index` on
 * the character, else false with `index` on the last character of the buffer. Only when the
 * instance has the fields and method of the version it was written for; the tree test compares
 * the events with htmlparser2's own Parser either way.
 */
function nativeSkips(tokenizer: Tokenizer): void {
  const t = tokenizer as unknown as SkippingTokenizer;
  if (typeof t.fastForwardTo !== 'function' || typeof t.buffer !== 'string' || typeof t.index !== 'number' || typeof t.offset !== 'number') return;
  if (typeof t.stateInTagName === 'function' && typeof t.stateInClosingTagName === 'function' && typeof t.stateInAttributeName === 'function') {
    // One function each (not one closure made three times): each calls its own state directly.
    const tagName = t.stateInTagName;
    const closingTagName = t.stateInClosingTagName;
    const attributeName = t.stateInAttributeName;
    t.stateInTagName = function (this: SkippingTokenizer, c: number): void {
      const end = toNameEnd(this, c, false);
      if (end >= 0) tagName.call(this, end);
    };
    t.stateInClosingTagName = function (this: SkippingTokenizer, c: number): void {
      const end = toNameEnd(this, c, false);
      if (end >= 0) closingTagName.call(this, end);
    };
    t.stateInAttributeName = function (this: SkippingTokenizer, c: number): void {
      const end = toNameEnd(this, c, true);
      if (end >= 0) attributeName.call(this, end);
    };
  }
  t.fastForwardTo = function (this: SkippingTokenizer, c: number): boolean {
    const at = this.buffer.indexOf(c < 128 ? CHARS[c]! : String.fromCharCode(c), this.index + 1 - this.offset);
    if (at >= 0) {
      this.index = at + this.offset;
      return true;
    }
    this.index = this.buffer.length + this.offset - 1;
    return false;
  };
}

class TreeEvents {
  readonly #html: string;
  readonly #h: TreeHandler;
  readonly tokenizer: Tokenizer;
  /** Open elements, innermost last, and their TAG_RULES bits. */
  readonly #stack: string[] = [];
  readonly #stackRules: number[] = [];
  /**
   * How many elements of each name are open. The Parser searches the stack (up to
   * MAX_OPEN_ELEMENTS in dom.ts) for a close tag's element, for an open <form> at every <form>
   * and for an SVG name in foreign content: 4,000 open elements and 1 million stray close tags
   * took 33 s. With the count, a name that is not open costs nothing, and a close tag's search
   * stops at its element, which it then pops with everything above (each push paid once).
   */
  readonly #open = new Map<string, number>();
  /** Foreign-content contexts, innermost last. */
  readonly #foreign: number[] = [NONE];
  #tagname = '';
  /** The pending open tag has not been reported yet (false for an ignored second <form>). */
  #pending = false;
  /** TAG_RULES bits of the pending open tag (0 for an ignored second <form>). */
  #tagRules = 0;
  /** The pending open tag's attributes are read; the record is made at the first one kept. */
  #wantAttrs = false;
  #attrs: Record<string, string> | null = null;
  #attrName = '';
  #attrValue = '';
  #keepAttr = false;
  /** How the tokenizer reads the current element body (BODY_*), and that element's name. */
  #body = BODY_TEXT;
  #bodyTag = '';
  /** What the pending open tag's body will be, once its `>` is read. */
  #nextBody = BODY_TEXT;
  #references: References | null = null;

  /** Where the current tokenizer's index 0 sits in the page (see `run`). */
  #base = 0;
  /** Index in the current tokenizer of the `>` that ended the last open tag. */
  #tagEnd = 0;
  /** Page offset to restart from after a long script/style body, or -1. */
  #jump = -1;
  #stopped = false;

  constructor(html: string, handler: TreeHandler) {
    this.#html = html;
    this.#h = handler;
    // References are decoded only in the runs that are kept (References above).
    this.tokenizer = new Tokenizer({ decodeEntities: false }, this);
    nativeSkips(this.tokenizer);
  }

  /**
   * Tokenizes the page. The body of a long <script> or <style> (raw text: no tags, no entities)
   * is not walked by the tokenizer character by character: its end tag is found with a native
   * search, the text is reported whole, and the tokenizer starts again (reset) at the end tag,
   * in the state it would have reached there itself.
   */
  run(): void {
    for (;;) {
      const tokenizer = this.tokenizer;
      tokenizer.write(this.#base === 0 ? this.#html : this.#html.slice(this.#base));
      if (this.#stopped) return;
      if (this.#jump < 0) {
        if (tokenizer.running) tokenizer.end();
        return;
      }
      this.#base = this.#jump;
      this.#jump = -1;
      tokenizer.reset();
    }
  }

  /** After the open tag of a raw-text element: skip a long body (see `run`). */
  #rawText(name: string): void {
    const from = this.#base + this.#tagEnd + 1;
    const end = name === 'script' ? SCRIPT_END : STYLE_END;
    end.lastIndex = from;
    const m = end.exec(this.#html);
    const to = m === null ? this.#html.length : m.index;
    if (to - from < RAW_SKIP_CHARS) return;
    if (to > from && this.#h.wantsText()) this.#h.text(this.#html.slice(from, to), from);
    this.tokenizer.pause();
    if (m === null) this.#stopped = true;
    else this.#jump = to;
  }

  isInForeignContext(): boolean {
    return this.#foreign[this.#foreign.length - 1] !== NONE;
  }

  #readTagName(start: number, end: number): string {
    const name = TAG_NAMES.find(this.#html, this.#base + start, this.#base + end) ?? this.#html.slice(this.#base + start, this.#base + end).toLowerCase();
    const top = this.#foreign[this.#foreign.length - 1];
    if (top === SVG) return SVG_NAMES.get(name) ?? name;
    if (this.#foreign.length > 1) {
      const adjusted = SVG_NAMES.get(name);
      if (adjusted !== undefined && this.#isOpen(adjusted)) return adjusted;
    }
    if (top === NONE) return name === 'image' ? 'img' : name;
    return name;
  }

  #emitOpenTag(name: string, rules: number): void {
    this.#tagname = name;
    if (name === 'form' && this.#isOpen('form')) {
      this.#tagname = '';
      this.#tagRules = 0;
      this.#pending = false;
      this.#wantAttrs = false;
      this.#attrs = null;
      return;
    }
    if ((rules & RULE_IMPLIES) !== 0) {
      const implies = OPEN_IMPLIES_CLOSE.get(name)!;
      while (this.#stack.length > 0 && implies.has(this.#stack[this.#stack.length - 1]!)) this.#pop();
    }
    if ((rules & RULE_VOID) === 0) {
      this.#stack.push(name);
      this.#stackRules.push(rules);
      this.#open.set(name, (this.#open.get(name) ?? 0) + 1);
      if (name === 'svg') this.#foreign.push(SVG);
      else if (name === 'math') this.#foreign.push(MATHML);
      else if ((rules & RULE_INTEGRATION) !== 0) this.#foreign.push(NONE);
    }
    this.#tagRules = rules;
    this.#pending = true;
    this.#wantAttrs = this.#h.wantsAttributes();
    this.#attrs = null;
  }

  #endOpenTag(): void {
    const name = this.#tagname;
    if (this.#pending) {
      this.#pending = false;
      const attrs = this.#attrs ?? NO_ATTRS;
      this.#attrs = null;
      this.#wantAttrs = false;
      if (!this.#h.openTag(name, attrs)) {
        this.#stop();
        return;
      }
    }
    if ((this.#tagRules & RULE_VOID) !== 0) this.#h.closeTag(name);
    this.#tagname = '';
    this.#tagRules = 0;
    // The tokenizer reads these as raw text, except inside SVG/MathML.
    if ((name === 'script' || name === 'style') && !this.isInForeignContext()) this.#rawText(name);
  }

  #stop(): void {
    this.#stopped = true;
    this.tokenizer.pause();
  }

  #isOpen(name: string): boolean {
    return (this.#open.get(name) ?? 0) > 0;
  }

  #pop(): void {
    const element = this.#stack.pop()!;
    this.#open.set(element, this.#open.get(element)! - 1);
    if ((this.#stackRules.pop()! & (RULE_FOREIGN | RULE_INTEGRATION)) !== 0) this.#foreign.pop();
    this.#h.closeTag(element);
  }

  #closeCurrentTag(): void {
    const name = this.#tagname;
    this.#endOpenTag();
    if (this.#stack[this.#stack.length - 1] === name) this.#pop();
  }

  // Tokenizer callbacks.
  ontext(start: number, end: number): void {
    if (!this.#h.wantsText()) return;
    const at = this.#base + start;
    const raw = this.#html.slice(at, this.#base + end);
    if (this.#body === BODY_RAW || !raw.includes('&')) this.#h.text(raw, at);
    else if (this.#body === BODY_RCDATA) this.#h.text(this.#refs().rcdata(raw, this.#bodyTag), -1);
    else this.#h.text(this.#refs().text(raw), -1);
  }
  ontextentity(): void {
    // Never called: the page's tokenizer leaves references to References.
  }
  #refs(): References {
    return (this.#references ??= new References());
  }
  onopentagname(start: number, end: number): void {
    // The tokenizer decided at the `<`, before any tree rule: the name as written, outside SVG/MathML.
    const foreign = this.isInForeignContext();
    const name = this.#readTagName(start, end);
    const rules = rulesOf(name);
    this.#nextBody = foreign ? BODY_TEXT : (rules & RULE_RAW) !== 0 ? BODY_RAW : (rules & RULE_RCDATA) !== 0 ? BODY_RCDATA : BODY_TEXT;
    this.#emitOpenTag(name, rules);
  }
  onattribname(start: number, end: number): void {
    if (!this.#wantAttrs) return;
    const name = WANTED_NAMES.find(this.#html, this.#base + start, this.#base + end);
    this.#keepAttr = name !== undefined && (this.#attrs === null || !Object.hasOwn(this.#attrs, name));
    if (name !== undefined) this.#attrName = name;
    this.#attrValue = '';
  }
  onattribdata(start: number, end: number): void {
    if (this.#keepAttr) this.#attrValue += this.#html.slice(this.#base + start, this.#base + end);
  }
  onattribentity(cp: number): void {
    if (this.#keepAttr) this.#attrValue += String.fromCodePoint(cp);
  }
  onattribend(quote: QuoteType, _end: number): void {
    if (this.#keepAttr) {
      const raw = this.#attrValue;
      (this.#attrs ??= {})[this.#attrName] = raw.includes('&') ? this.#refs().value(raw, quote) : raw;
    }
    this.#keepAttr = false;
  }
  onopentagend(end: number): void {
    this.#tagEnd = end;
    this.#enterBody();
    this.#endOpenTag();
  }
  onselfclosingtag(end: number): void {
    this.#tagEnd = end;
    // In HTML mode `/>` does not close a raw-text or RCDATA element: its body follows all the same.
    this.#enterBody();
    if (this.isInForeignContext()) this.#closeCurrentTag();
    else this.#endOpenTag();
  }
  #enterBody(): void {
    this.#body = this.#nextBody;
    this.#bodyTag = this.#tagname;
    this.#nextBody = BODY_TEXT;
  }
  onclosetag(start: number, end: number): void {
    this.#body = BODY_TEXT;
    const name = this.#readTagName(start, end);
    if ((rulesOf(name) & RULE_VOID) === 0) {
      const pos = this.#isOpen(name) ? this.#stack.lastIndexOf(name) : -1;
      if (pos !== -1) {
        while (this.#stack.length - 1 > pos) this.#pop();
        this.#pop();
      } else if (name === 'p') {
        // `</p>` without an open <p>: an empty paragraph, as browsers do.
        this.#emitOpenTag('p', rulesOf('p'));
        this.#closeCurrentTag();
      }
    } else if (name === 'br') {
      // `</br>` is a line break.
      if (this.#h.openTag('br', NO_ATTRS)) this.#h.closeTag('br');
      else this.#stop();
    }
  }
  oncdata(start: number, end: number, offset: number): void {
    // HTML mode: CDATA is text inside SVG/MathML, a comment elsewhere.
    if (this.isInForeignContext() && this.#h.wantsText()) this.#h.text(this.#html.slice(this.#base + start, this.#base + end - offset), this.#base + start);
  }
  oncomment(): void {}
  ondeclaration(): void {}
  onprocessinginstruction(): void {}
  onend(): void {}
}

/** Feeds `html` through the tokenizer into `handler` (stops early when openTag returns false). */
export function parseTree(html: string, handler: TreeHandler): void {
  new TreeEvents(html, handler).run();
}
