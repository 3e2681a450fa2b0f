/**
 * API-09 de-duplication (core.ts runs it on the masked text after the level's rules): lines left
 * empty by a removal, repeated lines and paragraphs (every level), and in balanced and aggressive
 * the sentences said again (few-shot framing, instructions). Placeholders of protected spans are
 * interned (the same text gets the same placeholder), so equal masked text is equal input text.
 */
import type { Level } from './core.ts';
import { EMPTY_TURN_RE, BACKCHANNEL_TURN_RE, INSTRUCTION_SCAN_RE, INSTRUCTION_START_RE, atSentenceStart } from './rules.ts';
import { SeenSet } from './seen-set.ts';

/** A line or paragraph takes part in de-duplication only from this size on ("Yes." twice is dialogue). */
const DEDUPE_MIN_WORDS = 4;
const DEDUPE_MIN_CHARS = 20;
const INSTRUCTION_MIN_WORDS = 5;

/** Drops emptied lines, repeated lines, repeated instructions and repeated paragraphs; collapses blank runs. */
export function dedupeAndJoin(masked: string, level: Level, options: ReadonlySet<string>): string {
  const words = level !== 'safe';
  const seenLines = new SeenSet();
  const seenSentences = new Set<string>();
  const seenLabelled = new SeenSet();
  const seenLead = new Map<string, Set<string>>();
  const paragraphs: string[][] = [];
  let current: string[] = [];
  const repeated = words ? repeatedInstructions(masked) : undefined;
  const raws = masked.split('\n');
  for (let i = 0; i < raws.length; i++) {
    const raw = raws[i]!;
    let at = 0;
    while (raw.charCodeAt(at) === 32 || raw.charCodeAt(at) === 9) at++;
    const mark = raw.charCodeAt(at);
    const marked = mark === 2 || mark === 3 || mark === 4;
    let line = raw;
    if (marked) {
      let after = at + 1;
      while (raw.charCodeAt(after) === 32 || raw.charCodeAt(after) === 9) after++;
      line = raw.slice(0, at) + raw.slice(after);
    }
    const content = line.trim();
    if (content === '') {
      if (marked) continue; // emptied by removal: no paragraph break
      if (current.length > 0) paragraphs.push(current);
      current = [];
      continue;
    }
    // "Speaker:" left with nothing said (a whole input line, not the part before a removed <p>).
    if (words && mark === 2 && raws[i + 1]?.trimStart().charCodeAt(0) !== 4 && EMPTY_TURN_RE.test(content)) continue;
    if (level === 'aggressive' && mark === 2 && BACKCHANNEL_TURN_RE.test(content)) continue;
    // Internal whitespace runs were collapsed by the rules: the trimmed line is the key.
    const label = LABELLED_LINE_RE.exec(content);
    if (label) {
      // "A: Let's think step by step." again: the label stays (it marks the turn), the repeated text goes.
      const text = content.slice(label[0].length);
      if (isDedupeCandidate(text)) {
        if (!seenLabelled.add(text)) {
          current.push(line.slice(0, line.indexOf(label[0]) + label[0].length).trimEnd());
          continue;
        }
      }
      // "Q: <the task's framing sentences> <the example>": framing said again in a later turn with
      // the same label goes, the example stays (balanced and aggressive).
      if (words) {
        const kept = dropLeadingRepeats(label[0].trim(), text, seenLead);
        if (kept !== text) line = line.slice(0, line.indexOf(label[0]) + label[0].length) + kept;
      }
    } else if (isDedupeCandidate(content)) {
      if (!seenLines.add(content)) continue;
    }
    current.push(repeated && containsAny(line, repeated) ? dropRepeatedInstructions(line, seenSentences) : line);
  }
  if (current.length > 0) paragraphs.push(current);
  const seen = new SeenSet();
  const out: string[] = [];
  for (const p of paragraphs) {
    // A paragraph holding answer options is never a repeat: each question keeps its own options.
    if (p.length > 1 && !(options.size > 0 && p.some((l) => options.has(l.trim())))) {
      const key = p.map((l) => l.trim()).join('\n');
      if (key.length >= DEDUPE_MIN_CHARS) {
        if (!seen.add(key)) continue;
      }
    }
    out.push(p.join('\n'));
  }
  return out.join('\n\n');
}

