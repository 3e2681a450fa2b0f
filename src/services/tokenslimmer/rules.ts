/**
 * The tables of `phrases.ts` compiled into regular expressions, once, at module load. Every
 * pattern is a flat alternation of literals with bounded repeats (no nested quantifiers), so each
 * runs in time linear in the line it scans.
 */
import {
  ARTICLES,
  COMPLEMENTIZER_VERBS,
  DISFLUENCY_WORDS,
  FILLER_PATTERNS,
  INSTRUCTION_OPENERS,
  NEGATION_WORDS,
  NON_SPEECH_TAGS,
  PRUNE_WORDS,
  SPOKEN_FILLERS,
  VERBOSE_PHRASES,
} from './phrases.ts';

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A literal phrase whose spaces match any run of spaces/tabs and whose apostrophes match ' or ’. */
const phrase = (s: string): string => escape(s).replace(/ /g, '[ \\t]+').replace(/'/g, "['’]");
const capitalised = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);
const byLengthDesc = (a: string, b: string): number => b.length - a.length || (a < b ? -1 : 1);

// Word edges. ASCII \b without the `u` flag is several times faster than Unicode lookbehinds, and
// every table entry is ASCII; the extra guards keep "well-being" and "o'the" whole.
const WORD_START = String.raw`(?<![-'’])\b`;
const WORD_END = String.raw`\b(?![-'’])`;
/** Line-start marks that core.ts puts on every non-blank line while the rules run. */
export const LINE_MARK = '\u0002';
export const LABEL_LINE_MARK = '\u0003';
/** Start of a line that a removed block tag (<p>, <br>) split off: not a line of the input. */
export const SPLIT_MARK = '\u0004';
/** Capitalise-the-next-word mark left where a sentence-initial filler was removed. */
export const CAP_MARK = '\u0001';

/** Lower-case key of a phrase with its whitespace collapsed. */
export const phraseKey = (s: string): string => s.toLowerCase().replace(/[ \t]+/g, ' ').replace(/’/g, "'");

export const VERBOSE_MAP: ReadonlyMap<string, string> = new Map(VERBOSE_PHRASES.map(([from, to]) => [from, to]));

export const VERBOSE_RE = new RegExp(
  `${WORD_START}(?:${[...VERBOSE_MAP.keys()].sort(byLengthDesc).map(phrase).join('|')})${WORD_END}`,
  'gi',
);

