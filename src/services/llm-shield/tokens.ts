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
  /** proper word prefixes of multi-word phrases ("you", "you are" for "you are a") */
  readonly phraseStarts: ReadonlySet<string>;
  /** the same for the ROT13 spellings */
  readonly rotPhraseStarts: ReadonlySet<string>;
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
  const explicit = new Set<string>();
  for (const [, entries] of lists) for (const raw of entries) explicit.add(fold(raw));
  const rot = new Map<string, number>();
  const starts = new Set<string>();
  const rotStarts = new Set<string>();
  for (const [bit, entries] of lists) {
    for (const raw of entries) {
      const w = fold(raw);
      // Inflected forms are stored up front, so a lookup is a single Map.get per token. The base
      // form wins: an inflection never overrides a word that is listed itself.
      for (const form of inflections(w)) {
        if (form !== w && explicit.has(form)) continue;
        words.set(form, (words.get(form) ?? 0) | bit);
        const r = rot13(form);
        rot.set(r, (rot.get(r) ?? 0) | bit);
      }
      // only the last word of a phrase inflects, so its proper prefixes are fixed
      const parts = w.split(' ');
      for (let k = 1; k < parts.length; k++) {
        const prefix = parts.slice(0, k).join(' ');
        starts.add(prefix);
        rotStarts.add(rot13(prefix));
      }
    }
  }
  return { words, rot13: rot, phraseStarts: starts, rotPhraseStarts: rotStarts };
}

/** Lexicon entries are written like the fold view reads: lower case, no diacritics, ' and - as spaces. */
function fold(raw: string): string {
  return raw.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/ł/g, 'l').replace(/ß/g, 'ss').replace(/['’-]/g, ' ').replace(/ +/g, ' ').trim();
}

/** The word and its regular English inflections (-s, -es, -ed, -d, -ing, -ly; "ignore" -> "ignoring"). Phrases inflect their last word. */
function inflections(w: string): string[] {
  const sp = w.lastIndexOf(' ');
  const head = sp >= 0 ? w.slice(0, sp + 1) : '';
  const last = sp >= 0 ? w.slice(sp + 1) : w;
  if (last.length < 3) return [w];
  const forms = [last, last + 's', last + 'es', last + 'ed', last + 'd', last + 'ing', last + 'ly'];
  if (last.endsWith('e')) forms.push(last.slice(0, -1) + 'ing', last.slice(0, -1) + 'ed');
  return forms.map((f) => head + f);
}

function isStopCode(c: number): boolean {
  return c === 46 || c === 33 || c === 63 || c === 59 || c === 58 || c === 10;
}

function phraseCats(map: ReadonlyMap<string, number>, prefixes: ReadonlySet<string>, words: readonly string[], t: number, count: number): number {
  let bits = 0;
  let phrase = words[t]!;
  for (let k = t + 1; k < count && k <= t + 3; k++) {
    phrase += ' ' + words[k]!;
    bits |= map.get(phrase) ?? 0;
    if (!prefixes.has(phrase)) break;
  }
  return bits;
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
    const hit = lex.words.get(w);
    cats[t] = hit ?? 0;
    // a word of the plain lexicon is not read as ROT13 (saves a lookup per known word)
    rotCats[t] = hit === undefined && w.length >= 3 ? (lex.rot13.get(w) ?? 0) : 0;
    const gapEnd = t + 1 < count ? start[t + 1]! : n;
    for (let k = end[t]!; k < gapEnd && k < end[t]! + 8; k++) {
      if (isStopCode(s.charCodeAt(k))) {
        stop[t] = 1;
        break;
      }
    }
    // phrases: extend only while the words so far are a known phrase prefix
    if (t + 1 < count && lex.phraseStarts.has(w)) cats[t]! |= phraseCats(lex.words, lex.phraseStarts, words, t, count);
    if (t + 1 < count && lex.rotPhraseStarts.has(w)) rotCats[t]! |= phraseCats(lex.rot13, lex.rotPhraseStarts, words, t, count);
  }
  return { count, start: start.subarray(0, count), end: end.subarray(0, count), cats, rotCats, words, stop };
}
