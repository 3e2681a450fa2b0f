/** Sentence and clause spans of one text, read once while a replace callback walks it. */
import { Passages } from './passages.ts';

const isSentenceEnd = (c: number): boolean => c === 46 /* . */ || c === 33 /* ! */ || c === 63 /* ? */ || c === 10;
const isClauseEnd = (c: number): boolean => c === 44 /* , */ || c === 59 /* ; */ || c === 58 /* : */ || isSentenceEnd(c);

/**
 * The sentences (or clauses) of one text, asked about at increasing offsets, as a replace callback
 * does: a span runs from after one end mark to the next (the mark included). Each character is read
 * a bounded number of times over all questions, however many matches a span holds: linear.
 */
export class Spans {
  readonly #text: string;
  readonly #isEnd: (c: number) => boolean;
  #start = 0;
  #end = -1; // the current span is [#start, #end]: #end is its end mark, or the text's length
  /** Per pattern: where its first and its last match in the current span start (-1: none). */
  readonly #found = new Map<RegExp, readonly [number, number]>();

  constructor(text: string, isEnd: (c: number) => boolean) {
    this.#text = text;
    this.#isEnd = isEnd;
  }

  #seek(offset: number): void {
    if (offset >= this.#start && offset <= this.#end) return;
    const text = this.#text;
    // Offsets increase: the span holding `offset` starts after the last end mark before it, which
    // lies after the current span (a smaller offset would start the scan from the text's start).
    const floor = offset > this.#end ? this.#end + 1 : 0;
    let start = offset;
    while (start > floor && !this.#isEnd(text.charCodeAt(start - 1))) start--;
    let end = offset;
    while (end < text.length && !this.#isEnd(text.charCodeAt(end))) end++;
    this.#start = start;
    this.#end = end;
    this.#found.clear();
  }

  /** The character that ends the span holding `offset` (NaN at the text's end). */
  endMark(offset: number): number {
    this.#seek(offset);
    return this.#text.charCodeAt(this.#end);
  }

  #matches(re: RegExp): readonly [number, number] {
    let found = this.#found.get(re);
    if (found === undefined) {
      let first = -1;
      let last = -1;
      for (const m of this.#text.slice(this.#start, this.#end).matchAll(re)) {
        if (first === -1) first = this.#start + m.index;
        last = this.#start + m.index;
      }
      this.#found.set(re, (found = [first, last]));
    }
    return found;
  }

  /** True when a match of `re` (global) starts in the span holding `offset`, before `offset`. */
  before(offset: number, re: RegExp): boolean {
    this.#seek(offset);
    const first = this.#matches(re)[0];
    return first !== -1 && first < offset;
  }

  /** True when a match of `re` (global) starts in the span holding `offset`, at or after `offset`. */
  after(offset: number, re: RegExp): boolean {
    this.#seek(offset);
    return this.#matches(re)[1] >= offset;
  }
}

/** The sentence and clause spans of one text and its retrieved passages (read at first use), for the callbacks below. */
export class Context {
  readonly #text: string;
  readonly sentences: Spans;
  readonly clauses: Spans;
  #passages: Passages | undefined;

  constructor(text: string) {
    this.#text = text;
    this.sentences = new Spans(text, isSentenceEnd);
    this.clauses = new Spans(text, isClauseEnd);
  }

  /** True when `offset` is inside a retrieved passage. */
  inPassage(offset: number): boolean {
    return (this.#passages ??= new Passages(this.#text)).at(offset) !== 0;
  }
}
