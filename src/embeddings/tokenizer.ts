/**
 * The cache's own tokenizer: Unicode NFKC, lower case, words and numbers, English contractions
 * expanded ("can't" -> "can" + negation), stop words dropped, simple plural/verb folding.
 * Everything is precompiled at module load (immutable tables only).
 */

/** English function words: they carry no topic, so they neither embed nor need a counterpart. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or but if then else so than that this these those there here of in on at by for with about against between into ' +
    'through during before after above below to from up down out off over under again further once i me my myself we our ours ' +
    'ourselves you your yours yourself yourselves he him his himself she her hers herself it its itself they them their theirs ' +
    'themselves am is are was were be been being have has had having do does did doing would should could ought will shall ' +
    'may might must can also just very too s t d ll m re ve y as such both each few more most other some own same only any ' +
    'all every whom whose which who what when where why how because while until nor please hi hello thanks thank ' +
    'let lets get got like want need know tell give say said says one ones something anything someone anyone thing things mr mrs ms'
  ).split(' '),
);

/** Words that flip meaning. Compared as a set difference between the two sides. */
export const NEGATIONS: ReadonlySet<string> = new Set(['not', 'no', 'never', 'nor', 'none', 'nobody', 'nothing', 'nowhere', 'neither', 'without', 'cannot']);

/** Question words are kept apart: "how" vs "why" asks for a different answer. */
export const QUESTION_WORDS: ReadonlySet<string> = new Set(['what', 'when', 'where', 'why', 'how', 'who', 'which', 'whom', 'whose']);

/**
 * Reporting words of news attribution ("…, the company said in a statement", "according to
 * officials", "he told reporters"): the words around them name a source, not what was said, and
 * paraphrases keep, drop or change them freely.
 */
export const REPORTING_WORDS: ReadonlySet<string> = new Set(
  'said says say saying told tells tell according added adds reported stated noted explained commented quoted'.split(' '),
);
/**
 * Stop words that give two content words a direction ("from X to Y", "X than Y", "X before Y"):
 * swapping the words around one of them changes the answer ("convert USD to EUR" vs "convert EUR
 * to USD"). Kept in `Tokens.sequence` for verify.ts's order rule.
 */
export const ORDER_MARKERS: ReadonlySet<string> = new Set(['to', 'into', 'than', 'from', 'before', 'after', 'against']);

/** Tokens on either side of a reporting word that count as its attribution (statements only). */
export const ATTRIBUTION_WINDOW = 5;

const AUXILIARIES: ReadonlySet<string> = new Set(['can', 'could', 'do', 'does', 'did', 'is', 'are', 'was', 'were', 'will', 'would', 'should', 'shall', 'may', 'might', 'have', 'has', 'had']);

