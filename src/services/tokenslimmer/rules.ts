/**
 * The word removals of `balanced` (politeness, hedges, verbose phrases, speech noise) and the
 * speaker-turn and instruction patterns dedupe.ts and mask.ts share: the tables of `phrases.ts`
 * compiled into regular expressions, once, at module load. Every pattern is a flat alternation of
 * literals with bounded repeats (no nested quantifiers), so each runs in time linear in the line it
 * scans; the same holds for telegraph.ts.
 */
import { EnglishLines } from './language.ts';
import { DOC_HEADER_RE, dropRepeatedTitle } from './passages.ts';
import {
  BACKCHANNEL_WORDS,
  DISFLUENCY_WORDS,
  FILLER_PATTERNS,
  INSTRUCTION_OPENERS,
  NON_SPEECH_TAGS,
  SPOKEN_FILLERS,
  VERBOSE_PHRASES,
} from './phrases.ts';
import { collapseRepeatsUntilStable } from './repeats.ts';
import {
  afterNumber,
  atClauseStart,
  atSentenceStart,
  byLengthDesc,
  CAP_MARK,
  joined,
  lowerOrCapitalised,
  phrase,
  phraseKey,
  previousWord,
  trieSource,
  WORD_END,
  WORD_START,
} from './words.ts';

export const VERBOSE_MAP: ReadonlyMap<string, string> = new Map(VERBOSE_PHRASES.map(([from, to]) => [from, to]));

export const VERBOSE_RE = new RegExp(`${WORD_START}(?:${trieSource([...VERBOSE_MAP.keys()])})${WORD_END}`, 'gi');