export const FILLER_RE = new RegExp(`${WORD_START}(?:${FILLER_PATTERNS.map((p) => `(?:${p.replace(/'/g, "['’]").replace(/\[[^\]]*\]| /g, (m) => (m === ' ' ? '[ \\t]+' : m))})`).join('|')})`, 'gi');

export const NON_SPEECH_RE = new RegExp(
  String.raw`[ \t]*[{[(][ \t]*(?:${[...NON_SPEECH_TAGS].sort(byLengthDesc).map(phrase).join('|')})[ \t]*[}\])]`,
  'gi',
);

// Never ALL CAPS ("ER", "MM" are abbreviations), never after a number ("5 mm").
export const DISFLUENCY_RE = new RegExp(
  String.raw`(?<![\d\uE000-\uF8FF][ \t]*)${WORD_START}(?:${DISFLUENCY_WORDS.flatMap((w) => [w, capitalised(w)]).join('|')})${WORD_END}(?:[ \t]*,)?[ \t]*`,
  'g',
);

const fillerAlt = SPOKEN_FILLERS.map(phrase).join('|');
/** ", you know ," → "," ; "You know , we" → "we" ; "…, I mean." → "…." */
export const SPOKEN_FILLER_RES: readonly RegExp[] = [
  new RegExp(String.raw`(?:^|(?<=[,;:.!?\u0002\u0003]))[ \t]*(?:${fillerAlt})[ \t]*,[ \t]*`, 'gim'),
  new RegExp(String.raw`[ \t]*,[ \t]*(?:${fillerAlt})[ \t]*(?=[,;.!?]|$)`, 'gim'),
];

/** An immediate repeat of one to three words, optionally comma-separated: "I I think", "we were , we were". */
export const REPEAT_RE = /(?<![-'’])\b([A-Za-z]+(?:['’][a-z]+)?(?:[ \t]+[A-Za-z]+(?:['’][a-z]+)?){0,2})(?:[ \t]*,?[ \t]+\1\b(?![-'’]))+/gi;
/** Grammatical doublings that are not disfluencies ("that that", "had had", "is is" in "what it is is"). */
export const REPEAT_ALLOWED: ReadonlySet<string> = new Set(['that', 'had', 'is', 'do', 'can', 'will', 'very']);

export const NEGATION_WORD_RE = new RegExp(String.raw`\b(?:${NEGATION_WORDS.join('|')})\b|n['’]t\b`, 'i');

/** Collapses stutters ("I I think" → "I think"), keeping grammatical doublings and any repeat that holds a negation. */
export function collapseRepeats(s: string): string {
  return s.replace(REPEAT_RE, (m, unit: string) => (REPEAT_ALLOWED.has(unit.toLowerCase()) || NEGATION_WORD_RE.test(unit) ? m : unit));
}

// Pruned only when a lower-case word follows: no sentence ends on a gap, names and numbers keep
// what precedes them. Capital "A" is never an article here: in prompts it is more often a variable.
export const PRUNE_RE = new RegExp(`${WORD_START}(?:${PRUNE_WORDS.flatMap((w) => [w, capitalised(w)]).join('|')})[ \\t]+(?=[a-z])`, 'g');
export const ARTICLE_RE = new RegExp(
  `(?:^|(?<=[.!?][ \\t]+|[\\u0002\\u0003]))(?:${ARTICLES.flatMap((w) => (w === 'a' ? [w] : [w, capitalised(w)])).join('|')})[ \\t]+(?=[a-z])`,
  'gm',
);
export const COMPLEMENTIZER_RE = new RegExp(`${WORD_START}(${COMPLEMENTIZER_VERBS.join('|')})[ \\t]+that[ \\t]+(?=[A-Za-z])`, 'gi');

export const INSTRUCTION_START_RE = new RegExp(`^(?:${[...INSTRUCTION_OPENERS].sort(byLengthDesc).map(phrase).join('|')})${WORD_END}`, 'i');

/** A speaker turn left with nothing said ("Project Manager:", "Speaker 2:"): capitalised label words only. */
export const EMPTY_TURN_RE = /^[A-Z][\w.'’-]*(?:[ \t]+[A-Z0-9][\w.'’-]*){0,3}:$/;

/** Attribute-less HTML tags that only decorate text: removed in `safe`. Block tags leave a line break. */
export const INLINE_TAGS = ['b', 'i', 'u', 'em', 'strong', 'span', 'small', 'big', 'font', 'mark', 'abbr', 'cite', 'strike', 'ins', 'tt', 'nobr'];
export const BLOCK_TAGS = ['p', 'div', 'section', 'article', 'header', 'footer', 'main', 'aside', 'body', 'html', 'center', 'blockquote', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6'];
export const INLINE_TAG_RE = new RegExp(`</?(?:${INLINE_TAGS.join('|')})\\s*>`, 'gi');
export const BLOCK_TAG_RE = new RegExp(`[ \\t]*</?(?:${BLOCK_TAGS.join('|')})\\s*>[ \\t]*`, 'gi');
export const BR_RE = /[ \t]*<br\s*\/?>[ \t]*/gi;

/** `**bold**`, `__bold__`, `*em*`: the markers carry no content. Underscore forms never touch identifiers (protected before). */
export const EMPHASIS_RE = /\*\*(?=[^\s*])([^*\n]{0,300}?[^\s*])\*\*|(?<![A-Za-z0-9*\\])\*(?=[A-Za-z])([A-Za-z][^*\n]{0,300}?[^\s*])\*(?![A-Za-z0-9*])/g;

/** Invisible characters that never carry meaning in a prompt (ZWJ/ZWNJ are kept: emoji and Indic scripts need them). */
export const INVISIBLE_RE = /[\u200B\u2060\uFEFF\u00AD]/g;
/**
 * A run of two or more horizontal spaces of any kind. A single no-break or thin space stays: it
 * may bind a number to its unit ("4\u00A0in").
 */
export const SPACE_RUN_RE = /(?<=[^\s\u0002\u0003])[ \t\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]{2,}/g;
