/**
 * Immediate repeats of one to three words ("I I think", "we were , we were"): the letter runs of a
 * text are hashed once, so a long transcript is scanned in linear time.
 */
import { PREPOSITION_WORDS } from './phrases.ts';
import { isWordChar, joined, NEGATION_WORD_RE } from './words.ts';

/** An immediate repeat of one to three words, optionally comma-separated: "I I think", "we were , we were". */
export const REPEAT_RE = /\b([A-Za-z]+(?:['’][a-z]+)?(?:[ \t]+[A-Za-z]+(?:['’][a-z]+)?){0,2})(?:[ \t]*,?[ \t]+\1\b(?![-'’]))+/gi;
const REPEAT_AT_RE = new RegExp(REPEAT_RE.source, 'iy');
/** How many letter runs after a word its repeat may start: three words of a unit, each at most two runs ("it's"). */
const REPEAT_WINDOW = 6;


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
      if (joined(s, at) || keepsRepeat(m[0], unit)) continue;
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
/** Doublings that are emphasis also with a comma between ("very, very", "really, really"); "is, is" is a stutter. */
const EMPHASIS_REPEATS: ReadonlySet<string> = new Set(['very', 'really', 'much', 'many', 'far', 'long']);
/**
 * Number words: a repeat of one is a number read out digit by digit ("seven, seven, four, one,
 * three" is 77413), never a stutter.
 */
const NUMBER_WORD_RE =
  /\b(?:zero|oh|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|double|triple|o)\b/i;

/**
 * True when a repeat `match` of `unit` (a REPEAT_RE match) stays: a negation, a number word, a
 * grammatical doubling said without a comma ("that that"), emphasis ("very, very").
 */
export function keepsRepeat(match: string, unit: string): boolean {
  const key = unit.toLowerCase();
  if (NEGATION_WORD_RE.test(unit) || NUMBER_WORD_RE.test(unit) || EMPHASIS_REPEATS.has(key)) return true;
  const comma = match.slice(unit.length).includes(',');
  // A word said again after a comma is a stutter only where no clause or list item can end in it:
  // "in cash, cash equivalents" and "if we don't use it, it sits there" are two words of the text.
  if (comma && !CLAUSE_OPENERS.has(key) && !SUBJECT_CONTRACTION_RE.test(key) && !unit.includes(' ') && !unit.includes('\t')) return true;
  return REPEAT_ALLOWED.has(key) && !comma;
}

/** A pronoun's contraction with a verb ("it's", "I'll", "that's"): it opens a clause, it never ends one. */
const SUBJECT_CONTRACTION_RE = /^(?:i|you|we|they|he|she|it|that|there|here|what|who|let)['’](?:s|m|ll|re|ve|d)$/;
const PARTICLES: ReadonlySet<string> = new Set(['up', 'down', 'out', 'off', 'over', 'around', 'along', 'through', 'by', 'about', 'across', 'behind', 'below', 'above', 'inside', 'outside', 'before', 'after', 'since', 'near', 'like', 'as']);

/**
 * Words no clause or list item ends in (articles, subject pronouns, conjunctions, prepositions,
 * auxiliaries, possessives): said twice with a comma between ("the, the", "we, we", "is, is"), the
 * speaker started again.
 */
const CLAUSE_OPENERS: ReadonlySet<string> = new Set([
  'the', 'a', 'an', 'i', 'we', 'he', 'she', 'they', 'and', 'but', 'or', 'so', 'because', 'if', 'when', 'where', 'while', 'although',
  'every', 'each', 'any', 'some', 'another',
  // Prepositions but those that also end a clause as a verb's particle (up, out, off, over, …).
  ...PREPOSITION_WORDS.filter((w) => !PARTICLES.has(w)),
  'is', 'are', 'was', 'were', 'am', 'have', 'has', 'had', 'do', 'does', 'did', 'will', 'would', 'can', 'could', 'should', 'might', 'must', 'shall',
  'my', 'your', 'our', 'their', 'his', 'its', 'that', 'this', 'these', 'those', 'what', 'which', 'who', 'how', 'why', 'then', 'just', 'like',
]);