const CONTRACTIONS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bcan['’]t\b/g, 'can not'],
  [/\bwon['’]t\b/g, 'will not'],
  [/\bshan['’]t\b/g, 'shall not'],
  [/\bain['’]t\b/g, 'is not'],
  [/n['’]t\b/g, ' not'],
  [/['’](s|re|ve|ll|d|m)\b/g, ''],
];

/** A number keeps its decimal point and thousands separators ("3.5", "1,200"); a word never swallows one ("nelson,27"). */
const WORD = /[\p{L}\p{N}]*\p{N}(?:[.,]\p{N}+)+|[\p{L}\p{N}]+/gu;
/** Dotted abbreviations become one word ("U.S." -> "us", "U.N." -> "un"), as they are written without dots. */
const ABBREVIATION = /(?<![\p{L}\p{N}])(\p{L})\.((?:\p{L}\.)+)/gu;

const SYMBOL_NAME_WORDS: Readonly<Record<string, string>> = { 'c++': 'cplusplus', 'c#': 'csharp', 'f#': 'fsharp', '.net': 'dotnet' };
const SYMBOL_NAMES = /(?<![\p{L}\p{N}])(?:c\+\+|c#|f#|\.net)(?![\p{L}\p{N}])/gu;

export interface Tokens {
  /** Every word token in order (stop words included), lower case, contractions expanded. */
  readonly all: readonly string[];
  /** Content words: not stop words, not negations, not question words. */
  readonly content: readonly string[];
  /** Per content word: within ATTRIBUTION_WINDOW tokens of a reporting word in a statement. */
  readonly attributed: readonly boolean[];
  /** Negation words present (after contraction expansion). */
  readonly negated: boolean;
  /** The question word that opens a question ("how", "why"...); null for statements. */
  readonly question: string | null;
  /** Content words and ORDER_MARKERS in text order; a marker is written with a leading '>'. */
  readonly sequence: readonly string[];
  /** "by" occurs (a passive may name the agent after the verb: no swap around a content word). */
  readonly passive: boolean;
  /** Per content word: written capitalised inside a sentence, or as an acronym (a name: properNouns). */
  readonly proper: readonly boolean[];
  /** Grammatical persons present (PERSON bits: 1 first, 2 second, 4 third): who the text is about. */
  readonly persons: number;
  /** Question marks and coordinations ("and", "or", ";"): a text asking several things has more. */
  readonly clauses: number;
  /**
   * The symbols that carry meaning, in text order, space-separated (symbolSignature): "O+" is not
   * "O-", "5%" not "5", "==" not "===". Empty when there are none.
   */
  readonly symbols: string;
}

/** Runs of characters that are neither letters, digits nor spaces. */
const NON_WORD_RUN = /[^\p{L}\p{N}\s]+/gu;
/** Characters that make a run count: math symbols, currencies, percent, braces. */
const MEANINGFUL = /[\p{Sm}\p{Sc}%{}]/u;
/** A single one of these between two words joins them ("e-mail", "km/h", "Wolfram|Alpha"). */
const JOINERS = /^[-/|_]$/u;
/** Sentence punctuation trimmed from a counted run ("$?" -> "$"; a leading ":" as in ":=" stays). */
const TRAILING_PUNCT = /[.,!?;:"'’”)\]]+$/u;
const LEADING_PUNCT = /^["'‘“(\[;,.]+/u;

/**
 * The symbols of a text that change what it asks, each run as written: runs holding a math
 * symbol, a currency, %, { or }, and a "-" after a one-character word ("O-", "C-") or before
 * a number ("-5"). A hyphen, slash or bar between two words ("e-mail", "km/h") and plain
 * punctuation do not count: the word tokens already tell those texts apart, or they mean the same.
 */
export function symbolSignature(text: string): string {
  const out: string[] = [];
  for (const m of text.matchAll(NON_WORD_RUN)) {
    const run = m[0];
    const before = m.index > 0 && /[\p{L}\p{N}]/u.test(text[m.index - 1]!);
    const end = m.index + run.length;
    const after = end < text.length && /[\p{L}\p{N}]/u.test(text[end]!);
    if (before && after && JOINERS.test(run)) continue;
    if (MEANINGFUL.test(run)) {
      const kept = run.replace(TRAILING_PUNCT, '').replace(LEADING_PUNCT, '');
      out.push(kept === '' ? run : kept);
    } else if (run === '-') {
      // "O-" (a one-character word before it), "-5" (a number after it, nothing before).
      const single = before && !after && (m.index < 2 || !/[\p{L}\p{N}]/u.test(text[m.index - 2]!));
      const negative = !before && end < text.length && /\p{N}/u.test(text[end]!);
      if (single || negative) out.push('-');
    }
  }
  return out.join(' ');
}

/** Pronouns by grammatical person (bit 1: I/we, 2: you, 4: he/she/they). */
const PERSON: ReadonlyMap<string, number> = new Map([
  ...'i me my mine myself we us our ours ourselves'.split(' ').map((w) => [w, 1] as const),
  ...'you your yours yourself yourselves'.split(' ').map((w) => [w, 2] as const),
  ...'he him his himself she her hers herself they them their theirs themselves'.split(' ').map((w) => [w, 4] as const),
]);

/**
 * Question words whose next word changes the kind of answer: "how many" asks for a count, "how
 * long" for a duration; plain "how" for a way. The pair becomes the question word.
 */
const HOW_NEXT: Readonly<Record<string, string>> = { many: 'how many', much: 'how many', long: 'how long', often: 'how long', old: 'how old', far: 'how far' };

/** Above this share of capitalised words a text is in title case or shouting: no word counts as a name. */
const TITLE_CASE_SHARE = 0.5;

/**
 * Lower-cased words written as names: capitalised not at the start of a sentence ("I use Windows"),
 * or two or more capitals ("NASA", "iOS" counts by its inner capital). Empty for title case.
 */
function properNouns(text: string): Set<string> {
  const out = new Set<string>();
  // Title case: most words inside sentences capitalised (acronyms aside).
  let inner = 0;
  let innerCapitalised = 0;
  for (const m of text.matchAll(WORD)) {
    const w = m[0];
    const upper = w.replace(/[^\p{Lu}]/gu, '').length;
    // Sentence start: nothing but spaces, quotes or brackets since the last . ! ? : or the text start.
    let j = m.index - 1;
    while (j >= 0 && /[\s"'“‘(\[]/.test(text[j]!)) j--;
    const initial = j < 0 || /[.!?:]/.test(text[j]!);
    if (!initial && upper <= 1) {
      inner++;
      if (upper === 1) innerCapitalised++;
    }
    if (upper === 0 || w === 'I') continue;
    if (upper >= 2 || !initial) out.add(w.toLowerCase());
  }
  if (inner >= 3 && innerCapitalised > inner * TITLE_CASE_SHARE) out.clear();
  return out;
}

/** Splits text into word tokens; see the module comment. */
export function tokenize(text: string): Tokens {
  const nfkc = text.normalize('NFKC');
  const names = properNouns(nfkc);
  let t = nfkc.toLowerCase();
  for (const [re, rep] of CONTRACTIONS) t = t.replace(re, rep);
  t = t.replace(ABBREVIATION, (_, first: string, rest: string) => first + rest.replaceAll('.', ''));
  // Names written with symbols the word pattern would drop ("C++" is not "C").
  t = t.replace(SYMBOL_NAMES, (m) => SYMBOL_NAME_WORDS[m] ?? m);
  const all = t.match(WORD) ?? [];
  const content: string[] = [];
  const attributed: boolean[] = [];
  const proper: boolean[] = [];
  let question: string | null = null;
  let negated = false;
  let passive = false;
  let persons = 0;
  let clauses = (t.match(/[?;]+/g) ?? []).length;
  const sequence: string[] = [];
  // Only a question's leading wh-word decides the kind of answer; a relative "who" does not.
  const isQuestion = /\?\s*$/.test(t) || (all.length > 0 && (QUESTION_WORDS.has(all[0]!) || AUXILIARIES.has(all[0]!)));
  // Last token index of a reporting word so far, and the next one ahead (statements only).
  let lastReport = -Infinity;
  let nextReport = isQuestion ? Infinity : all.findIndex((w) => REPORTING_WORDS.has(w));
  if (nextReport < 0) nextReport = Infinity;
  for (let i = 0; i < all.length; i++) {
    const w = all[i]!;
    if (i === nextReport) {
      lastReport = i;
      nextReport = Infinity;
      for (let j = i + 1; j < all.length; j++) {
        if (REPORTING_WORDS.has(all[j]!)) {
          nextReport = j;
          break;
        }
      }
    }
    persons |= PERSON.get(w) ?? 0;
    if (w === 'and' || w === 'or') clauses++;
    if (NEGATIONS.has(w)) negated = true;
    else if (QUESTION_WORDS.has(w)) {
      if (isQuestion && question === null) question = (w === 'how' ? HOW_NEXT[all[i + 1] ?? ''] : undefined) ?? w;
    } else if (!STOP_WORDS.has(w)) {
      content.push(w);
      proper.push(names.has(w));
      sequence.push(w);
      attributed.push(i - lastReport <= ATTRIBUTION_WINDOW || nextReport - i <= ATTRIBUTION_WINDOW);
    } else if (ORDER_MARKERS.has(w)) sequence.push('>' + w);
    else if (w === 'by') passive = true;
  }
  return { all, content, attributed, negated, question, sequence, passive, proper, persons, clauses, symbols: symbolSignature(t) };
}

/**
 * Plural/verb folding to a key shared by inflected forms ("passwords" -> "password",
 * "resetting" -> "reset", "cities" -> "city"). `known` says whether a candidate is a word (the
 * embedding vocabulary); the first known candidate wins, else the word itself.
 */
export function fold(word: string, known: (w: string) => boolean): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  const c: string[] = [];
  if (word.endsWith('ies') && word.length > 4) c.push(word.slice(0, -3) + 'y');
  if (word.endsWith('ied') && word.length > 4) c.push(word.slice(0, -3) + 'y');
  if (/(?:ss|sh|ch|x|z|o)es$/.test(word)) c.push(word.slice(0, -2));
  if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') && !word.endsWith('is')) c.push(word.slice(0, -1));
  if (word.endsWith('ing') && word.length > 5) {
    const stem = word.slice(0, -3);
    if (/([^aeiou])\1$/.test(stem)) c.push(stem.slice(0, -1));
    c.push(stem, stem + 'e');
  }
  if (word.endsWith('ed') && word.length > 4) {
    const stem = word.slice(0, -2);
    if (/([^aeiou])\1$/.test(stem)) c.push(stem.slice(0, -1));
    c.push(stem, stem + 'e', word.slice(0, -1));
  }
  for (const cand of c) if (cand.length >= 3 && known(cand)) return cand;
  return word;
}
