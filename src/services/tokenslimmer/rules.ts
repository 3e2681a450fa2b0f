/**
 * The tables of `phrases.ts` compiled into regular expressions, once, at module load. Every
 * pattern is a flat alternation of literals with bounded repeats (no nested quantifiers), so each
 * runs in time linear in the line it scans.
 */
import { EnglishLines } from './language.ts';
import {
  ARTICLE_FIXED_NEXT,
  ARTICLES,
  BACKCHANNEL_WORDS,
  COMPLEMENTIZER_VERBS,
  DISCOURSE_MARKERS,
  DISFLUENCY_WORDS,
  ED_NON_PARTICIPLES,
  EXISTENTIAL_ADVERBS,
  EXISTENTIAL_AFTER,
  EXISTENTIAL_QUANTITY_WORDS,
  FILLER_PATTERNS,
  INSTRUCTION_OPENERS,
  NEGATION_WORDS,
  NON_SPEECH_TAGS,
  PERFECT_ADVERBS,
  PERFECT_HAVE_AFTER,
  PERFECT_NEXT,
  PERFECT_NOT_PLURAL,
  PERFECT_PARTICIPLES,
  PREPOSITION_WORDS,
  PRUNE_WORDS,
  RATE_UNITS,
  SPOKEN_FILLERS,
  VERBOSE_PHRASES,
} from './phrases.ts';

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A literal phrase whose spaces match any run of spaces/tabs and whose apostrophes match ' or ’. */
const phrase = (s: string): string => escape(s).replace(/ /g, '[ \\t]+').replace(/'/g, "['’]");
const capitalised = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);
/**
 * A word in lower case or capitalised as one alternative, "[tT]he" for "the|The": the same matches in
 * the same order of preference, and V8 scans the class form 10-20% faster.
 */
const lowerOrCapitalised = (w: string): string => (/^[a-z]/.test(w) ? `[${w[0]}${w[0]!.toUpperCase()}]${w.slice(1)}` : `${w}|${capitalised(w)}`);
const byLengthDesc = (a: string, b: string): number => b.length - a.length || (a < b ? -1 : 1);

// Word edges. No lookbehind at the start of a pattern: V8 then cannot skip ahead by the first
// character and a pattern costs 2-3x more. The left edge is checked in the replace callback instead
// (`joined`): a match right after a hyphen or apostrophe ("well-being", "o'the") is left alone.
const WORD_START = String.raw`\b`;
const WORD_END = String.raw`\b(?![-'’])`;
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