/** A short label ("Q:", "A:", "User:", "Project Manager:") opening a line: a turn of a repeated structure. */
const LABELLED_LINE_RE = /^[^:\s\x0E-\x1F][^:\x0E-\x1F]{0,24}:[ \t]+/;

/** True when `s` has at least `n` space-separated words (spaces are collapsed by then). */
function hasWords(s: string, n: number): boolean {
  let at = -1;
  for (let words = 1; words < n; words++) {
    at = s.indexOf(' ', at + 1);
    if (at === -1) return false;
  }
  return true;
}

function isDedupeCandidate(key: string): boolean {
  if (key.length < DEDUPE_MIN_CHARS) return false;
  let at = -1;
  for (let words = 1; words < DEDUPE_MIN_WORDS; words++) {
    at = key.indexOf(' ', at + 1);
    if (at === -1) return false;
  }
  return true;
}

const SENTENCE_END_RE = /[.!?]+(?:[ \t]+|$)/g;
const LEAD_MIN_WORDS = 5;
/** Framing opens a turn: only the first sentences of a labelled line are compared and remembered. */
const LEAD_MAX_SENTENCES = 16;

/**
 * The text of a labelled line without its leading sentences that one of the first sentences of an
 * earlier line with the same label already said word for word (each of 5+ words; what follows
 * them always stays). The line's first sentences are remembered for later lines.
 */
function dropLeadingRepeats(label: string, text: string, seen: Map<string, Set<string>>): string {
  let known = seen.get(label);
  if (known === undefined) seen.set(label, (known = new Set()));
  let at = 0;
  let cut = 0;
  let dropping = true;
  for (let k = 0; k < LEAD_MAX_SENTENCES && at < text.length; k++) {
    SENTENCE_END_RE.lastIndex = at;
    const m = SENTENCE_END_RE.exec(text);
    if (m === null) break; // an unterminated tail is never framing
    const end = m.index + m[0].length;
    const sentence = text.slice(at, end).trimEnd();
    at = end;
    if (!hasWords(sentence, LEAD_MIN_WORDS)) {
      dropping = false;
      continue;
    }
    if (dropping && end < text.length && known.has(sentence)) cut = end;
    else dropping = false;
    known.add(sentence);
  }
  return cut === 0 ? text : text.slice(cut);
}

/** Instruction sentences that occur more than once in the text, or undefined (the common case: no work per line). */
function repeatedInstructions(text: string): Set<string> | undefined {
  const seen = new Set<string>();
  let repeated: Set<string> | undefined;
  INSTRUCTION_SCAN_RE.lastIndex = 0;
  for (let m = INSTRUCTION_SCAN_RE.exec(text); m !== null; m = INSTRUCTION_SCAN_RE.exec(text)) {
    const key = m[0];
    if (!atSentenceStart(text, m.index) || key.split(' ').length < INSTRUCTION_MIN_WORDS) continue;
    if (seen.has(key)) (repeated ??= new Set()).add(key);
    else seen.add(key);
  }
  return repeated;
}

function containsAny(line: string, keys: ReadonlySet<string>): boolean {
  for (const k of keys) if (line.includes(k)) return true;
  return false;
}

/** Drops, within a line, an instruction sentence that repeats an earlier one word for word. */
function dropRepeatedInstructions(line: string, seen: Set<string>): string {
  const sentences = line.match(/[^.!?]*[.!?]+(?:[ \t]+|$)|[^.!?]+$/g);
  if (!sentences) return line;
  let out = '';
  let dropped = false;
  for (const s of sentences) {
    const key = s.trim().replace(/[ \t]+/g, ' ');
    if (INSTRUCTION_START_RE.test(key) && key.split(' ').length >= INSTRUCTION_MIN_WORDS) {
      if (seen.has(key)) {
        dropped = true;
        continue;
      }
      seen.add(key);
    }
    out += s;
  }
  return dropped ? out.trimEnd() : line;
}
