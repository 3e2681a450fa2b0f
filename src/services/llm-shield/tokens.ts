/**
 * Word tokens of the fold view, each tagged with a bit set of lexical categories. The lexical
 * rule families combine categories inside small token windows ("an override verb, then within six
 * words a scope word and an instruction noun"), which generalises past fixed phrasings and runs
 * in O(tokens x window).
 *
 * Phrases (up to four words) are looked up too: the category lands on the phrase's first token
 * and `span` says how many tokens it covers.
 */
import { isWordCode, type View } from './normalize.ts';

export interface Lexicon {
  /** word or phrase (lower case, words joined by one space) -> category bits */
  readonly words: ReadonlyMap<string, number>;
  /** same entries under their ROT13 spelling, to spot ROT13-encoded instructions */
  readonly rot13: ReadonlyMap<string, number>;
  /** first words of multi-word phrases */
  readonly phraseStarts: ReadonlySet<string>;
}

export interface Tokens {
  readonly count: number;
  readonly start: Int32Array;
  readonly end: Int32Array;
  readonly cats: Uint32Array;
  /** categories found when reading each token as ROT13 */
  readonly rotCats: Uint32Array;
  readonly words: string[];
  /** true when the token is followed by sentence punctuation (. ! ? ; :) before the next token */
  readonly stop: Uint8Array;
}

export function rot13(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 97 && c <= 122) out += String.fromCharCode(((c - 97 + 13) % 26) + 97);
    else if (c >= 65 && c <= 90) out += String.fromCharCode(((c - 65 + 13) % 26) + 65);
    else out += s[i];
  }
  return out;
}

/** Builds a lexicon from `[categoryBit, entries]` lists; a word may carry several categories. */
export function buildLexicon(lists: readonly (readonly [number, readonly string[]])[]): Lexicon {
  const words = new Map<string, number>();
  const rot = new Map<string, number>();
  const starts = new Set<string>();
  for (const [bit, entries] of lists) {
    for (const raw of entries) {
      const w = raw.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/ł/g, 'l').replace(/ß/g, 'ss').replace(/['’-]/g, ' ').replace(/ +/g, ' ').trim();
      words.set(w, (words.get(w) ?? 0) | bit);
      const r = rot13(w);
      rot.set(r, (rot.get(r) ?? 0) | bit);
      const sp = w.indexOf(' ');
      if (sp > 0) {
        starts.add(w.slice(0, sp));
        starts.add(rot13(w.slice(0, sp)));
      }
    }
  }
  return { words, rot13: rot, phraseStarts: starts };
}

const SUFFIXES = ['s', 'es', 'ed', 'd', 'ing', 'ly'];

function lookup(map: ReadonlyMap<string, number>, w: string): number {
  const hit = map.get(w);
  if (hit !== undefined) return hit;
  if (w.length < 4) return 0;
  for (const suf of SUFFIXES) {
    if (w.endsWith(suf)) {
      const v = map.get(w.slice(0, w.length - suf.length));
      if (v !== undefined) return v;
    }
  }
  return 0;
}

function isStopCode(c: number): boolean {
  return c === 46 || c === 33 || c === 63 || c === 59 || c === 58 || c === 10;
}

/** Tokenises the fold view and tags each token. Linear in the view length. */
export function tokenize(view: View, lex: Lexicon): Tokens {
  const s = view.text;
  const n = s.length;
  let cap = 64;
  let start = new Int32Array(cap);
  let end = new Int32Array(cap);
  const words: string[] = [];
  let count = 0;
  for (let i = 0; i < n; ) {
    if (!isWordCode(s.charCodeAt(i))) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < n && isWordCode(s.charCodeAt(j))) j++;
    if (count === cap) {
      cap *= 2;
      const ns = new Int32Array(cap);
      ns.set(start);
      start = ns;
      const ne = new Int32Array(cap);
      ne.set(end);
      end = ne;
    }
    start[count] = i;
    end[count] = j;
    words.push(s.slice(i, j));
    count++;
    i = j;
  }
  const cats = new Uint32Array(count);
  const rotCats = new Uint32Array(count);
  const stop = new Uint8Array(count);
  for (let t = 0; t < count; t++) {
    const w = words[t]!;
    cats[t] = lookup(lex.words, w);
    rotCats[t] = lex.rot13.get(w) ?? 0;
    const gapEnd = t + 1 < count ? start[t + 1]! : n;
    for (let k = end[t]!; k < gapEnd && k < end[t]! + 8; k++) {
      if (isStopCode(s.charCodeAt(k))) {
        stop[t] = 1;
        break;
      }
    }
    if (t + 1 < count && lex.phraseStarts.has(w)) {
      const two = w + ' ' + words[t + 1]!;
      cats[t] |= lex.words.get(two) ?? 0;
      rotCats[t] |= lex.rot13.get(two) ?? 0;
      if (t + 2 < count) {
        const three = two + ' ' + words[t + 2]!;
        cats[t] |= lex.words.get(three) ?? 0;
        rotCats[t] |= lex.rot13.get(three) ?? 0;
        if (t + 3 < count) {
          const four = three + ' ' + words[t + 3]!;
          cats[t] |= lex.words.get(four) ?? 0;
          rotCats[t] |= lex.rot13.get(four) ?? 0;
        }
      }
    }
  }
  return { count, start: start.subarray(0, count), end: end.subarray(0, count), cats, rotCats, words, stop };
}
