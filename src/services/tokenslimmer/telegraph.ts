/**
 * The telegraphic pruning of `aggressive`: articles, forms of "to be", reduced relative clauses,
 * existential "there is", a perfect's "has", "if X, then Y", discourse markers and spoken fillers.
 * Each rule is a word pattern from phrases.ts; its exceptions are checked in the replace callback.
 */
import { DOC_HEADER_RE, Passages, shortenDocHeader } from './passages.ts';
import {
  ARTICLE_FIXED_NEXT,
  ARTICLES,
  BACKCHANNEL_WORDS,
  COMPLEMENTIZER_VERBS,
  DISCOURSE_MARKERS,
  ED_NON_PARTICIPLES,
  EXISTENTIAL_ADVERBS,
  EXISTENTIAL_AFTER,
  EXISTENTIAL_QUANTITY_WORDS,
  PERFECT_ADVERBS,
  PERFECT_HAVE_AFTER,
  PERFECT_NEXT,
  PERFECT_NOT_PLURAL,
  PERFECT_PARTICIPLES,
  PREPOSITION_WORDS,
  PRUNE_WORDS,
  RATE_UNITS,
} from './phrases.ts';
import { Context } from './spans.ts';
import {
  atClauseStart,
  atSentenceStart,
  CAP_MARK,
  joined,
  LINE_MARK,
  lowerOrCapitalised,
  phrase,
  previousWord,
  WORD_START,
} from './words.ts';

// Pruned only when a lower-case word follows: no sentence ends on a gap, names and numbers keep
// what precedes them. Capital "A" is never an article here: in prompts it is more often a variable.
export const PRUNE_RE = new RegExp(`${WORD_START}(?:${PRUNE_WORDS.map(lowerOrCapitalised).join('|')})[ \\t]+(?=[a-z])`, 'g');
export const ARTICLE_RE = new RegExp(`${WORD_START}(?:${ARTICLES.map((w) => (w === 'a' ? w : lowerOrCapitalised(w))).join('|')})[ \\t]+(?=([a-z]+))`, 'g');
/** ARTICLE_RE with a capital "A": for a text that uses no letter A as a name (usesLetterA). */
const ARTICLE_WITH_A_RE = new RegExp(`${WORD_START}(?:${ARTICLES.map(lowerOrCapitalised).join('|')})[ \\t]+(?=([a-z]+))`, 'g');
/**
 * A capital "A" that is no article: one before a word an article never precedes ("A and B", "A is
 * true", "A = not True"), before punctuation ("plugging in A, we get") or at a text's end; answer
 * labels ("A:") and options ("A.", "(A)", "A)") at a line's start do not count.
 */
