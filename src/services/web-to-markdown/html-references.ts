/**
 * Character references of the tree events (html-events.ts): the page's tokenizer leaves them
 * undecoded, and the runs the extractor keeps are decoded here, by htmlparser2's own decoder.
 */
import { QuoteType, Tokenizer } from 'htmlparser2';

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
export class References {
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