export const VERBOSE_MAP: ReadonlyMap<string, string> = new Map(VERBOSE_PHRASES.map(([from, to]) => [from, to]));

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
function trieSource(phrases: readonly string[]): string {
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
export const SPOKEN_FILLER_LEAD_RE = new RegExp(String.raw`${WORD_START}(?:${fillerAlt})[ \t]*,[ \t]*`, 'gi');
/** "…, you know." → "…." */
export const SPOKEN_FILLER_TAIL_RE = new RegExp(String.raw`,[ \t]*(?:${fillerAlt})[ \t]*(?=[,;.!?]|$)`, 'gim');
/**
 * Both spoken-filler rules need a filler's last word before a comma, a stop or a line end: a text
 * without one (most prompts that are not transcripts) skips both scans.
 */
const SPOKEN_FILLER_GATE_RE = new RegExp(String.raw`(?:${[...new Set(SPOKEN_FILLERS.map((f) => f.split(' ').pop()!))].map(escape).join('|')})[ \t]*(?:[,;.!?]|$)`, 'im');

/** An immediate repeat of one to three words, optionally comma-separated: "I I think", "we were , we were". */
export const REPEAT_RE = /\b([A-Za-z]+(?:['’][a-z]+)?(?:[ \t]+[A-Za-z]+(?:['’][a-z]+)?){0,2})(?:[ \t]*,?[ \t]+\1\b(?![-'’]))+/gi;
const REPEAT_AT_RE = new RegExp(REPEAT_RE.source, 'iy');
/** How many letter runs after a word its repeat may start: three words of a unit, each at most two runs ("it's"). */
const REPEAT_WINDOW = 6;

const isLetter = (c: number): boolean => ((c | 0x20) >= 97 && (c | 0x20) <= 122);
const isWordChar = (c: number): boolean => isLetter(c) || (c >= 48 && c <= 57) || c === 95;

/** The letter runs of a text: where each starts and a hash of its lower-cased letters. */
interface Runs {
  readonly starts: Int32Array;
  readonly hashes: Int32Array;
  count: number;
  /** After a collapse: the runs (indices in the result) where a collapsed unit starts, in order. */
  units: number[];
}

/**
 * Scratch arrays of scanRuns, reused by every call up to RUNS_SCRATCH_MAX runs: allocating two
 * typed arrays of ~5,000 entries per 10 KB text cost about as much as scanning it (~20 µs; their
 * backing stores live outside the V8 heap). One text's runs are in use at a time (scanRuns'
 * callers finish with them before they return, and nothing here is re-entered).
 */
const RUNS_SCRATCH_MAX = 1 << 15;
let runStarts = new Int32Array(0);
let runHashes = new Int32Array(0);

function scanRuns(s: string): Runs {
  // At most one run per two characters.
  const n = s.length;
  const need = (n >> 1) + 1;
  let starts = runStarts;
  let hashes = runHashes;
  if (need > starts.length) {
    const size = Math.max(need, 4096);
    starts = new Int32Array(size);
    hashes = new Int32Array(size);
    if (size <= RUNS_SCRATCH_MAX) {
      runStarts = starts;
      runHashes = hashes;
    }
  }
  let count = 0;
  let i = 0;
  while (i < n) {
    let c = s.charCodeAt(i) | 0x20;
    if (c < 97 || c > 122) {
      i++;
      continue;
    }
    const start = i;
    let h = 0;
    do {
      h = (Math.imul(h, 31) + c) | 0;
      c = ++i < n ? s.charCodeAt(i) | 0x20 : 0;
    } while (c >= 97 && c <= 122);
    starts[count] = start;
    hashes[count++] = h;
  }
  return { starts, hashes, count, units: [] };
}

/**
 * `s.replace(REPEAT_RE, …)` with the same matches (test/compress-core.test.ts compares them),
 * about five times as fast on a transcript: the regex (a back-reference tried at every word) runs
 * only where it can match, at a word that opens a sequence of up to REPEAT_WINDOW letter runs
 * (case-insensitive) said again right after it (repeatsAt), found by one scan of the character
 * codes with a hash per run.
 */
export function collapseRepeats(s: string): string {
  const runs = scanRuns(s);
  return collapseOnce(s, runs, [0, runs.count]);
}

/**
 * How far (in letter runs) around a collapsed unit the next round looks: whether a match starts at
 * a run depends on the unit (up to REPEAT_WINDOW runs) and its first repeat after it, and on the
 * character before the run; farther away the text is as it was, where the round before found nothing.
 */
const RECHECK_RUNS = 4 * REPEAT_WINDOW;

/**
 * collapseRepeats applied again until the text stops changing, at most `rounds` times ("Tu tu tu
 * tu" first collapses as a two-word unit, then as one word). The letter runs are scanned once:
 * a collapse removes whole runs (the repeats after the unit, which ends and is followed by a
 * non-letter), so the runs of the result are those of the text minus the removed ones, shifted.
 * After the first round only the lines around the units collapsed last are tried again: elsewhere
 * the text is as the round before left it, with nothing to collapse.
 */
export function collapseRepeatsUntilStable(s: string, rounds: number): string {
  const runs = scanRuns(s);
  let windows = [0, runs.count]; // [from, to) pairs of runs to try, in order
  for (let k = 0; k < rounds && windows.length > 0; k++) {
    const collapsed = collapseOnce(s, runs, windows);
    if (collapsed === s) break;
    s = collapsed;
    windows = [];
    for (const u of runs.units) {
      // Whole lines: no match runs across a line break, so at a line's start no earlier match
      // (collapsed or kept) reaches into it, as in a scan of the whole text.
      const from = lineStartRun(s, runs, Math.max(0, u - RECHECK_RUNS));
      const to = lineEndRun(s, runs, Math.min(runs.count, u + RECHECK_RUNS));
      if (windows.length > 0 && from <= windows[windows.length - 1]!) windows[windows.length - 1] = Math.max(to, windows[windows.length - 1]!);
      else windows.push(from, to);
    }
  }
  return s;
}

/** The first run of the line that run `t` is on. */
function lineStartRun(s: string, runs: Runs, t: number): number {
  const lineStart = s.lastIndexOf('\n', runs.starts[t]!) + 1;
  while (t > 0 && runs.starts[t - 1]! >= lineStart) t--;
  return t;
}

/** One past the last run of the line that run `t - 1` is on (`t` > 0). */
function lineEndRun(s: string, runs: Runs, t: number): number {
  if (t === 0 || t >= runs.count) return t;
  let lineEnd = s.indexOf('\n', runs.starts[t - 1]!);
  if (lineEnd === -1) lineEnd = s.length;
  while (t < runs.count && runs.starts[t]! < lineEnd) t++;
  return t;
}

/**
 * One collapse over `s` whose letter runs are `runs`, trying matches only at the runs of
 * `windows` ([from, to) pairs, in order); `runs` is updated to those of the result, with the
 * runs where the collapsed units start.
 */
function collapseOnce(s: string, runs: Runs, windows: readonly number[]): string {
  const { starts, hashes, count } = runs;
  const cutFrom: number[] = []; // removed ranges [cutFrom, cutTo): the repeats after each collapsed unit
  const cutTo: number[] = [];
  const unitAt: number[] = []; // where each collapsed unit starts
  let out = '';
  let copied = 0; // s[0, copied) is in `out`
  let next = 0; // where the next match may start (after the last one, kept or collapsed)
  for (let w = 0; w < windows.length; w += 2) {
    for (let t = windows[w]!; t < windows[w + 1]!; t++) {
      const at = starts[t]!;
      if (at < next || (at > 0 && isWordChar(s.charCodeAt(at - 1)))) continue;
      if (!repeatsAt(hashes, count, t)) continue;
      REPEAT_AT_RE.lastIndex = at;
      const m = REPEAT_AT_RE.exec(s);
      if (m === null) continue;
      next = at + m[0].length;
      const unit = m[1]!;
      if (joined(s, at) || REPEAT_ALLOWED.has(unit.toLowerCase()) || NEGATION_WORD_RE.test(unit)) continue;
      out += s.slice(copied, at) + unit;
      copied = next;
      unitAt.push(at);
      cutFrom.push(at + unit.length);
      cutTo.push(next);
    }
  }
  runs.units = [];
  if (copied === 0) return s;
  // The runs of the result: those outside the removed ranges, moved back by what was removed before them.
  let kept = 0;
  let shift = 0;
  let g = 0;
  for (let t = 0; t < count; t++) {
    const start = starts[t]!;
    while (g < cutFrom.length && start >= cutTo[g]!) {
      shift += cutTo[g]! - cutFrom[g]!;
      g++;
    }
    if (g < cutFrom.length && start >= cutFrom[g]!) continue;
    if (g < unitAt.length && start === unitAt[g]) runs.units.push(kept);
    starts[kept] = start - shift;
    hashes[kept++] = hashes[t]!;
  }
  runs.count = kept;
  return out + s.slice(copied);
}

/**
 * True when the letter runs from `t` on may be a unit of 1-REPEAT_WINDOW runs said again right
 * after it: for some length L, the hashes of runs t..t+L-1 equal those of t+L..t+2L-1. A match of
 * REPEAT_RE repeats its unit's text (case-insensitively, so with the same letter runs) right after
 * it, so every match passes this test; "the" merely recurring within six words does not.
 */
function repeatsAt(hashes: Int32Array, runs: number, t: number): boolean {
  for (let len = 1; len <= REPEAT_WINDOW && t + 2 * len <= runs; len++) {
    let j = 0;
    while (j < len && hashes[t + j] === hashes[t + len + j]) j++;
    if (j === len) return true;
  }
  return false;
}

/** Grammatical doublings that are not disfluencies ("that that", "had had", "is is" in "what it is is"). */
export const REPEAT_ALLOWED: ReadonlySet<string> = new Set(['that', 'had', 'is', 'do', 'can', 'will', 'very']);

export const NEGATION_WORD_RE = new RegExp(String.raw`\b(?:${NEGATION_WORDS.join('|')})\b|n['’]t\b`, 'i');

// Pruned only when a lower-case word follows: no sentence ends on a gap, names and numbers keep
// what precedes them. Capital "A" is never an article here: in prompts it is more often a variable.
export const PRUNE_RE = new RegExp(`${WORD_START}(?:${PRUNE_WORDS.map(lowerOrCapitalised).join('|')})[ \\t]+(?=[a-z])`, 'g');
export const ARTICLE_RE = new RegExp(`${WORD_START}(?:${ARTICLES.map((w) => (w === 'a' ? w : lowerOrCapitalised(w))).join('|')})[ \\t]+(?=([a-z]+))`, 'g');
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
const RATE_UNIT_SET: ReadonlySet<string> = new Set(RATE_UNITS);

/** The lower-case word that ends right before `offset` (spaces skipped), or ''. */
function previousWord(all: string, offset: number): string {
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
/**
 * ", which was directed by" → ", directed by": a relative pronoun with a form of "to be" before a
 * lower-case word after a comma is a reduced relative clause (runs before the "to be" pruning,
 * which alone would leave ", which directed by", an active reading). Before a number (a
 * placeholder, also after "$") it leaves an apposition: "3 boxes of 12 pencils, which is 3 * 12 =
 * 36 pencils" → "…, 3 * 12 = 36 pencils"; "Tom, who is 30, …" → "Tom, 30, …".
 */
export const REDUCED_RELATIVE_RE = /,[ \t]+(?:which|who)[ \t]+(?:is|are|was|were)[ \t]+(?=[a-z]|\$?\x0E)(?!(?:what|why|how|when|where|who|whom|whose|which|that|the[ \t]+reason)\b)/g;

/**
 * The retrieval-prompt header "Document [n](Title: T) body" (the lost-in-the-middle / NQ-open
 * template; also "Passage"). balanced drops "(Title: T)" when the body opens with T itself (the
 * title is then said twice); aggressive writes "[n](T) body", or "[n] body" when the body opens
 * with T. The number is a placeholder (masked); the title runs up to the ")" that a space follows,
 * so a title with its own parentheses stays whole.
 */
export const DOC_HEADER_RE = /\b(?:Document|Passage)[ \t]*\[(\x0E[\x10-\x1F]+\x0F)\](?:[ \t]*\(Title:[ \t]*([^\n]{1,300}?)\))?[ \t]+(?=\S)/g;

/** True when the text at `at` opens with `title` as whole words, after an optional article ("The 2011 NBA Finals"). */
function opensWith(all: string, at: number, title: string): boolean {
  if (title === '') return false;
  const article = LEADING_ARTICLE_RE.exec(all.slice(at, at + 4));
  if (article && !/^(?:the|a|an)\b/i.test(title)) at += article[0].length;
  if (!all.startsWith(title, at)) return false;
  const next = all.charCodeAt(at + title.length);
  const lower = next | 0x20;
  return !(lower >= 97 && lower <= 122) && !(next >= 48 && next <= 57) && next !== 0x0e;
}

const LEADING_ARTICLE_RE = /^(?:The|An|A) /;

function dropRepeatedTitle(m: string, n: string, title: string | undefined, offset: number, all: string): string {
  return title !== undefined && opensWith(all, offset + m.length, title) ? m.slice(0, m.indexOf(']') + 1) + ' ' : m;
}

function shortenDocHeader(m: string, n: string, title: string | undefined, offset: number, all: string): string {
  return title === undefined || opensWith(all, offset + m.length, title) ? `[${n}] ` : `[${n}](${title}) `;
}
/** "Okay , so , we start": a discourse marker set off by a comma at a clause start (aggressive drops it). */
export const DISCOURSE_MARKER_RE = new RegExp(String.raw`${WORD_START}(?:${DISCOURSE_MARKERS.map(lowerOrCapitalised).join('|')})[ \t]*,[ \t]*`, 'g');
// Not when a verb follows: then "that" is the subject ("I thought that was important").
export const COMPLEMENTIZER_RE = new RegExp(
  `${WORD_START}(${COMPLEMENTIZER_VERBS.join('|')})[ \\t]+that[ \\t]+(?=[A-Za-z])(?!(?:is|are|was|were|will|would|can|could|has|have|had|should|shall|must|may|might|does|did|do|seems?|seemed|makes?|made|means?|meant|sounds?|looks?|works?|worked|happens?|happened|goes|went|came|comes)\\b)`,
  'gi',
);

/** True when the match at `offset` continues a hyphenated or apostrophised word. */
function joined(all: string, offset: number): boolean {
  const c = all.charCodeAt(offset - 1);
  return c === 45 /* - */ || c === 39 /* ' */ || c === 0x2019;
}

/** True when `offset` starts a sentence: text start, line start, or after . ! ? : (spaces skipped). */
export function atSentenceStart(all: string, offset: number): boolean {
  let i = offset - 1;
  while (i >= 0 && (all.charCodeAt(i) === 32 || all.charCodeAt(i) === 9)) i--;
  if (i < 0) return true;
  const c = all[i]!;
  return c === '.' || c === '!' || c === '?' || c === ':' || c === '\n' || c === LINE_MARK || c === LABEL_LINE_MARK || c === SPLIT_MARK || c === CAP_MARK;
}

/** True when `offset` starts a clause: a sentence start or after , ; */
function atClauseStart(all: string, offset: number): boolean {
  let i = offset - 1;
  while (i >= 0 && (all.charCodeAt(i) === 32 || all.charCodeAt(i) === 9)) i--;
  return i < 0 || all[i] === ',' || all[i] === ';' || atSentenceStart(all, offset);
}

/** After a number or a protected span (placeholder): "7 mm" is a unit, not a disfluency. */
const HORIZONTAL_SPACE_RE = /[ \t\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]/;

function afterNumber(all: string, offset: number): boolean {
  let i = offset - 1;
  while (i >= 0 && HORIZONTAL_SPACE_RE.test(all[i]!)) i--; // also no-break spaces: "7\u00A0mm"
  const c = all.charCodeAt(i);
  return (c >= 48 && c <= 57) || c === 0x0f; // \x0F ends a placeholder
}

const MODAL_WRAPPER_RE = /^(?:can|could|would|will)[ \t]/i;

type Removal = (m: string, offset: number, all: string) => string;
const SPACE: Removal = () => ' ';

/** `gated`: "um" and "er" only on English lines (EnglishLines); the checker's view (retention.ts) lets them go anywhere. */
function removeSpeechNoise(s: string, removed: Removal, gated: boolean): string {
  const english = gated ? new EnglishLines() : null;
  return s
    .replace(NON_SPEECH_RE, ' ')
    .replace(DISFLUENCY_RE, (m, lead: string | undefined, end: string | undefined, offset: number, all: string) => {
      const word = lead === undefined ? offset : offset + lead.length;
      if (joined(all, word) || afterNumber(all, word) || (english !== null && AMBIGUOUS_DISFLUENCY_RE.test(m.slice(word - offset)) && !english.at(all, word))) return m;
      // A disfluency that ends a sentence: after a comma the sentence ends there ("I see, hmm." →
      // "I see."); alone it is the sentence and goes with its stop ("Hmm. Let me think." → "Let me
      // think.", a turn's ": Um ." → ":").
      if (end !== undefined && (lead !== undefined || atSentenceStart(all, word))) return lead !== undefined ? end : '';
      return lead !== undefined ? ', ' : removed(m, word, all) + (end ?? '');
    });
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
    // Again until stable (bounded): "Tu tu tu tu" first collapses as a two-word unit.
    s = collapseRepeatsUntilStable(s, 3);
  }
  if (SPOKEN_FILLER_GATE_RE.test(s)) {
    s = s.replace(SPOKEN_FILLER_LEAD_RE, (m, offset: number, all: string) => (!joined(all, offset) && atClauseStart(all, offset) ? removed(m, offset, all) : m));
    s = s.replace(SPOKEN_FILLER_TAIL_RE, ' ');
  }
  // "Could you explain" is a wrapper only where it opens the sentence ("What can you tell" keeps it).
  s = s.replace(PLEASE_RE.test(s) ? FILLER_RE : FILLER_WITHOUT_COMMA_RE, (m, offset: number, all: string) =>
    joined(all, offset) || (MODAL_WRAPPER_RE.test(m) && !atSentenceStart(all, offset)) ? m : removed(m, offset, all),
  );
  if (s.includes('Title:')) s = s.replace(DOC_HEADER_RE, dropRepeatedTitle);
  return s.replace(VERBOSE_RE, (m, offset: number, all: string) => {
    if (joined(all, offset)) return m;
    const to = VERBOSE_MAP.get(phraseKey(m)) ?? m;
    return m.charCodeAt(0) < 97 ? to.charAt(0).toUpperCase() + to.slice(1) : to;
  });
}

/**
 * A retrieved passage: from a line that opens with a passage header to the end of its paragraph
 * (a blank line). Headers: "[n]" and "[n](Title)" (what DOC_HEADER_RE leaves of "Document [n](Title:
 * T)"), "Document 3:", "Passage [2]", "Source #1.", "Context:", "Snippet 4)" and the like (numbers
 * are placeholders here), or an attribute-less <document>/<doc>/<passage>/<context>/<source> tag.
 * Answers are quoted from passages word for word, so there an article after a preposition stays
 * ("directly into the bloodstream").
 */
const NUM = String.raw`\x0E[\x10-\x1F]+\x0F`;
const EVIDENCE_HEADER_RE = new RegExp(
  String.raw`(?:^|\n)[\x02\x03\x04]?[ \t]*(?:\[${NUM}\](?:\([^\n]{0,300}?\)(?=[ \t]))?|(?:Document|Passage|Doc|Source|Context|Snippet|Excerpt|Article|Search result)s?[ \t]*(?:\[?#?${NUM}\]?[ \t]*[:.)\]-]?|:)|<(?:document|doc|passage|context|source)s?>)[ \t]*`,
  'y',
);

/** The first passage header from `from` on (at the text's start or at a line break), or null. */
function headerAt(text: string, from: number): RegExpExecArray | null {
  for (let at = from === 0 ? 0 : text.indexOf('\n', from); at !== -1; at = text.indexOf('\n', at + 1)) {
    EVIDENCE_HEADER_RE.lastIndex = at;
    const h = EVIDENCE_HEADER_RE.exec(text);
    if (h !== null) return h;
  }
  return null;
}

/** Retrieved-passage ranges of one text, queried in increasing offset order (one cursor). */
class Passages {
  readonly #starts: number[] = [];
  readonly #bodies: number[] = [];
  readonly #ends: number[] = [];
  #r = 0;

  constructor(text: string) {
    // A header opens the text or follows a line break: the sticky regex is tried only there (the
    // same matches as one global scan, which tries every position: 2-3x slower).
    for (let h = headerAt(text, 0); h !== null; h = headerAt(text, h.index + h[0].length)) {
      const body = h.index + h[0].length;
      const end = text.indexOf('\n\n', body);
      // A passage runs to its paragraph's end or to the next header, whichever comes first.
      const last = this.#ends.length - 1;
      if (last >= 0 && this.#ends[last]! > h.index) this.#ends[last] = h.index;
      this.#starts.push(h.index);
      this.#bodies.push(body);
      this.#ends.push(end === -1 ? text.length : end);
    }
  }

  /** 0 outside passages, 1 inside, 2 at the first character of a passage's body. */
  at(offset: number): 0 | 1 | 2 {
    while (this.#r < this.#ends.length && this.#ends[this.#r]! < offset) this.#r++;
    if (this.#r >= this.#ends.length || this.#starts[this.#r]! > offset) return 0;
    return offset === this.#bodies[this.#r] ? 2 : 1;
  }
}

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
    if (atSentenceStart(all, offset) || where === 2) return '';
    if (m.charCodeAt(0) < 97 || ARTICLE_KEEP_BEFORE.has(next)) return m;
    if (m.charCodeAt(0) === 97 /* a, an */ && RATE_UNIT_SET.has(next)) return m; // "$12 an hour"
    const before = previousWord(all, offset);
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
 * sentence without a colon of its own (two colons would read as a list or a label); not after a
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
    if (c === '.' || c === '!' || c === '?' || c === '\n') return true;
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

const isSentenceEnd = (c: number): boolean => c === 46 /* . */ || c === 33 /* ! */ || c === 63 /* ? */ || c === 10;
const isClauseEnd = (c: number): boolean => c === 44 /* , */ || c === 59 /* ; */ || c === 58 /* : */ || isSentenceEnd(c);

/**
 * The sentences (or clauses) of one text, asked about at increasing offsets, as a replace callback
 * does: a span runs from after one end mark to the next (the mark included). Each character is read
 * a bounded number of times over all questions, however many matches a span holds: linear.
 */
class Spans {
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
class Context {
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

/** The pruning of `aggressive` over a whole (masked) text. */
/**
 * A sentence inside a speaker turn made only of acknowledgements ("Okay .", "Yep , yep .", "Mm-hmm ."):
 * aggressive drops it with the blanks before it. Each repetition consumes a word: linear.
 */
const BACKCHANNEL_WORD = String.raw`\b(?:${BACKCHANNEL_WORDS.map(escape).join('|')})\b`;
const ACK_SENTENCE_RE = new RegExp(String.raw`([.!?:])[ \t]+${BACKCHANNEL_WORD}(?:(?:[ \t]*,)?[ \t]+${BACKCHANNEL_WORD})*[ \t]*[.!?]+(?=[ \t\n]|$)`, 'gi');

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

export function applyAggressive(s: string): string {
  // Only in text with speaker turns (core.ts marks them with LINE_MARK).
  if (s.includes(LINE_MARK)) {
    s = s.replace(ACK_SENTENCE_RE, '$1');
    s = s.replace(SPOKEN_FILLER_MID_RE, (m, offset: number, all: string) => (joined(all, offset) || FILLER_KEPT_AFTER.has(previousWord(all, offset).replace(/['’]/g, '')) ? m : ' '));
    s = s.replace(SPOKEN_HEDGE_RE, (m, offset: number, all: string) => (joined(all, offset) || HEDGE_KEPT_AFTER.has(previousWord(all, offset)) || atSentenceStart(all, offset) ? m : ''));
  }
  s = s
    .replace(REDUCED_RELATIVE_RE, ', ')
    .replace(DISCOURSE_MARKER_RE, (m, offset: number, all: string) => {
      if (joined(all, offset) || !atClauseStart(all, offset)) return m;
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
  return s
    .replace(ARTICLE_RE, articlePruner(s))
    .replace(PRUNE_RE, (m, offset: number, all: string) =>
      joined(all, offset) || atSentenceStart(all, offset) || (BE_FORMS.has(m.trimEnd().toLowerCase()) && (BE_KEPT_AFTER.has(previousWord(all, offset)) || BEFORE_ARTICLE_RE.test(all.slice(offset + m.length, offset + m.length + 4))))
        ? m
        : '',
    )
    .replace(COMPLEMENTIZER_RE, (m, verb: string, offset: number, all: string) => (joined(all, offset) ? m : `${verb} `));
}

export const INSTRUCTION_START_RE = new RegExp(`^(?:${[...INSTRUCTION_OPENERS].sort(byLengthDesc).map(phrase).join('|')})${WORD_END}`, 'i');
/** An instruction opener at `lastIndex` (sticky); the openers as a character trie (~15 % faster than the flat alternation). */
export const INSTRUCTION_AT_RE = new RegExp(`(?:${trieSource(INSTRUCTION_OPENERS)})${WORD_END}`, 'iy');

/** A speaker turn with something after its label (checked on the input line, before any removal). */
export const SPOKEN_TURN_RE = /^[A-Z][\w.'’-]*(?:[ \t]+[A-Z0-9][\w.'’-]*){0,3}:[ \t]*[^ \t.,;!?…-]/;

/** A speaker turn left with nothing said ("Project Manager:", "Speaker 2:"): capitalised label words only. */
export const EMPTY_TURN_RE = /^[A-Z][\w.'’-]*(?:[ \t]+[A-Z0-9][\w.'’-]*){0,3}:[ \t.,;!?…-]*$/;

/** A labelled turn that only acknowledges: "Speaker: Yeah , okay ." (aggressive drops it). */
export const BACKCHANNEL_TURN_RE = new RegExp(
  String.raw`^[A-Z][\w.'’-]*(?:[ \t]+[A-Z0-9][\w.'’-]*){0,3}:(?:[ \t,.!?]*\b(?:${BACKCHANNEL_WORDS.map(escape).join('|')})\b)+[ \t,.!?]*$`,
  'i',
);

/** Attribute-less HTML tags that only decorate text: removed in `safe`. Block tags leave a line break. */
export const INLINE_TAGS = ['b', 'i', 'u', 'em', 'strong', 'span', 'small', 'big', 'font', 'mark', 'abbr', 'cite', 'strike', 'ins', 'tt', 'nobr'];
export const BLOCK_TAGS = ['p', 'div', 'section', 'article', 'header', 'footer', 'main', 'aside', 'body', 'html', 'center', 'blockquote', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6'];
export const INLINE_TAG_RE = new RegExp(`</?(?:${INLINE_TAGS.join('|')})\\s*>`, 'gi');
export const BLOCK_TAG_RE = new RegExp(`[ \\t]*</?(?:${BLOCK_TAGS.join('|')})\\s*>[ \\t]*`, 'gi');
export const BR_RE = /[ \t]*<br\s*\/?>[ \t]*/gi;

/** `**bold**`, `__bold__`, `*em*`: the markers carry no content. Underscore forms never touch identifiers (protected before). */
export const EMPHASIS_RE = /\*\*(?=[^\s*])([^*\n]{0,300}?[^\s*])\*\*|(?<![A-Za-z0-9*\\])\*(?=[A-Za-z])([A-Za-z][^*\n]{0,300}?[^\s*])\*(?![A-Za-z0-9*])/g;

/**
 * A contraction written with its clitic split off, as tokenised transcripts (ICSI, Penn Treebank)
 * do: "it 's", "I 've", "do n't" → "it's", "I've", "don't" (safe: the words and the negation are
 * the same; the split form costs one or two extra tokens each time).
 */
// Starts with the letter, not a lookbehind: about 7x faster; the lookahead consumes no clitic, so
// a chain ("do n't 've") joins in one pass. Replace with '$1'.
// The same spaces as SPACE_RUN_RE (a no-break space run collapses to a space, which would then join
// on the next pass: the retention checker must see the same join).
export const SPLIT_CLITIC_RE = /([A-Za-z])[ \t\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]+(?=(?:['’](?:s|ve|re|ll|d|m)|n['’]t)\b(?![-'’\w]))/g;

const CLITIC_AT_RE = /(?:['’](?:s|ve|re|ll|d|m)|n['’]t)\b(?![-'’\w])/y;
const isHorizontalSpace = (c: number): boolean => c === 32 || c === 9 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x202f || c === 0x205f || c === 0x3000;

/**
 * `s.replace(SPLIT_CLITIC_RE, '$1')` with the same result (test/compress-core.test.ts compares
 * them), found from the apostrophes instead of trying the pattern at every letter: for each
 * clitic (`'s`, or `n't` from its "n"), the spaces right before it go when a letter precedes them.
 */
export function joinClitics(s: string): string {
  let out = '';
  let copied = 0;
  // The next ' and the next ’, each searched for again only when the walk has passed it.
  let straight = s.indexOf("'");
  let curly = s.indexOf('’');
  while (straight !== -1 || curly !== -1) {
    let k: number;
    if (curly === -1 || (straight !== -1 && straight < curly)) {
      k = straight;
      straight = s.indexOf("'", k + 1);
    } else {
      k = curly;
      curly = s.indexOf('’', k + 1);
    }
    // The clitic starts at the apostrophe, or at the "n" of "n't".
    const c = s.charCodeAt(k - 1) === 110 /* n */ && s.charCodeAt(k + 1) === 116 /* t */ ? k - 1 : k;
    let j = c;
    while (j > copied && isHorizontalSpace(s.charCodeAt(j - 1))) j--;
    if (j === c || j === 0 || !isLetter(s.charCodeAt(j - 1))) continue;
    CLITIC_AT_RE.lastIndex = c;
    if (!CLITIC_AT_RE.test(s)) continue;
    out += s.slice(copied, j);
    copied = c;
  }
  return copied === 0 ? s : out + s.slice(copied);
}

/**
 * `s.replace(/[ \t]+$/gm, '')`: spaces and tabs at line ends removed, found from the line breaks
 * (a regex tries every blank of the text). Text with other line terminators takes the regex.
 */
export function trimLineEnds(s: string): string {
  if (s.indexOf('\r') !== -1 || s.indexOf('\u2028') !== -1 || s.indexOf('\u2029') !== -1) return s.replace(/[ \t]+$/gm, '');
  let out = '';
  let copied = 0;
  for (let nl = s.indexOf('\n'); ; nl = s.indexOf('\n', nl + 1)) {
    const end = nl === -1 ? s.length : nl;
    let j = end;
    while (j > 0 && (s.charCodeAt(j - 1) === 32 || s.charCodeAt(j - 1) === 9)) j--;
    if (j < end) {
      out += s.slice(copied, j);
      copied = end;
    }
    if (nl === -1) break;
  }
  return copied === 0 ? s : out + s.slice(copied);
}

/** Invisible characters that never carry meaning in a prompt (ZWJ/ZWNJ are kept: emoji and Indic scripts need them). */
export const INVISIBLE_RE = /[\u200B\u2060\uFEFF\u00AD]/g;
/**
 * A run of two or more horizontal spaces of any kind. A single no-break or thin space stays: it
 * may bind a number to its unit ("4\u00A0in").
 */
export const SPACE_RUN_RE = /([^\s\u0002\u0003\u0004])[ \t\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]{2,}/g;