const LETTER_A_RE = /\bA\b(?![ \t]+[a-z])|\bA[ \t]+([a-z]+)/g;
const LABEL_BEFORE_RE = /(?:^|\n)[\x01-\x07 \t]*\(?$/;

/** True when `text` uses "A" as a name somewhere (see LETTER_A_RE): then no capital "A" goes as an article. */
function usesLetterA(text: string): boolean {
  for (const m of text.matchAll(LETTER_A_RE)) {
    const next = m[1];
    if (next !== undefined) {
      if (ARTICLE_KEEP_BEFORE.has(next)) return true;
      continue;
    }
    const after = text.charCodeAt(m.index + 1);
    // "A:" "A." "A)" "(A)" opening a line: a label or an option.
    if ((after === 58 || after === 46 || after === 41) && LABEL_BEFORE_RE.test(text.slice(Math.max(0, m.index - 8), m.index))) continue;
    return true;
  }
  return false;
}

/** The articles of `text` pruned by articlePruner; a capital "A" too where the text uses no letter A as a name. */
export function pruneArticles(text: string): string {
  return text.replace(text.includes('A ') && !usesLetterA(text) ? ARTICLE_WITH_A_RE : ARTICLE_RE, articlePruner(text));
}
const PREPOSITIONS: ReadonlySet<string> = new Set(PREPOSITION_WORDS);
const BE_FORMS: ReadonlySet<string> = new Set(['is', 'are', 'was', 'were', 'am']);
/**
 * After these a form of "to be" stays: after a pronoun or relative pronoun "we are told" / "that
 * was built" would read as active verbs ("we told", "that built"); after a wh-word or "there" a
 * question or an existential loses its verb ("What capital?"); "the answer is" is the answer cue.
 */
const BE_KEPT_AFTER: ReadonlySet<string> = new Set([
  'i', 'you', 'he', 'she', 'it', 'we', 'they', 'that', 'which', 'who', 'whom', 'whose', 'this', 'these', 'those', 'what', 'where', 'when', 'why', 'how', 'there', 'here', 'answer',
]);
/**
 * "the answer is" stays whole: it is the answer-extraction cue of chain-of-thought prompts ("So the
 * answer is (A)."), and a model copies the demonstrations' wording.
 */
const ANSWER_CUE_RE = /^answer[ \t]+(?:is|was|are)\b/;
/** A form of "to be" before an article or a possessive stays (a noun predicate: "is a republic", "is our session"; see copulaToColon). */
const BEFORE_ARTICLE_RE = /^(?:the|a|an|my|your|his|her|its|our|their)[ \t]/;
const ARTICLE_KEEP_BEFORE: ReadonlySet<string> = new Set(ARTICLE_FIXED_NEXT);
/** Words after which a lower-case "a" is the letter, said as a word ("triple a", "plan a", "grade a", "type a"). */
const LETTER_A_BEFORE: ReadonlySet<string> = new Set(['triple', 'double', 'single', 'plan', 'grade', 'type', 'vitamin', 'option', 'class', 'group', 'exhibit', 'appendix', 'schedule', 'category', 'tier', 'series', 'section', 'part', 'building', 'block', 'wing', 'level', 'phase', 'model', 'size']);
const RATE_UNIT_SET: ReadonlySet<string> = new Set(RATE_UNITS);

/**
 * ", which was directed by" → ", directed by": a relative pronoun with a form of "to be" before a
 * lower-case word after a comma is a reduced relative clause (runs before the "to be" pruning,
 * which alone would leave ", which directed by", an active reading). Before a number (a
 * placeholder, also after "$") it leaves an apposition: "3 boxes of 12 pencils, which is 3 * 12 =
 * 36 pencils" → "…, 3 * 12 = 36 pencils"; "Tom, who is 30, …" → "Tom, 30, …".
 */
export const REDUCED_RELATIVE_RE = /,[ \t]+(?:which|who)[ \t]+(?:is|are|was|were)[ \t]+(?=[a-z]|\$?\x0E)(?!(?:what|why|how|when|where|who|whom|whose|which|that|the[ \t]+reason)\b)/g;

const YES_NO_NEXT_RE = /^(?:no|yes)\b/i;
/** "Okay , so , we start": a discourse marker set off by a comma at a clause start (aggressive drops it). */
export const DISCOURSE_MARKER_RE = new RegExp(String.raw`${WORD_START}(?:${DISCOURSE_MARKERS.map(lowerOrCapitalised).join('|')})[ \t]*,[ \t]*`, 'g');
// Not when a verb follows: then "that" is the subject ("I thought that was important").
export const COMPLEMENTIZER_RE = new RegExp(
  `${WORD_START}(${COMPLEMENTIZER_VERBS.join('|')})[ \\t]+that[ \\t]+(?=[A-Za-z])(?!(?:is|are|was|were|will|would|can|could|has|have|had|should|shall|must|may|might|does|did|do|seems?|seemed|makes?|made|means?|meant|sounds?|looks?|works?|worked|happens?|happened|goes|went|came|comes)\\b)`,
  'gi',
);

/**
 * The article rule of `aggressive` for one text: at a sentence start (and right after a passage
 * header) an article before a lower-case word goes; inside a sentence a lower-case article goes
 * unless the next word shows a variable or a quantity ("a is", "a few", "the most"), "a" means
 * "per" ("$12 an hour", phrases.ts RATE_UNITS), it opens the answer cue "the answer is", or,
 * inside a retrieved passage, it follows a preposition or a form of "to be" (prepositional
 * objects and noun predicates are where answers sit).
 */
function articlePruner(text: string): (m: string, next: string, offset: number, all: string) => string {
  const passages = new Passages(text);
  return (m, next, offset, all) => {
    if (joined(all, offset)) return m;
    const where = passages.at(offset);
    if (next === 'answer' && ANSWER_CUE_RE.test(all.slice(offset + m.length, offset + m.length + 12))) return m;
    // A quantity ("A little?" ≠ "Little?") or a letter ("^ a b", a citation's back-links) also at a sentence start.
    if (ARTICLE_KEEP_BEFORE.has(next) || next.length === 1) return m;
    // At a sentence start the next word takes the capital ("The valley is" → "Valley is").
    if (atSentenceStart(all, offset) || where === 2) return m.charCodeAt(0) <= 90 && where !== 2 ? CAP_MARK : '';
    if (m.charCodeAt(0) < 97) return m;
    if (m.charCodeAt(0) === 97 /* a, an */ && RATE_UNIT_SET.has(next)) return m; // "$12 an hour"
    const before = previousWord(all, offset);
    // "just the answers", "only the first": a restriction, which the intensifier rule keeps whole.
    if (before === 'just' || before === 'only') return m;
    // "triple a battery", "plan a", "vitamin a": the letter, said as a word.
    if (m.length <= 2 && next !== '' && LETTER_A_BEFORE.has(before)) return m;
    // A noun predicate keeps its article everywhere ("is a friend": without it the next pass would
    // drop the "is" and fuse the two noun phrases); a prepositional object keeps it in passages.
    if (BE_FORMS.has(before)) return m;
    return where !== 0 && PREPOSITIONS.has(before) ? m : '';
  };
}

/**
 * "The Nile is the longest river" → "The Nile: longest river" outside passages: a form of "to be"
 * before an article or a possessive ("is our session") links two noun phrases, and dropping both words would fuse them ("Nile
 * longest river"); a colon keeps the link for one token. Only once per sentence and only in a
 * sentence without a colon of its own (two colons would read as a list or a label), not in a
 * question; not after a
 * pronoun, a wh-word or "there" ("What is the", "There is a"), not at a sentence start, not
 * inside passages. Where it does not apply, the form of "to be" and the article both stay.
 */
const COPULA_BEFORE_ARTICLE_RE = /([^\s.!?:;,])[ \t]+(?:is|are|was|were)[ \t]+(?=(?:the|a|an|my|your|his|her|its|our|their)[ \t]+[A-Za-z0-9\x0E])/g;
/** How far the colon check looks for the sentence's ends; a longer sentence keeps its copulas. */
const SENTENCE_SCAN_MAX = 400;

/**
 * True when the sentence around `offset` is short enough to see whole, holds no colon and has
 * not had a copula turned into one already (`converted`: where the last conversion ended).
 */
function sentenceWithoutColon(all: string, offset: number, converted: number): boolean {
  for (let i = offset - 1; i >= 0; i--) {
    if (offset - i > SENTENCE_SCAN_MAX || i < converted) return false;
    const c = all[i];
    if (c === '.' || c === '!' || c === '?' || c === '\n') break;
    if (c === ':') return false;
  }
  for (let j = offset; j < all.length; j++) {
    if (j - offset > SENTENCE_SCAN_MAX) return false;
    const c = all[j];
    // A question keeps its words ("What time is the meeting?" is no "What time: meeting?").
    if (c === '?') return false;
    if (c === '.' || c === '!' || c === '\n') return true;
    if (c === ':') return false;
  }
  return true;
}

function copulaToColon(text: string): string {
  const passages = new Passages(text);
  let converted = -1; // end of the last copula turned into a colon: one per sentence
  return text.replace(COPULA_BEFORE_ARTICLE_RE, (m, last: string, offset: number, all: string) => {
    if (passages.at(offset) !== 0 || BE_KEPT_AFTER.has(previousWord(all, offset + 1))) return m;
    if (!sentenceWithoutColon(all, offset, converted)) return m;
    converted = offset + m.length;
    return `${last}: `;
  });
}

/**
 * Existential "there is/are/was/were" (or "there's") before a quantity: a number (a placeholder,
 * also after "$") or a word of phrases.ts EXISTENTIAL_QUANTITY_WORDS, with at most one adverb of
 * EXISTENTIAL_ADVERBS between ("there were originally 32"). Headline style drops it and keeps the
 * quantity: "so there are 42 - 30 = 12 muffins left" → "so 42 - 30 = 12 muffins left", "There is no
 * item to the left" → "No item to the left". Only where "there" opens a clause or follows a word of
 * EXISTENTIAL_AFTER ("so", "if", "means"): after a noun it may be a place ("the book there is 5
 * years old"). Never in a question, never for "is/are there" (inverted: a question), never when
 * a relative pronoun follows in the clause ("there are 2 samples that weigh…": no verb would be
 * left), never inside a retrieved passage (quoted as evidence).
 */
const EXISTENTIAL_RE = new RegExp(
  String.raw`\b[Tt]here(?:['’]s|[ \t]+(?:is|are|was|were))[ \t]+(?:(${EXISTENTIAL_ADVERBS.join('|')})[ \t]+)?(?=\$?\x0E|(?:${EXISTENTIAL_QUANTITY_WORDS.map(phrase).join('|')})\b(?![-'’]))`,
  'g',
);
const EXISTENTIAL_AFTER_SET: ReadonlySet<string> = new Set(EXISTENTIAL_AFTER);
const RELATIVE_PRONOUN_RE = /\b(?:that|who|whom|whose|which)\b/g;

function pruneExistential(m: string, adverb: string | undefined, offset: number, all: string, at: Context): string {
  if (joined(all, offset)) return m;
  const start = atSentenceStart(all, offset);
  if (!start && !atClauseStart(all, offset) && !EXISTENTIAL_AFTER_SET.has(previousWord(all, offset))) return m;
  if (at.sentences.endMark(offset) === 63 /* ? */ || at.clauses.after(offset + m.length, RELATIVE_PRONOUN_RE) || at.inPassage(offset)) return m;
  const kept = adverb === undefined ? '' : `${adverb} `;
  // A capitalised "There" opened the sentence: what follows it is capitalised (core.ts, CAP_MARK).
  return start && m.charCodeAt(0) === 84 /* T */ ? CAP_MARK + kept : kept;
}

/**
 * "has/have" of a perfect before a participle that is also the simple past (regular "-ed", or
 * phrases.ts PERFECT_PARTICIPLES), optionally after an adverb of PERFECT_ADVERBS: telegram style
 * drops the auxiliary ("She has already saved $85" → "She already saved $85", "we have reached the
 * end" → "we reached the end"). Only when what follows shows a verb: a word of PERFECT_NEXT, a
 * number, or the sentence's end ("He has colored pencils", a possession, stays; so does "He has 36
 * pencils"). Not in a question, not at a sentence start, not for "have" unless its subject
 * precedes it (phrases.ts PERFECT_HAVE_AFTER or a plural noun: "would have paid" stays), not when
 * the clause says how long ("for", "since": "has smoked for 20 years" says the smoking goes on,
 * "smoked for 20 years" does not), not in a clause of time or condition ("Once you have called the
 * function, results will…" speaks of the future), not inside a retrieved passage.
 */
const PERFECT_RE = new RegExp(
  String.raw`\b(?:has|have)[ \t]+(?=(?:(?:${PERFECT_ADVERBS.join('|')})[ \t]+)?([a-z]+)(?:[ \t]+(\$?\x0E|[a-z]+)|[ \t]*(?:[.;!]|$)))`,
  'gm',
);
const PERFECT_PARTICIPLE_SET: ReadonlySet<string> = new Set(PERFECT_PARTICIPLES);
const ED_NON_PARTICIPLE_SET: ReadonlySet<string> = new Set(ED_NON_PARTICIPLES);
const PERFECT_NEXT_SET: ReadonlySet<string> = new Set(PERFECT_NEXT);
const PERFECT_HAVE_AFTER_SET: ReadonlySet<string> = new Set(PERFECT_HAVE_AFTER);
const PERFECT_NOT_PLURAL_SET: ReadonlySet<string> = new Set(PERFECT_NOT_PLURAL);
/** A duration in the rest of a clause: the perfect then says "up to now". */
const DURATION_RE = /\b(?:for|since)\b/g;
/**
 * A clause of time or condition: there the perfect stands for a future ("Once you have called the
 * function, results will…"), which the simple past would not say.
 */
const TIME_CLAUSE_RE = /\b(?:once|when|whenever|after|before|until|till|if|unless|soon)\b/gi;

/** True when "have" follows its subject: a pronoun of PERFECT_HAVE_AFTER or a plural noun. */
function afterHaveSubject(word: string): boolean {
  if (PERFECT_HAVE_AFTER_SET.has(word)) return true;
  return word.length > 2 && word.endsWith('s') && !/(?:ss|us|is)$/.test(word) && !PERFECT_NOT_PLURAL_SET.has(word);
}

function isSimplePastParticiple(w: string): boolean {
  if (PERFECT_PARTICIPLE_SET.has(w)) return true;
  return w.length > 3 && w.endsWith('ed') && !w.endsWith('eed') && !ED_NON_PARTICIPLE_SET.has(w);
}

function prunePerfect(m: string, participle: string, next: string | undefined, offset: number, all: string, at: Context): string {
  if (joined(all, offset) || !isSimplePastParticiple(participle)) return m;
  if (next !== undefined && next.charCodeAt(0) !== 0x0e && next.charCodeAt(0) !== 36 /* $ */ && !PERFECT_NEXT_SET.has(next)) return m;
  if (atSentenceStart(all, offset) || (m.charCodeAt(2) === 118 /* have */ && !afterHaveSubject(previousWord(all, offset)))) return m;
  if (at.sentences.endMark(offset) === 63 /* ? */ || at.clauses.after(offset, DURATION_RE) || at.clauses.before(offset, TIME_CLAUSE_RE)) return m;
  return at.inPassage(offset) ? m : '';
}

/**
 * "If X, then Y" → "If X, Y": the resumptive "then" of a conditional adds nothing that "if" has not
 * said. Only where the clause before the comma holds the "if" itself (no comma inside the
 * condition, which would leave unclear where the consequence starts: "if a, b, then c" stays), not
 * in a question, not after a condition written as a formula ("If X = friend(A), then X = …": the
 * connective of logic notation) and not inside a retrieved passage. "ate, then slept" (a sequence) stays.
 */
const IF_THEN_RE = /,[ \t]+then[ \t]+(?=[A-Za-z$(\x0E])/g;
const IF_RE = /\bif\b/gi;
/** A condition written as a formula ("if X = friend(A), then X = …"): there "then" is the logical connective itself. */
const FORMULA_RE = /[=<>()]/g;

function pruneIfThen(m: string, offset: number, at: Context): string {
  // `offset` is the comma: the clause that it ends is the condition.
  if (!at.clauses.before(offset, IF_RE) || at.clauses.before(offset, FORMULA_RE)) return m;
  return at.sentences.endMark(offset) === 63 /* ? */ || at.inPassage(offset) ? m : ', ';
}

/**
 * A sentence inside a speaker turn made only of acknowledgements ("Okay .", "Yep , yep .", "Mm-hmm ."):
 * aggressive drops it with the blanks before it. Each repetition consumes a word: linear.
 */
const BACKCHANNEL_WORD = String.raw`\b(?:${BACKCHANNEL_WORDS.map(escape).join('|')})\b`;
const ACK_SENTENCE_RE = new RegExp(String.raw`([.!?:])[ \t]+${BACKCHANNEL_WORD}(?:(?:[ \t]*,)?[ \t]+${BACKCHANNEL_WORD})*[ \t]*[.!?]+(?=[ \t\n]|$)`, 'gi');

/**
 * True when the turn whose label ends at `colon` follows a line that ends with a question: its
 * "Yeah." is the answer, not an acknowledgement.
 */
function answersQuestion(all: string, colon: number): boolean {
  let i = all.lastIndexOf('\n', colon) - 1;
  while (i >= 0 && (all.charCodeAt(i) === 32 || all.charCodeAt(i) === 9)) i--;
  return i >= 0 && all.charCodeAt(i) === 63 /* ? */;
}

/** Spoken fillers set off by a comma anywhere in a turn: "but you know , not metal" → "but not metal". */
const SPOKEN_FILLER_MID_RE = /\b(?:you know|I mean)[ \t]*,[ \t]*/gi;
/** Words after which "you know ," / "I mean ," are words of the sentence ("do you know , …", "what I mean , …"). */
const FILLER_KEPT_AFTER: ReadonlySet<string> = new Set(['do', 'did', 'does', 'dont', 'didnt', 'if', 'as', 'what', 'how', 'whether', 'when', 'where', 'who', 'why', 'which', 'that', 'whatever', 'than']);
/** Spoken hedges: "it sort of changed" → "it changed"; a noun after a determiner stays ("a kind of dog", "what sort of"). */
const SPOKEN_HEDGE_RE = /\b(?:sort|kind)[ \t]+of[ \t]+/gi;
const HEDGE_KEPT_AFTER: ReadonlySet<string> = new Set([
  'a', 'an', 'the', 'this', 'that', 'these', 'those', 'what', 'which', 'some', 'any', 'no', 'one', 'every', 'each', 'same',
  'different', 'other', 'another', 'my', 'your', 'his', 'her', 'its', 'our', 'their', 'all', 'of', 'whatever', 'certain',
  'new', 'right', 'wrong', 'first', 'last', 'only',
]);

/** An inverted question ("and is there anything", "is it due"): the form of "to be" is its verb. */
const INVERTED_SUBJECT_RE = /^(?:there|it|he|she|they|we|you|i|this|that|these|those)\b/;
/** What an intensifier qualifies where it changes the sense: "rather than", "quite a few". */
const INTENSIFIER_KEPT_BEFORE_RE = /^(?:than|a|an|the|one|two|three|four|five|six|seven|eight|nine|ten)\b|^[\x0E0-9$]/;
/** "would rather", "I'd rather not": a preference, not a degree. */
const PREFERENCE_RE = /(?:\bwould|\bhad|['’]d)[ \t]+$/i;
/**
 * A negation or a degree before an intensifier makes it part of the sense: "not really broken" is
 * no "not broken", "almost certainly a faulty router" no "almost a faulty router".
 */
const NEGATION_BEFORE: ReadonlySet<string> = new Set(['not', 'never', 'nt', 't', 'no', 'almost', 'nearly', 'hardly', 'most', 'less', 'more', 'fairly', 'pretty', 'so', 'too', 'very', 'quite']);

/** A number said in words opening the text after a pruned word, and one ending the word before it. */
const NUMBER_WORD_START_RE = /^(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion)\b/;
const NUMBER_WORD_END_RE = /(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|teen|ty|hundred|thousand|million|billion)$/;
/** A past participle (-ed, -en) that closes its clause or is followed by "by". */
const PASSIVE_END_RE = /^[a-z]+(?:ed|en)(?:[ \t]*[.,;:!?]|[ \t]+by\b)/;
/** After "just": an object pronoun or "another" ("just me": only), a past form ("just called": a moment ago). */
const JUST_KEPT_BEFORE_RE = /^(?:me|us|him|her|them|it|you|another|now|then|one|[a-z]+ed)\b/;
/** Before "just": a perfect ("has just had": a moment ago). */
const PERFECT_BEFORE: ReadonlySet<string> = new Set(['have', 'has', 'had', 've', 'd']);

/** True when a word of PRUNE_WORDS (`word`, the match of PRUNE_RE at `offset`) carries sense here and stays. */
function prunedWordStays(word: string, offset: number, length: number, all: string): boolean {
  const next = all.slice(offset + length, offset + length + 8);
  if (BE_FORMS.has(word)) {
    const before = previousWord(all, offset);
    // Between two numbers said in words it is "equals": "forty-eight is eighteen fifty".
    if (NUMBER_WORD_START_RE.test(next) && (NUMBER_WORD_END_RE.test(before) || all.charCodeAt(offset - 2) === 0x0f)) return true;
    // A passive that ends its clause or names its agent ("reports were superseded.", "was
    // approved by the board"): without "were" the participle reads as an active verb.
    if (PASSIVE_END_RE.test(all.slice(offset + length, offset + length + 40))) return true;
    return BE_KEPT_AFTER.has(before) || BEFORE_ARTICLE_RE.test(next) || INVERTED_SUBJECT_RE.test(next);
  }
  if (word === 'rather' && PREFERENCE_RE.test(all.slice(Math.max(0, offset - 8), offset))) return true;
  // "just" as "only" ("just me", "just another paper") or "a moment ago" ("has just had", "just
  // called") is sense; only "simply" is empty.
  if (word === 'just' && (JUST_KEPT_BEFORE_RE.test(all.slice(offset + length, offset + length + 24)) || PERFECT_BEFORE.has(previousWord(all, offset)))) return true;
  return INTENSIFIER_KEPT_BEFORE_RE.test(next) || NEGATION_BEFORE.has(previousWord(all, offset));
}

/** The pruning of `aggressive` over a whole (masked) text. */
export function applyAggressive(s: string): string {
  // Only in text with speaker turns (core.ts marks them with LINE_MARK).
  if (s.includes(LINE_MARK)) {
    s = s.replace(ACK_SENTENCE_RE, (m, mark: string, offset: number, all: string) => (mark === ':' && answersQuestion(all, offset) ? m : mark));
    s = s.replace(SPOKEN_FILLER_MID_RE, (m, offset: number, all: string) => (joined(all, offset) || FILLER_KEPT_AFTER.has(previousWord(all, offset).replace(/['’]/g, '')) ? m : ' '));
    s = s.replace(SPOKEN_HEDGE_RE, (m, offset: number, all: string) => (joined(all, offset) || HEDGE_KEPT_AFTER.has(previousWord(all, offset)) || atSentenceStart(all, offset) ? m : ''));
  }
  let relative: Context | undefined;
  s = s
    // Not in a question: "Based on the table, who is on call?" asks, it does not describe the table.
    .replace(REDUCED_RELATIVE_RE, (m, offset: number, all: string) => ((relative ??= new Context(all)).sentences.endMark(offset) === 63 /* ? */ ? m : ', '))
    .replace(DISCOURSE_MARKER_RE, (m, offset: number, all: string) => {
      // "Oh, no." is dismay and "Yeah, no," agreement: without the marker a bare "No" disagrees.
      if (joined(all, offset) || !atClauseStart(all, offset) || YES_NO_NEXT_RE.test(all.slice(offset + m.length, offset + m.length + 4))) return m;
      return m.charCodeAt(0) <= 90 && atSentenceStart(all, offset) ? CAP_MARK : '';
    });
  // Each of these reads the spans and passages of the text it runs over, built at its first match;
  // a text without the rule's word skips its scan.
  let there: Context | undefined;
  let ifThen: Context | undefined;
  let perfect: Context | undefined;
  if (s.includes('here')) s = s.replace(EXISTENTIAL_RE, (m, adverb: string | undefined, offset: number, all: string) => pruneExistential(m, adverb, offset, all, (there ??= new Context(all))));
  if (s.includes('then')) s = s.replace(IF_THEN_RE, (m, offset: number, all: string) => pruneIfThen(m, offset, (ifThen ??= new Context(all))));
  if (s.includes('ha')) s = s.replace(PERFECT_RE, (m, participle: string, next: string | undefined, offset: number, all: string) => prunePerfect(m, participle, next, offset, all, (perfect ??= new Context(all))));
  if (s.includes('[')) s = s.replace(DOC_HEADER_RE, shortenDocHeader);
  s = copulaToColon(s);
  return pruneArticles(s)
    .replace(PRUNE_RE, (m, offset: number, all: string) => (joined(all, offset) || atSentenceStart(all, offset) || prunedWordStays(m.trimEnd().toLowerCase(), offset, m.length, all) ? m : ''))
    .replace(COMPLEMENTIZER_RE, (m, verb: string, offset: number, all: string) => (joined(all, offset) ? m : `${verb} `));
}
