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
 *
 * This file holds the tree events; their parts are tree-rules.ts (the Parser's rules), name-tables.ts
 * (tag names and the WANTED attributes), html-references.ts (character references) and
 * tokenizer-skips.ts (native skips in the tokenizer).
 */
import { QuoteType, Tokenizer } from 'htmlparser2';
import { References } from './html-references.ts';
import { TAG_NAMES, WANTED_NAMES } from './name-tables.ts';
import { nativeSkips } from './tokenizer-skips.ts';
import { OPEN_IMPLIES_CLOSE, RULE_FOREIGN, RULE_IMPLIES, RULE_INTEGRATION, RULE_RAW, RULE_RCDATA, RULE_VOID, rulesOf, SVG_NAMES } from './tree-rules.ts';

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

/** How the tokenizer reads an element's body: as text, raw text or RCDATA (RAW_TEXT and RCDATA in tree-rules.ts). */
const BODY_TEXT = 0;
const BODY_RAW = 1;
const BODY_RCDATA = 2;

const NONE = 0;
const SVG = 1;
const MATHML = 2;
/** The tokenizer's own end of raw text: `</script` or `</style`, any case, then space, `/` or `>`. */
const SCRIPT_END = /<\/script[\t\n\f\r />]/gi;
const STYLE_END = /<\/style[\t\n\f\r />]/gi;
/** Shorter bodies are cheaper to walk than to search and restart. */
const RAW_SKIP_CHARS = 1024;
const NO_ATTRS: Record<string, string> = Object.freeze({}) as Record<string, string>;

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
