/**
 * What the prose rules share: word patterns built from phrase tables (word edges, tries), tests of
 * where a match stands (sentence or clause start, after a number, inside a hyphenated word), and
 * the line marks core.ts puts on lines while the rules run.
 */
import { NEGATION_WORDS } from './phrases.ts';

export const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A literal phrase whose spaces match any run of spaces/tabs and whose apostrophes match ' or ’. */
export const phrase = (s: string): string => escape(s).replace(/ /g, '[ \\t]+').replace(/'/g, "['’]");
export const capitalised = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);
/**
 * A word in lower case or capitalised as one alternative, "[tT]he" for "the|The": the same matches in
 * the same order of preference, and V8 scans the class form 10-20% faster.
 */
export const lowerOrCapitalised = (w: string): string => (/^[a-z]/.test(w) ? `[${w[0]}${w[0]!.toUpperCase()}]${w.slice(1)}` : `${w}|${capitalised(w)}`);
export const byLengthDesc = (a: string, b: string): number => b.length - a.length || (a < b ? -1 : 1);

// Word edges. No lookbehind at the start of a pattern: V8 then cannot skip ahead by the first
// character and a pattern costs 2-3x more. The left edge is checked in the replace callback instead
// (`joined`): a match right after a hyphen or apostrophe ("well-being", "o'the") is left alone.
// JavaScript's \b knows ASCII letters only: "García said" has an edge between "í" and "a", and
// the article rule would take that "a". The right edge therefore also refuses a following
// letter of the Latin, Greek or Cyrillic blocks or a combining mark, and `joined` refuses a match
// right after any non-ASCII letter or mark.
export const WORD_START = String.raw`\b`;
export const WORD_END = String.raw`\b(?![-'’\u00AA\u00B5\u00BA\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u052F\u1E00-\u1FFF])`;
/**
 * Line-start marks that core.ts puts on every non-blank line while the rules run: LINE_MARK on a
 * speaker turn of the input that says something ("Bob: um {vocalsound}"), LABEL_LINE_MARK on
 * every other line.
 */
export const LINE_MARK = '\u0002';
export const LABEL_LINE_MARK = '\u0003';
/** Start of a line that a removed block tag (<p>, <br>) split off: not a line of the input. */
export const SPLIT_MARK = '\u0004';
/** Capitalise-the-next-word mark left where a sentence-initial filler was removed. */
export const CAP_MARK = '\u0001';

/** Lower-case key of a phrase with its whitespace collapsed. */
export const phraseKey = (s: string): string => s.toLowerCase().replace(/[ \t]+/g, ' ').replace(/’/g, "'");

interface TrieNode {
  end: boolean;
  next: Map<string, TrieNode>;
}

/**
 * A regular-expression source matching any of `phrases` (lower case), as a character trie: one
 * branch per shared prefix ("in (?:order to|spite of|…)") instead of a flat alternation, so a
 * position that cannot start a phrase fails at its first character. Longer phrases win: a node that
 * ends a phrase and continues makes the continuation optional and greedy. Spaces match any run of
 * spaces/tabs and apostrophes ' or ’, as `phrase` does.
 */
export function trieSource(phrases: readonly string[]): string {
  const root: TrieNode = { end: false, next: new Map() };
  for (const p of phrases) {
    let node = root;
    for (const c of p) {
      let child = node.next.get(c);
      if (child === undefined) node.next.set(c, (child = { end: false, next: new Map() }));
      node = child;
    }
    node.end = true;
  }
  const atom = (c: string): string => (c === ' ' ? '[ \\t]+' : c === "'" ? "['’]" : escape(c));
  const emit = (node: TrieNode): string => {
    const branches = [...node.next].sort(([a], [b]) => (a < b ? -1 : 1)).map(([c, child]) => atom(c) + emit(child));
    if (branches.length === 0) return '';
    const body = branches.length === 1 ? branches[0]! : `(?:${branches.join('|')})`;
    return node.end ? `(?:${body})?` : body;
  };
  return emit(root);
}

export const isLetter = (c: number): boolean => ((c | 0x20) >= 97 && (c | 0x20) <= 122);
export const isWordChar = (c: number): boolean => isLetter(c) || (c >= 48 && c <= 57) || c === 95;

/** The lower-case word that ends right before `offset` (spaces skipped), or ''. */
export function previousWord(all: string, offset: number): string {
  let end = offset;
  while (end > 0 && (all.charCodeAt(end - 1) === 32 || all.charCodeAt(end - 1) === 9)) end--;
  let start = end;
  while (start > 0 && start > end - 16) {
    const c = all.charCodeAt(start - 1) | 0x20;
    if (c < 97 || c > 122) break;
    start--;
  }
  return all.slice(start, end).toLowerCase();
}

/** True when the match at `offset` continues a hyphenated or apostrophised word. */
export function joined(all: string, offset: number): boolean {
  const c = all.charCodeAt(offset - 1);
  return c === 45 /* - */ || c === 39 /* ' */ || c === 0x2019 || (c >= 0xaa && LETTER_OR_MARK_RE.test(all[offset - 1]!));
}
const LETTER_OR_MARK_RE = /[\p{L}\p{M}]/u;

/** True when `offset` starts a sentence: text start, line start, or after . ! ? : (spaces skipped). */
export function atSentenceStart(all: string, offset: number): boolean {
  let i = offset - 1;
  while (i >= 0 && (all.charCodeAt(i) === 32 || all.charCodeAt(i) === 9)) i--;
  if (i < 0) return true;
  const c = all[i]!;
  return c === '.' || c === '!' || c === '?' || c === ':' || c === '\n' || c === LINE_MARK || c === LABEL_LINE_MARK || c === SPLIT_MARK || c === CAP_MARK;
}

/** True when `offset` starts a clause: a sentence start or after , ; */
export function atClauseStart(all: string, offset: number): boolean {
  let i = offset - 1;
  while (i >= 0 && (all.charCodeAt(i) === 32 || all.charCodeAt(i) === 9)) i--;
  return i < 0 || all[i] === ',' || all[i] === ';' || atSentenceStart(all, offset);
}

/** After a number or a protected span (placeholder): "7 mm" is a unit, not a disfluency. */
const HORIZONTAL_SPACE_RE = /[ \t\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]/;

export function afterNumber(all: string, offset: number): boolean {
  let i = offset - 1;
  while (i >= 0 && HORIZONTAL_SPACE_RE.test(all[i]!)) i--; // also no-break spaces: "7\u00A0mm"
  const c = all.charCodeAt(i);
  return (c >= 48 && c <= 57) || c === 0x0f; // \x0F ends a placeholder
}

export const NEGATION_WORD_RE = new RegExp(String.raw`\b(?:${NEGATION_WORDS.join('|')})\b|n['’]t\b`, 'i');