const fillerRegExp = (patterns: readonly string[]): RegExp =>
  new RegExp(`${WORD_START}(?:${patterns.map((p) => `(?:${p.replace(/'/g, "['’]").replace(/\[[^\]]*\]| /g, (m) => (m === ' ' ? '[ \\t]+' : m))})`).join('|')})`, 'gi');
export const FILLER_RE = fillerRegExp(FILLER_PATTERNS);
/**
 * FILLER_RE without its alternatives that open with a comma (",\s*please"): they hold "please",
 * so in a text without that word both find the same matches, and this one scans in ~60% of the time
 * (an alternative that opens with punctuation slows the scan at every position).
 */
const FILLER_WITHOUT_COMMA_RE = fillerRegExp(FILLER_PATTERNS.filter((p) => !p.startsWith(',')));
/** /please/i spelled as classes (the same matches: ASCII letters fold only to ASCII), scanned ~40% faster. */
const PLEASE_RE = /[pP][lL][eE][aA][sS][eE]/;

export const NON_SPEECH_RE = new RegExp(String.raw`[{[(][ \t]*(?:${[...NON_SPEECH_TAGS].sort(byLengthDesc).map(phrase).join('|')})[ \t]*[}\])]`, 'gi');

// Never ALL CAPS ("ER", "MM" are abbreviations), never after a number ("5 mm": checked in the callback).
// With the comma before it (group 1) and a sentence end after it (group 2): ", hmm." leaves ".",
// not ", .".
export const DISFLUENCY_RE = new RegExp(String.raw`(,[ \t]*)?${WORD_START}(?:${DISFLUENCY_WORDS.map(lowerOrCapitalised).join('|')})${WORD_END}(?:[ \t]*,)?[ \t]*([.!?](?=[ \t\n]|$))?`, 'g');

const fillerAlt = SPOKEN_FILLERS.map(phrase).join('|');
/** "You know , we" → "we" (at a sentence or clause start; checked in the callback). */
export const SPOKEN_FILLER_LEAD_RE = new RegExp(String.raw`(,[ \t]*)?${WORD_START}(?:${fillerAlt})[ \t]*,[ \t]*`, 'gi');
/** "…, you know." → "…." */
export const SPOKEN_FILLER_TAIL_RE = new RegExp(String.raw`,[ \t]*(?:${fillerAlt})[ \t]*(?=[,;.!?]|$)`, 'gim');
/**
 * Both spoken-filler rules need a filler's last word before a comma, a stop or a line end: a text
 * without one (most prompts that are not transcripts) skips both scans.
 */
const SPOKEN_FILLER_GATE_RE = new RegExp(String.raw`(?:${[...new Set(SPOKEN_FILLERS.map((f) => f.split(' ').pop()!))].map(escape).join('|')})[ \t]*(?:[,;.!?]|$)`, 'im');


const MODAL_WRAPPER_RE = /^(?:can|could|would|will)[ \t]/i;
/** "I would like you to", "I'd love you to": a wrapper where it opens a sentence or follows a comma or colon. */
const WANT_WRAPPER_RE = /^i(?:[ \t]+would|['’]d)[ \t]/i;
const AFTER_COMMA_RE = /[,:;][ \t]*$/;

type Removal = (m: string, offset: number, all: string) => string;
const SPACE: Removal = () => ' ';

/** `gated`: "um" and "er" only on English lines (EnglishLines); the checker's view (retention.ts) lets them go anywhere. */
function removeSpeechNoise(s: string, removed: Removal, gated: boolean): string {
  const english = gated ? new EnglishLines() : null;
  return removeForeignFillers(s)
    .replace(NON_SPEECH_RE, ' ')
    .replace(DISFLUENCY_RE, (m, lead: string | undefined, end: string | undefined, offset: number, all: string) => {
      const word = lead === undefined ? offset : offset + lead.length;
      if (joined(all, word) || afterNumber(all, word) || inNotation(all, word, m.length - (word - offset))) return m;
      // "mm" after a preposition is the unit ("rain in mm for Monday", "a value of mm").
      if (lead === undefined && MM_RE.test(m) && UNIT_AFTER.has(previousWord(all, word))) return m;
      // After a bare "no" the hesitation stays: "no, um, swollen glands" is a finding's absence, "No, swollen glands" a contradiction.
      if (lead !== undefined && previousWord(all, offset) === 'no') return m;
      // "Having said that, um, I think": "that" closes the phrase, its comma stays.
      if (lead !== undefined && SAID_THAT_RE.test(all.slice(Math.max(0, offset - 12), offset))) return ', ';
      // "um" and "er" are also German words: "um 10 Uhr" (at ten), and "Um 10?"; before a number they stay.
      if (AMBIGUOUS_DISFLUENCY_RE.test(m.slice(word - offset)) && ((english !== null && !english.at(all, word)) || beforeNumber(all, offset + m.length, m))) return m;
      // A disfluency that ends a sentence: after a comma the sentence ends there ("I see, hmm." →
      // "I see."); alone it is the sentence and goes with its stop ("Hmm. Let me think." → "Let me
      // think.", a turn's ": Um ." → ":").
      if (end !== undefined && (lead !== undefined || atSentenceStart(all, word))) return lead !== undefined ? end : '';
      // Set off by commas on both sides ("and, uh, dbt", "is, um, 40"), it goes with both; after
      // a word that can end a list item the first comma is the list's ("Go, uh, Postgres").
      if (lead !== undefined) return TRAILING_COMMA_RE.test(m) && COMMA_NOT_AFTER.has(previousWord(all, offset)) ? ' ' : ', ';
      return removed(m, word, all) + (end ?? '');
    });
}

const TRAILING_COMMA_RE = /,[ \t]*$/;
/** The disfluencies that are also a unit's symbol (millimetres). */
const MM_RE = /^[ \t]*mm\b/;
/** Words after which "mm" names the unit. */
const UNIT_AFTER: ReadonlySet<string> = new Set(['in', 'of', 'per', 'into', 'to', 'from', 'than', 'as']);
/** A pronoun, a comma, and the same pronoun in a contraction ("I, I'm", "we, we'd", "it, it's"). */
const CONTRACTION_STUTTER_RE = /\b(I|we|you|they|he|she|it|that|there)[ \t]*,[ \t]+(?=\1['’](?:m|re|s|d|ll|ve)\b)/gi;
/**
 * A disfluency's letters inside a notation: "dd/mm/yyyy", "mm:ss", "hh:mm" (a slash or colon
 * right before it, or right after its letters), "(mm)" (alone in brackets).
 */
function inNotation(all: string, word: number, rest: number): boolean {
  const before = all.charCodeAt(word - 1);
  if (before === 47 /* / */ || before === 58 /* : */) return true;
  let end = word;
  while (end < word + rest && /[A-Za-z]/.test(all[end]!)) end++;
  const after = all.charCodeAt(end);
  // Alone in brackets it names a unit: "precipitation (mm)", "depth [mm]".
  if ((before === 40 /* ( */ && after === 41) /* ) */ || (before === 91 /* [ */ && after === 93) /* ] */) return true;
  return after === 47 || (after === 58 && /[A-Za-z0-9]/.test(all[end + 1] ?? ''));
}
const SAID_THAT_RE = /\bsaid[ \t]+that[ \t]*$/i;
/**
 * Words no list item ends with (conjunctions, forms of "to be", articles, prepositions, pronouns):
 * after one, the commas around a disfluency are speech, not the list's ("is, um, 40" → "is 40").
 */
const COMMA_NOT_AFTER: ReadonlySet<string> = new Set([
  'and', 'or', 'but', 'so', 'because', 'is', 'are', 'was', 'were', 'be', 'been', 'am', 'the', 'a', 'an', 'to', 'of', 'in', 'on',
  'at', 'for', 'with', 'from', 'by', 'about', 'like', 'i', 'we', 'you', 'he', 'she', 'it', 'they', 'that', 'this', 'if', 'then',
  'just', 'maybe', 'well', 'think', 'mean', 'guess', 'have', 'has', 'had', 'do', 'did', 'does', 'can', 'could', 'would', 'will',
  'should', 'my', 'our', 'your', 'their', 'his', 'her', 'its', 'not', 'really', 'also', 'um', 'uh',
  // the tails of contractions, as previousWord reads "you'll", "we're", "I've", "that's"
  'll', 're', 've', 'd', 's', 'm',
]);
/** Before a quantity "like" says "about" ("growing, like, 8 percent", "like, ninety percent done"): it stays. */
const APPROXIMATE = String.raw`(?![ \t]*(?:[\x0E0-9$£€]|(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|half|a (?:hundred|thousand|dozen|couple|few))\b))`;
const LIKE_FILLER_RE = new RegExp(String.raw`,[ \t]*like[ \t]*,[ \t]*${APPROXIMATE}`, 'gi');
/** "Like, the tests pass.": a spoken sentence opened by "Like" and a comma. */
const LIKE_LEAD_RE = new RegExp(String.raw`\bLike[ \t]*,[ \t]*${APPROXIMATE}`, 'g');

/**
 * Hesitation sounds of other languages that are no word of any (German "äh", "ähm", "öhm",
 * French "euh", Italian "ehm"): removed on every line, with the commas that set them off as
 * DISFLUENCY_RE does. Their letters are not ASCII, so the edges are Unicode-aware here.
 */
export const FOREIGN_FILLER_RE = /(,[ \t]*)?(?<![\p{L}\p{M}\p{N}])(?:[ÄäÖö]hm?|[Ee]uh|[Ee]hm)(?![\p{L}\p{M}\p{N}'’-])(?:[ \t]*,)?[ \t]*/gu;
function foreignFiller(m: string, lead: string | undefined): string {
  if (lead === undefined) return '';
  return TRAILING_COMMA_RE.test(m.trimEnd()) ? ' ' : ', ';
}
/** Hesitation sounds of other languages (FOREIGN_FILLER_RE) out of a line of another language, which no word table reads. */
export const removeForeignFillers = (s: string): string => (FOREIGN_FILLER_GATE_RE.test(s) ? s.replace(FOREIGN_FILLER_RE, foreignFiller) : s);
const FOREIGN_FILLER_GATE_RE = /[äöÄÖ]h|[Ee](?:uh|hm)/;

/** True when a number (a digit or a masked number) follows the match `m` that ends at `end`, with no comma between. */
function beforeNumber(all: string, end: number, m: string): boolean {
  if (m.includes(',')) return false;
  const c = all.charCodeAt(end);
  return (c >= 48 && c <= 57) || c === 0x0e;
}

/** Disfluencies that are words of other languages (German "um", "er"; Portuguese "um"): removed from English lines only (language.ts). */
const AMBIGUOUS_DISFLUENCY_RE = /^(?:um|er)\b/i;

/** True when the text shows spoken-language noise (disfluencies, noise tags): stutters collapse there. */
export function isSpoken(s: string, gated = true): boolean {
  return removeSpeechNoise(s, SPACE, gated) !== s;
}

/**
 * The removals of `balanced`, in order, over a whole (masked) text. With `cap` a removed
 * capitalised sentence opener leaves CAP_MARK (core.ts capitalises the next word); without it the
 * removal leaves a space (retention.ts, which only needs the words that remain).
 * `spoken`: collapse stutters even if this text has no disfluency left (the checker's view).
 */
export function applyBalanced(s: string, cap: boolean, spoken = false, gated = true): string {
  const removed: Removal = (m, offset, all) =>
    cap && m.charCodeAt(0) >= 65 && m.charCodeAt(0) <= 90 && atSentenceStart(all, offset) ? CAP_MARK : ' ';
  const before = s;
  s = removeSpeechNoise(s, removed, gated);
  // Spoken-language text (it had disfluencies or noise tags): collapse stutters and false starts.
  if (spoken || s !== before) {
    // "like" set off by commas is a filler of speech ("It was, like, slow"); first, so that "I like, like, it" reads "I like it".
    if (s.includes('ike')) s = s.replace(LIKE_FILLER_RE, ' ').replace(LIKE_LEAD_RE, (m, offset: number, all: string) => (atSentenceStart(all, offset) ? removed(m, offset, all) : m));
    // Again until stable (bounded): "Tu tu tu tu" first collapses as a two-word unit.
    s = collapseRepeatsUntilStable(s, 3);
    // A pronoun said, then said again in its contraction: "I, I'm calling" → "I'm calling".
    if (s.includes(',')) s = s.replace(CONTRACTION_STUTTER_RE, (m, _w: string, offset: number, all: string) => (joined(all, offset) ? m : m.charCodeAt(0) <= 90 ? CAP_MARK : ''));
  }
  if (SPOKEN_FILLER_GATE_RE.test(s)) {
    s = s.replace(SPOKEN_FILLER_LEAD_RE, (m, lead: string | undefined, offset: number, all: string) => {
      // Set off by commas on both sides ("But, you know, QA found"), it goes with both, but for
      // a list's comma (as DISFLUENCY_RE reads it).
      if (lead !== undefined) return COMMA_NOT_AFTER.has(previousWord(all, offset)) ? ' ' : ', ';
      return !joined(all, offset) && atClauseStart(all, offset) ? removed(m, offset, all) : m;
    });
    s = s.replace(SPOKEN_FILLER_TAIL_RE, ' ');
  }
  // "Could you explain" is a wrapper only where it opens the sentence ("What can you tell" keeps
  // it); "I would like you to" also after a comma or colon, not inside a clause ("the format that
  // I would like you to follow").
  s = s.replace(PLEASE_RE.test(s) ? FILLER_RE : FILLER_WITHOUT_COMMA_RE, (m, offset: number, all: string) =>
    joined(all, offset) ||
    (MODAL_WRAPPER_RE.test(m) && !atSentenceStart(all, offset)) ||
    (WANT_WRAPPER_RE.test(m) && !atSentenceStart(all, offset) && !AFTER_COMMA_RE.test(all.slice(Math.max(0, offset - 3), offset)))
      ? m
      : m.charCodeAt(0) === 44 /* , */ || m.charCodeAt(0) === 32 || m.charCodeAt(0) === 9
        ? '' // ", please?" and " please, I've": the stop or the comma stays, no space before it
        : removed(m, offset, all),
  );
  if (s.includes('Title:')) s = s.replace(DOC_HEADER_RE, dropRepeatedTitle);
  return s.replace(VERBOSE_RE, (m, offset: number, all: string) => {
    if (joined(all, offset)) return m;
    const to = VERBOSE_MAP.get(phraseKey(m)) ?? m;
    return m.charCodeAt(0) < 97 ? to.charAt(0).toUpperCase() + to.slice(1) : to;
  });
}

export const INSTRUCTION_START_RE = new RegExp(`^(?:${[...INSTRUCTION_OPENERS].sort(byLengthDesc).map(phrase).join('|')})${WORD_END}`, 'i');
/** An instruction opener at `lastIndex` (sticky); the openers as a character trie (~15 % faster than the flat alternation). */
export const INSTRUCTION_AT_RE = new RegExp(`(?:${trieSource(INSTRUCTION_OPENERS)})${WORD_END}`, 'iy');

/** A speaker turn with something after its label (checked on the input line, before any removal). */
/**
 * A speaker's label: capitalised words ("Project Manager", "Speaker 2"), with a note in
 * parentheses as minutes write it ("CHAIR (Helen Park)"). Not after a timestamp: a turn that
 * carries one never goes whole, the timestamp is a value.
 */
const TURN_LABEL = String.raw`\p{Lu}[\p{L}\p{M}\d_.'’-]*(?:[ \t]+[\p{Lu}\d][\p{L}\p{M}\d_.'’-]*){0,3}(?:[ \t]+\([^()\n]{1,40}\))?:`;

export const SPOKEN_TURN_RE = new RegExp(String.raw`^${TURN_LABEL}[ \t]*[^ \t.,;!?…-]`, 'u');

/** A speaker turn left with nothing said ("Project Manager:", "Speaker 2:"): capitalised label words only. */
export const EMPTY_TURN_RE = new RegExp(String.raw`^${TURN_LABEL}[ \t.,;!?…-]*$`, 'u');

/** A labelled turn that only acknowledges: "Speaker: Yeah , okay ." (aggressive drops it). */
export const BACKCHANNEL_TURN_RE = new RegExp(
  String.raw`^${TURN_LABEL}(?:[ \t,.!?]*\b(?:${BACKCHANNEL_WORDS.map(escape).join('|')})\b)+[ \t,.!?]*$`,
  'iu',
);
