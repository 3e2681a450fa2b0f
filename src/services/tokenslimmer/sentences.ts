/**
 * Sentences of a line for the de-duplication of `balanced` (dedupe.ts): one scanner that reads
 * each character once (Sentences), the framing that opens each few-shot turn (TurnLeads) and the
 * last sentence kept in a turn (LastSentence).
 */
import { SeenSet } from './seen-set.ts';

const LEAD_MIN_WORDS = 5;
/** Framing opens a turn: only a turn's first sentences are compared and remembered. */
const LEAD_MAX_SENTENCES = 16;

/**
 * The framing of few-shot turns: the leading sentences of a turn (a labelled line and the lines
 * that continue it up to the next label or blank line) that one of the first sentences of an
 * earlier turn with the same label already said word for word (each of 5+ words). Only a run from
 * the turn's start goes, and never a turn's last sentence: what the framing leads to stays. The
 * first LEAD_MAX_SENTENCES sentences of every turn are remembered for later turns.
 */
export class TurnLeads {
  /** Labels seen so far and their turns' remembered sentences (a prompt has few labels: a linear scan, no hashing). */
  readonly #labels: string[] = [];
  readonly #remembered: SeenSet[] = [];
  /** The current turn's label's remembered sentences; undefined outside a turn. */
  #known: SeenSet | undefined;
  /** Sentences of the current turn so far. */
  #count = 0;
  /** Everything of the current turn so far was dropped as said before. */
  #dropping = false;

  /** `sentences`: the sentence walker of the de-duplication (one per call). */
  constructor(readonly sentences: Sentences) {}

  start(label: string): void {
    let k = this.#labels.indexOf(label);
    if (k === -1) {
      k = this.#labels.push(label) - 1;
      this.#remembered.push(new SeenSet());
    }
    this.#known = this.#remembered[k];
    this.#count = 0;
    this.#dropping = true;
  }

  end(): void {
    this.#known = undefined;
  }

  /** `text` of the current turn went as a whole (a repeated line): its sentences count, the run goes on. */
  skip(text: string): void {
    if (this.#known === undefined) return;
    this.sentences.of(text);
    for (let at = 0; this.#count < LEAD_MAX_SENTENCES && at < text.length; this.#count++) {
      at = this.sentences.end(at);
      if (!isEndMark(text.charCodeAt(trimmedEnd(text, 0, at) - 1))) break;
    }
  }

  /**
   * The next line's text of the current turn without its leading sentences said before;
   * `continues`: the turn goes on in a next line; `head`: the line's label (it belongs to the
   * first sentence) or ''. A cut never leaves the line opening with a sentence that, read with the
   * label, opened an earlier turn: the next pass would drop that one too, which the retention
   * checker reads as a sentence of its own.
   */
  feed(text: string, continues: boolean, head: string): string {
    const known = this.#known;
    if (known === undefined || this.#count >= LEAD_MAX_SENTENCES) return text;
    this.sentences.of(text);
    let at = 0;
    let cut = 0; // the end of the dropped run where it is safe to cut
    let run = 0; // the end of the dropped run
    for (;;) {
      if (at >= text.length) {
        if (run === at) cut = run; // the whole text goes: nothing comes to open the line
        break;
      }
      const end = this.sentences.end(at);
      const stop = trimmedEnd(text, at, end);
      const terminated = isEndMark(text.charCodeAt(stop - 1));
      if (run === at && run > 0 && (head === '' || !known.has(head + text.slice(at, stop)))) cut = run;
      if (!terminated || this.#count >= LEAD_MAX_SENTENCES) {
        if (!terminated) this.#dropping = false; // an unterminated tail is never framing
        break;
      }
      this.#count++;
      if (!hasWordsIn(text, at, stop, LEAD_MIN_WORDS)) {
        this.#dropping = false;
        at = end;
        continue;
      }
      const key = at === 0 ? head + text.slice(0, stop) : text.slice(at, stop);
      const said = !known.add(key);
      if (this.#dropping && (end < text.length || continues) && said) run = end;
      else this.#dropping = false;
      at = end;
    }
    if (cut < run) this.#dropping = false;
    return cut === 0 ? text : text.slice(cut);
  }
}

/**
 * Where the sentences of a text end: `end(at)` is the end of the sentence that starts at `at`,
 * after its end marks (. ! ?) and the blanks that follow them, or the text's end (the same
 * sentences as the regex /[.!?]+(?:[ \t]+|$)/g, without a match object). The next position of each mark is found
 * with indexOf and kept until the walk passes it, so a text is searched once per mark (about six
 * times as fast as testing every character).
 */
export class Sentences {
  #text = '';
  #dot = -1;
  #bang = -1;
  #question = -1;

  /** Starts a walk over `text`; returns it. */
  of(text: string): string {
    this.#text = text;
    this.#dot = this.#bang = this.#question = -1;
    return text;
  }

  end(at: number): number {
    const text = this.#text;
    const n = text.length;
    for (let i = at; ; ) {
      if (this.#dot < i) this.#dot = nextOf(text, '.', i);
      if (this.#bang < i) this.#bang = nextOf(text, '!', i);
      if (this.#question < i) this.#question = nextOf(text, '?', i);
      const p = Math.min(this.#dot, this.#bang, this.#question);
      if (p >= n) return n;
      let j = p + 1;
      let c = 0;
      while (j < n && ((c = text.charCodeAt(j)) === 46 || c === 33 || c === 63)) j++;
      if (j === n) return n;
      if (c !== 32 && c !== 9) {
        i = j; // marks inside a word ("e.g", "3.5"): go on after them
        continue;
      }
      while (j < n && ((c = text.charCodeAt(j)) === 32 || c === 9)) j++;
      return j;
    }
  }
}

/** The first index of `mark` in `text` from `from` on, or the text's length. */
export function nextOf(text: string, mark: string, from: number): number {
  const i = text.indexOf(mark, from);
  return i === -1 ? text.length : i;
}

export const isEndMark = (c: number): boolean => c === 46 || c === 33 || c === 63;

/** `end` without the blanks before it. */
export function trimmedEnd(text: string, start: number, end: number): number {
  while (end > start && (text.charCodeAt(end - 1) === 32 || text.charCodeAt(end - 1) === 9)) end--;
  return end;
}

/** True when text[start, stop) has at least `n` space-separated words (spaces are collapsed by then). */
export function hasWordsIn(text: string, start: number, stop: number, n: number): boolean {
  let words = 1;
  for (let i = text.indexOf(' ', start); i !== -1 && i < stop; i = text.indexOf(' ', i + 1)) if (++words >= n) return true;
  return words >= n;
}

/**
 * The last sentence kept so far in the current turn (for "said twice in a row"), as a place in a
 * line's text: its lower-case key is built only when a sentence of the same length comes.
 */
export class LastSentence {
  #text = '';
  #head = '';
  #start = 0;
  #stop = -1;

  clear(): void {
    this.#stop = -1;
  }

  set(text: string, head: string, start: number, stop: number): void {
    this.#text = text;
    this.#head = start === 0 ? head : '';
    this.#start = start;
    this.#stop = stop;
  }

  /** Its length with its label, or -1 when there is none. */
  get length(): number {
    return this.#stop === -1 ? -1 : this.#head.length + this.#stop - this.#start;
  }

  key(): string {
    return (this.#head + this.#text.slice(this.#start, this.#stop)).toLowerCase();
  }
}
