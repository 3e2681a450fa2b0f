/**
 * API-09 de-duplication (core.ts runs it on the masked text after the level's rules): lines left
 * empty by a removal, repeated lines and paragraphs (every level), and in balanced and aggressive
 * the sentences said again (few-shot framing, instructions). Placeholders of protected spans are
 * interned (the same text gets the same placeholder), so equal masked text is equal input text.
 */
import type { Level } from './core.ts';
import { isCodeLine } from './line-kinds.ts';
import { ATTRIBUTION_RE } from './pasted-lines.ts';
import { BACKCHANNEL_TURN_RE, EMPTY_TURN_RE, INSTRUCTION_AT_RE, INSTRUCTION_START_RE } from './rules.ts';
import { SeenSet } from './seen-set.ts';
import { hasWordsIn, isEndMark, LastSentence, Sentences, trimmedEnd, TurnLeads } from './sentences.ts';

/** A line or paragraph takes part in de-duplication only from this size on ("Yes." twice is dialogue). */
const DEDUPE_MIN_WORDS = 4;
const DEDUPE_MIN_CHARS = 20;
const INSTRUCTION_MIN_WORDS = 5;

/**
 * Drops emptied lines, lines said again (within a block said again, or framing: repeatedRuns,
 * isFraming), repeated paragraphs and (balanced, aggressive) sentences
 * said again: a turn's framing that an earlier turn with the same label opened with, an
 * instruction said twice, a sentence said twice in a row; collapses blank runs.
 */
export function dedupeAndJoin(masked: string, level: Level, options: ReadonlySet<string>): string {
  const words = level !== 'safe';
  const seenLines = new SeenSet();
  /** The same lines without their quote markers (unquoted). */
  const seenPlain = new SeenSet();
  /** Records the line; true when it was said before: as it is, or, inside a block said again, quoted or not. */
  const saidBefore = (content: string, inBlock: boolean): boolean => {
    const exact = !seenLines.add(content);
    const plain = !seenPlain.add(unquoted(content));
    return inBlock ? plain : exact;
  };
  const seenInstructions = new Set<string>();
  /** Per label (an index of `labels`), the texts of its lines seen so far. */
  const labels: string[] = [];
  const seenLabelled: SeenSet[] = [];
  const sentences = new Sentences();
  const leads = words ? new TurnLeads(sentences) : undefined;
  /** The last sentence of the current turn so far, for "said twice in a row". */
  const previous = new LastSentence();
  const paragraphs: string[][] = [];
  /** Per paragraph of 2+ lines: its lines as they came (trimmed), joined, where a rule dropped or rewrote one; else ''. */
  const wholes: string[] = [];
  let current: string[] = [];
  /** The current paragraph's lines as they came (trimmed). */
  let currentWhole: string[] = [];
  /** A line of the current paragraph was dropped or rewritten here. */
  let edited = false;
  /** A line of the current paragraph went as a repeat. */
  let repeated = false;
  const raws = masked.split('\n');
  const inRun = repeatedRuns(raws);
  /** Built at the first repeat that asks (most prompts have none). */
  let fields: Set<string> | undefined;
  const isField = (label: RegExpExecArray | null): boolean => label !== null && (fields ??= fieldLabels(raws)).has(label[0].trim());
  /** The prompt's last line with text: the open slot the model continues from ("A: Let's think step by step."), never shortened as a repeat. */
  let open = raws.length - 1;
  while (open > 0 && lineContent(raws[open]!).content === '') open--;
  /** The first line of the prompt's last paragraph, the query ("Question: …" over "Answer:"): no line of it goes as a repeat. */
  let query = open;
  while (query > 0 && lineContent(raws[query - 1]!).content !== '') query--;
  // A prompt of one paragraph, or a last paragraph longer than a query, has only its open slot;
  // a prompt that ends in no slot (a label, a question) has none (a pasted footer may go).
  const last = lineContent(raws[open]!).content;
  const lastLabel = labelOf(last);
  if (!last.endsWith('?') && !last.endsWith(':') && (lastLabel === null || wordCount(last.slice(lastLabel[0].length)) > SLOT_MAX_WORDS)) query = raws.length;
  else if (query === 0 || open - query >= QUERY_MAX_LINES) query = open;
  const seenFrequent = new SeenSet();
  const captions = captionTranscript(raws);
  let next = lineContent(raws[0]!);
  let nextLabel = labelOf(next.content);
  /** The last non-blank line ended with a question mark. */
  let lastAsked = false;
  /** The line before, as it came ('' after a blank line): a line right after its copy is a record said twice, not a repeat to drop. */
  let before = '';
  /**
   * The lines since a bare field label that heads a list in several records ("Candidates:" over
   * each example's candidates), in its paragraph: they are that record's value, also where another
   * record lists the same.
   */
  let underField = false;
  /** The label the items of that list open with ('' for none; undefined before its first item). */
  let itemLabel: string | undefined;
  let headers: Set<string> | undefined;
  for (let i = 0; i < raws.length; i++) {
    const { line, content, mark } = next;
    const label = nextLabel;
    const adjacent = content !== '' && content === before;
    before = content;
    if (content === '') underField = false;
    else if (BARE_LABEL_RE.test(content)) {
      underField = (headers ??= fieldHeaders(raws)).has(content);
      itemLabel = undefined;
    } else if (underField) {
      const key = label === null ? '' : label[0].trim();
      if (itemLabel === undefined) itemLabel = key;
      else if (key !== itemLabel) underField = false;
    }
    next = i + 1 < raws.length ? lineContent(raws[i + 1]!) : NO_LINE;
    nextLabel = labelOf(next.content);
    const marked = mark === 2 || mark === 3 || mark === 4;
    if (content === '') {
      if (marked) continue; // emptied by removal: no paragraph break
      if (current.length > 0 || repeated) {
        paragraphs.push(current.length > 0 ? current : REPEATED);
        wholes.push(edited && currentWhole.length > 1 ? currentWhole.join('\n') : '');
      }
      current = [];
      currentWhole = [];
      edited = false;
      repeated = false;
      leads?.end();
      previous.clear();
      continue;
    }
    currentWhole.push(content);
    // "Speaker:" left with nothing said (a whole input line, not the part before a removed <p>).
    if (words && mark === 2 && next.mark !== 4 && saysNothing(content) && EMPTY_TURN_RE.test(content)) {
      edited = true;
      continue;
    }
    // A turn that only acknowledges ("B: Mm-hmm .", "B: so") goes, unless the turn before asked
    // (then "Yeah." is the answer); in balanced also unless it asks itself ("B: And ?").
    const asked = lastAsked;
    lastAsked = content.endsWith('?');
    if (words && mark === 2 && !asked && (level === 'aggressive' || !lastAsked) && BACKCHANNEL_TURN_RE.test(content)) {
      edited = true;
      continue;
    }
    // The turn goes on in the next line (not blank, no label of its own): what this line's framing leads to.
    const continues = next.content !== '' && nextLabel === null;
    let prefix: string; // what stays in front of the text: indentation, or a line's label
    let text: string;
    // The label a line opens with belongs to its first sentence, as retention.ts reads it: "Ann: I
    // do not agree." and "Bob: I do not agree." are two sentences (two speakers), "Q: X." and "X."
    // too. So each rule below compares a line's first sentence with its label.
    let head = '';
    // A message header line ("Subject: Re: Budget", "To: Ann") belongs to its message: it is never
    // shortened as a repeated turn, nor dropped as a repeated line (a header block repeated whole
    // is a repeated paragraph below).
    if (label && HEADER_LABEL_RE.test(label[0])) {
      previous.clear();
      current.push(line);
      continue;
    }
    // A line said three times or more, of FREQUENT_MIN_WORDS words at least: the header or footer
    // of pasted documents ("Source: Encyclopedia of Alpine Lakes, 3rd edition. All rights
    // reserved."), kept once, label and all; a turn's framing keeps its label (below). A field's
    // value is no header: the premise that three NLI examples share ("Premise: A woman …" beside
    // other premises) stays in each of them.
    if (i >= query || (captions && content.startsWith('>>'))) {
      // The query stays whole, and its open slot as written, cue included. A caption's turn is
      // speech: "ALL THOSE IN FAVOR?" asked at every vote is said again, not pasted again.
    } else if (inRun[i]! & FREQUENT && !(label && isFraming(content.slice(label[0].length))) && !seenFrequent.add(unquoted(content)) && !adjacent && !isField(label)) {
      repeated = true;
      edited = true;
      continue;
    }
    if (label) {
      const l = label[0];
      prefix = line.slice(0, line.indexOf(l) + l.length);
      text = content.slice(l.length);
      head = l.charCodeAt(l.length - 2) === 58 /* : */ && l.charCodeAt(l.length - 1) === 32 ? l : l.trim() + ' ';
      leads?.start(head);
      previous.clear();
      // "A: Let's think step by step." again: the label stays (it marks the turn), the repeated text goes.
      let k = labels.indexOf(head);
      if (k === -1) {
        k = labels.push(head) - 1;
        seenLabelled.push(new SeenSet());
      }
      // The label stays to mark the turn where the turn goes on in the next line, or framing
      // left it over the lines it heads ("A:" opens the answer). Else a label of no turn goes
      // with its text ("CONFIDENTIALITY NOTICE:" would read as an open slot), and a one-word label
      // keeps its text: a bare "Model:" would read as an empty field.
      const framing = isFraming(text);
      // Inside a block said again (a signature's "Tel: +47 …" between its other lines, which go
      // whole) a label left over would read as an empty field: there the line stays whole instead.
      const labelStays = (continues && (inRun[i]! & IN_RUN) === 0) || (framing && next.content !== '');
      if (i < query && !underField && isDedupeCandidate(text) && (labelStays || !TURN_WORD_RE.test(l)) && !seenLabelled[k]!.add(text) && !adjacent && ((inRun[i]! & IN_RUN) !== 0 && ((inRun[i]! & LONG_RUN) !== 0 || !isField(label)) || framing)) {
        leads?.skip(text);
        edited = true;
        if (!labelStays) {
          repeated = true;
          continue;
        }
        current.push(prefix.trimEnd());
        continue;
      }
    } else {
      if (i < query && !underField && !(captions && content.startsWith('>>')) && isDedupeCandidate(content) && saidBefore(content, (inRun[i]! & IN_RUN) !== 0) && !adjacent && !(current.length > 0 && next.content === '') && ((inRun[i]! & IN_RUN) !== 0 || isFraming(content))) {
        leads?.skip(content);
        repeated = true;
        edited = true;
        continue;
      }
      prefix = line.slice(0, line.indexOf(content));
      text = content;
    }
    const whole = text; // the text as the line has it
    if (words && i < query && !isBlockLine(text)) {
      // "Q: <the task's framing sentences> <the example>": framing said again in a later turn with
      // the same label goes, the example stays.
      const kept = leads!.feed(text, continues, head);
      if (kept !== text) head = ''; // what now opens the line did not open it in the input
      text = kept;
      // The sentence that opens a labelled line stays in the next two rules: dropping it would make
      // the next one open the line, and be read with the label in the next pass.
      // A line that copies the line before is a record said twice (two log lines, two payments),
      // not a sentence repeated in a turn.
      if (adjacent) previous.clear();
      text = dropSaidAgain(text, previous, head, label !== null, seenInstructions, sentences);
      // The whole line was said before; a label goes with it where it would stand alone at a
      // paragraph's end ("CONFIDENTIALITY NOTICE:" read as an open slot), but for a one-word
      // label ("A:", "Ann:", "Question:"), which keeps its line where nothing continues it; no
      // line of the query goes whole (its question, asked before the context, is asked again).
      if (text === '' && (i >= query || (label && !continues && TURN_WORD_RE.test(label[0])))) text = whole;
      else if (text === '' && (!label || !continues)) {
        repeated = true;
        edited = true;
        continue;
      }
    } else previous.clear();
    if (text === whole && line.length === prefix.length + text.length) current.push(line);
    else {
      current.push(text === '' ? prefix.trimEnd() : prefix + text);
      edited = true;
    }
  }
  if (current.length > 0 || repeated) {
    paragraphs.push(current.length > 0 ? current : REPEATED);
    wholes.push(edited && currentWhole.length > 1 ? currentWhole.join('\n') : '');
  }
  return joinParagraphs(paragraphs, wholes, options);
}

/** A label of one word that is not all capitals ("A: ", "Answer: ", "Ann: "): a turn's or an answer's. */
const TURN_WORD_RE = /^[ \t]*[\x01-\x07]?[A-Za-z][a-z0-9]{0,14}[ \t]*:[ \t]*$/;

/** The most words after the label of an open slot ("A: Let's think step by step."). */
const SLOT_MAX_WORDS = 8;
/** The most lines a prompt's last paragraph has to be read as its query. */
const QUERY_MAX_LINES = 8;

/** A repeated run of lines is a block said again from this many lines, or this many words, on. */
const RUN_MIN_LINES = 3;
const RUN_MIN_WORDS = 20;
/** A paragraph of two lines said again goes from this many characters on (two records said twice stay). */
const PAIR_MIN_CHARS = 100;

/** Flags of repeatedRuns. */
const IN_RUN = 1;
const FREQUENT = 2;
/** In a run of RUN_MIN_LINES lines or more (a block said again, not one long line). */
const LONG_RUN = 4;
/** A line said this many times, of this many words, is a header or footer of pasted documents. */
const FREQUENT_MIN_TIMES = 3;
const FREQUENT_MIN_WORDS = 6;

/**
 * Per line, IN_RUN when it belongs to a block said again: a run of consecutive non-blank lines
 * (blank lines between them do not end it) that each appeared before, of RUN_MIN_LINES lines or
 * RUN_MIN_WORDS words at least (a quoted message, a footer, a signature pasted again); FREQUENT
 * when the line is said FREQUENT_MIN_TIMES times or more and holds FREQUENT_MIN_WORDS words. A
 * single line said again a second time, or a short one, is often a value of a record ("Status:
 * out for delivery", a log line, a ticket's "Projector is not working"), which no level may drop:
 * only framing goes alone.
 */
function repeatedRuns(raws: readonly string[]): Uint8Array {
  const n = raws.length;
  const inRun = new Uint8Array(n);
  const seen = new SeenSet();
  /** Per line of FREQUENT_MIN_WORDS+ words said before: how often its text comes (lines seen once are never counted). */
  let counts: Map<string, number> | undefined;
  let start = -1; // first line of the current run
  let lines = 0;
  let words = 0;
  const close = (end: number): void => {
    if (start !== -1 && (lines >= RUN_MIN_LINES || words >= RUN_MIN_WORDS)) inRun.fill(lines >= RUN_MIN_LINES ? IN_RUN | LONG_RUN : IN_RUN, start, end);
    start = -1;
    lines = 0;
    words = 0;
  };
  for (let i = 0; i < n; i++) {
    const content = lineContent(raws[i]!).content;
    if (content === '') continue;
    // A line of code said again is another query's clause, no pasted block (line-kinds.ts isCodeLine).
    const plain = unquoted(content);
    if (seen.add(plain) || isCodeLine(content)) {
      close(i);
      continue;
    }
    if (start === -1) start = i;
    lines++;
    const w = wordCount(plain);
    words += w;
    // Words of the text: quote markers and a turn's label are not counted ("Grad A: Mm - hmm ." says two).
    if (w >= FREQUENT_MIN_WORDS && wordCount(textOf(plain)) >= FREQUENT_MIN_WORDS) (counts ??= new Map()).set(plain, (counts.get(plain) ?? 1) + 1);
  }
  close(n);
  if (counts !== undefined) {
    for (let i = 0; i < n; i++) {
      const content = lineContent(raws[i]!).content;
      if ((counts.get(unquoted(content)) ?? 0) >= FREQUENT_MIN_TIMES) inRun[i]! |= FREQUENT;
    }
  }
  return inRun;
}

/** Labels that stand alone on two or more lines, over a list each time: the headers of a field of records ("Candidates:"). */
function fieldHeaders(raws: readonly string[]): Set<string> {
  const once = new Set<string>();
  const headers = new Set<string>();
  for (const raw of raws) {
    const content = lineContent(raw).content;
    if (!BARE_LABEL_RE.test(content)) continue;
    if (once.has(content)) headers.add(content);
    else once.add(content);
  }
  return headers;
}

/** Labels that open lines of two or more texts: fields of records or examples ("Premise:", "Status:"), whose repeated values are values. */
function fieldLabels(raws: readonly string[]): Set<string> {
  const first = new Map<string, string>();
  const fields = new Set<string>();
  for (const raw of raws) {
    const content = lineContent(raw).content;
    const label = labelOf(content);
    if (label === null) continue;
    const key = label[0].trim();
    if (fields.has(key)) continue;
    const text = content.slice(label[0].length);
    const seen = first.get(key);
    if (seen === undefined) first.set(key, text);
    else if (seen !== text) fields.add(key);
  }
  return fields;
}

/** A line's text after its label, if it opens with one. */
function textOf(content: string): string {
  const label = labelOf(content);
  return label === null ? content : content.slice(label[0].length);
}

/** Space-separated words of a trimmed line. */
function wordCount(s: string): number {
  let count = 1;
  for (let at = s.indexOf(' '); at !== -1; at = s.indexOf(' ', at + 1)) count++;
  return count;
}

/**
 * Prompt framing said again: a question, or an instruction ("Let's think step by step.", "Answer
 * with the letter only."), as few-shot examples repeat them. It goes where it repeats, alone too.
 */
function isFraming(text: string): boolean {
  const t = text.replace(CLOSING_QUOTES_RE, '');
  if (t.endsWith('?') || (t.endsWith(':') && QUESTION_WORD_RE.test(t)) || LETS_RE.test(text)) return true;
  // An instruction may follow a lead-in: "In the following sentences, explain the antecedent …".
  for (let at = 0; at !== -1; at = text.indexOf(', ', at + 1)) if (INSTRUCTION_START_RE.test(at === 0 ? text : text.slice(at + 2))) return true;
  return false;
}
const CLOSING_QUOTES_RE = /["'’”)\]]+$/;
const LETS_RE = /^let(?:['’]s|[ \t]+us)[ \t]/i;
/** A question put before its options ("Which sentence has the correct adjective order:"). */
const QUESTION_WORD_RE = /^(?:which|what|who|whom|whose|where|when|why|how|is|are|does|do|can)[ \t]/i;

/** A paragraph whose every line went as a repeat (it holds no line any more). */
const REPEATED: string[] = [];

/**
 * The paragraphs without the repeated ones: a paragraph of 2+ lines said before, and a short one
 * said before word for word next to a repeat (the "Tim," and "Thanks,\nAnn" of a quoted message
 * whose text is a repeat: they go with it).
 */
function joinParagraphs(paragraphs: readonly string[][], wholes: readonly string[], options: ReadonlySet<string>): string {
  const n = paragraphs.length;
  /** 1 a repeat, 2 a short paragraph said before (goes next to a repeat), 0 else */
  const state = new Uint8Array(n);
  const seen = new SeenSet();
  const seenShort = new Set<string>();
  let shortAny = false;
  for (let k = 0; k < n; k++) {
    const p = paragraphs[k]!;
    // A paragraph holding answer options is never a repeat: each question keeps its own options.
    if (options.size > 0 && p.some((l) => options.has(l.trim()))) continue;
    // A paragraph said before as it came goes whole (with the short lines that line rules left of it).
    const whole = wholes[k]!;
    if (whole.length >= DEDUPE_MIN_CHARS) {
      if (!seen.add(whole)) {
        state[k] = 1;
        continue;
      }
    }
    if (p === REPEATED) {
      state[k] = 1;
      continue;
    }
    const key = p.length === 1 ? p[0]!.trim() : p.map((l) => l.trim()).join('\n');
    if ((p.length >= RUN_MIN_LINES && key.length >= DEDUPE_MIN_CHARS) || (p.length > 1 && key.length >= PAIR_MIN_CHARS)) {
      if (!seen.add(key)) state[k] = 1;
    } else if (key.length < SHORT_MAX_CHARS && (p.length > 1 || !isDedupeCandidate(key)) && !p.some(isShortExempt)) {
      if (seenShort.has(key)) {
        state[k] = 2;
        shortAny = true;
      } else seenShort.add(key);
    }
  }
  if (shortAny) {
    // Runs of short repeats next to a repeat go with it (both directions).
    for (let k = 1; k < n; k++) if (state[k] === 2 && state[k - 1] === 1) state[k] = 1;
    for (let k = n - 2; k >= 0; k--) if (state[k] === 2 && state[k + 1] === 1) state[k] = 1;
  }
  const out: string[] = [];
  /** The links of the link-only lines kept so far. */
  let seenLinks: Set<string> | undefined;
  for (let k = 0; k < n; k++) {
    let p = paragraphs[k]!;
    if (state[k] === 1 || p === REPEATED) continue;
    // A line that is only links ("[Log In](…)", "* [Home](/) | [About](/about)") whose every link
    // an earlier link-only line holds goes: its targets stay in the first copy. So does a menu
    // pasted again in another layout (a list, then the same links on one line). After the
    // paragraph repeats, so a repeated block still reads as the block it repeats.
    if (p.some(isLinkOnly)) {
      seenLinks ??= new Set();
      const seenNow = seenLinks;
      p = p.filter((l) => {
        if (!isLinkOnly(l)) return true;
        const links = l.match(LINK_RE)!;
        if (links.every((link) => seenNow.has(link))) return false;
        for (const link of links) seenNow.add(link);
        return true;
      });
      if (p.length === 0) continue;
    }
    out.push(p.join('\n'));
  }
  return out.join('\n\n');
}

/**
 * Links and images alone on a line, under optional list markers (an empty item's marker and its
 * child's, "* * [Share](…)", as pasted share bars and menus nest), separated by nothing or | · •.
 */
const LINK_ONLY_RE = /^(?:[-*+][ \t]+|\d{1,3}[.)][ \t]+){0,4}(?:!?\[[^\]\n]{0,300}\]\([^()\s]{0,2000}(?:[ \t]+[^()\n]{0,300})?\)[ \t]*(?:[|·•][ \t]*)?)+$/;
/** One link or image of a link-only line. */
const LINK_RE = /!?\[[^\]\n]{0,300}\]\([^()\s]{0,2000}(?:[ \t]+[^()\n]{0,300})?\)/g;
const LINK_LINE_MAX_CHARS = 4000;
const isLinkOnly = (line: string): boolean => {
  if (!line.includes('](')) return false;
  const t = line.trim();
  return t.length <= LINK_LINE_MAX_CHARS && t.endsWith(')') && LINK_ONLY_RE.test(t);
};

/** A short paragraph (a greeting, a closing with a name) is at most this long. */
const SHORT_MAX_CHARS = 40;

/** A line that a short paragraph's repeat never takes along: a labelled turn, a kept block (code, table row). */
const isShortExempt = (line: string): boolean => {
  const t = line.trim();
  return isBlockLine(t) || labelOf(t) !== null || THEMATIC_BREAK_RE.test(t);
};
/** A separator line ("---", "***", "====="): it parts documents, and stays between them. */
const THEMATIC_BREAK_RE = /^(?:[-*_=][ \t]*){3,}$/;

interface LineContent {
  /** The line without its mark (indentation kept). */
  readonly line: string;
  /** The line trimmed. */
  readonly content: string;
  /** The char code after the indentation: 2, 3 or 4 for a line mark (words.ts), else anything. */
  readonly mark: number;
}

const NO_LINE: LineContent = { line: '', content: '', mark: -1 };

function lineContent(raw: string): LineContent {
  let at = 0;
  while (raw.charCodeAt(at) === 32 || raw.charCodeAt(at) === 9) at++;
  const mark = raw.charCodeAt(at);
  let line = raw;
  if (mark === 2 || mark === 3 || mark === 4) {
    let after = at + 1;
    while (raw.charCodeAt(after) === 32 || raw.charCodeAt(after) === 9) after++;
    line = raw.slice(0, at) + raw.slice(after);
  }
  return { line, content: line.trim(), mark };
}

/** True when nothing but blanks and punctuation follows the line's first colon (EMPTY_TURN_RE may hold; a cheap test first). */
function saysNothing(content: string): boolean {
  for (let i = content.indexOf(':') + 1; i > 0 && i < content.length; i++) {
    const c = content.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 46 && c !== 44 && c !== 59 && c !== 33 && c !== 63 && c !== 0x2026 && c !== 45) return false;
  }
  return content.indexOf(':') !== -1;
}

/**
 * Closed captions of a meeting or broadcast mark each change of speaker with ">>" at a line's
 * start. Read so where 3+ lines open with ">>", none opens with a single ">" and no line
 * attributes a quote ("On Monday Ann wrote:"): an e-mail's nested quotes come with those.
 */
function captionTranscript(raws: readonly string[]): boolean {
  let turns = 0;
  for (const raw of raws) {
    const t = lineContent(raw).content;
    if (t.charCodeAt(0) !== 62 /* > */) {
      if (t.endsWith(':') && ATTRIBUTION_RE.test(t)) return false;
      continue;
    }
    if (t.charCodeAt(1) !== 62 || t.charCodeAt(2) === 62 || t.charCodeAt(2) === 32 && t.charCodeAt(3) === 62) return false;
    turns++;
  }
  return turns >= 3;
}

/**
 * A line's text without the quote markers it opens with: inside a block said again, a quoted line
 * repeats the same line unquoted (balanced strips one level of markers where a quote closes its
 * message, so the first copy of a quoted signature may stand unquoted by now). A single quoted
 * question is compared as it is: answered inline right under it, it is no framing said again.
 */
const QUOTE_MARKS_RE = /^(?:>[ \t]*)+/;
const unquoted = (content: string): string => (content.charCodeAt(0) === 62 ? content.replace(QUOTE_MARKS_RE, '') : content);

/** A line kept whole by the masker (answer option, table row, code, JSON): one placeholder. */
const BLOCK_LINE_RE = /^\x0E[\x10-\x1F]+\x0F$/;
const isBlockLine = (text: string): boolean => text.charCodeAt(0) === 0x0e && BLOCK_LINE_RE.test(text);

/** A short label ("Q:", "A:", "User:", "Project Manager:") opening a line: a turn of a repeated structure. */
const LABELLED_LINE_RE = /^[^:\s\x0E-\x1F][^:\x0E-\x1F]{0,24}:[ \t]+/;
/** A label alone on its line, over what it heads ("Candidates:"). */
const BARE_LABEL_RE = /^[^:\s\x0E-\x1F][^:\x0E-\x1F]{0,24}:$/;

/** The label of a message header line. */
const HEADER_LABEL_RE = /^(?:from|to|cc|bcc|subject|date|sent|reply-to)[ \t]*:/i;

/** The label a (trimmed, non-blank) line opens with, or null; internal whitespace runs were collapsed by the rules. */
const labelOf = (content: string): RegExpExecArray | null => (content === '' || content.indexOf(':') === -1 ? null : LABELLED_LINE_RE.exec(content));

function isDedupeCandidate(key: string): boolean {
  if (key.length < DEDUPE_MIN_CHARS) return false;
  let at = -1;
  for (let words = 1; words < DEDUPE_MIN_WORDS; words++) {
    at = key.indexOf(' ', at + 1);
    if (at === -1) return false;
  }
  return true;
}

/**
 * One walk over a line's sentences for two rules. An instruction said twice: a sentence of 5+
 * words that opens like an instruction (phrases.ts INSTRUCTION_OPENERS), ends with its end mark and
 * repeats an earlier one word for word (`instructions`: those seen so far). A sentence said twice
 * in a row within a turn ("X. X." or a line that opens with the previous line's last sentence):
 * 4+ words and 20+ characters, compared case-insensitively; `previous` is the last sentence kept
 * before `text` in the turn, and is moved on. `head`: the line's label, read with its first
 * sentence; with `keepFirst` the first sentence stays. Returns the text.
 */
function dropSaidAgain(text: string, previous: LastSentence, head: string, keepFirst: boolean, instructions: Set<string>, sentences: Sentences): string {
  sentences.of(text);
  let out = '';
  let kept = 0; // text[kept, at) is to be copied
  for (let at = 0; at < text.length; ) {
    const end = sentences.end(at);
    const stop = trimmedEnd(text, at, end);
    const lead = at === 0 ? head : '';
    let drop = false;
    if (isEndMark(text.charCodeAt(stop - 1)) && (lead === '' ? ((INSTRUCTION_AT_RE.lastIndex = at), INSTRUCTION_AT_RE.test(text)) : INSTRUCTION_START_RE.test(lead))) {
      if (hasWordsIn(text, at, stop, INSTRUCTION_MIN_WORDS - (lead === '' ? 0 : lead.split(' ').length - 1))) {
        const key = lead + text.slice(at, stop);
        if (!instructions.has(key)) instructions.add(key);
        else drop = at > 0 || !keepFirst;
      }
    }
    // Said twice in a row: only a sentence as long as the previous one can be it.
    if (!drop && lead.length + stop - at === previous.length) {
      const key = (lead + text.slice(at, stop)).toLowerCase();
      drop = key === previous.key() && isDedupeCandidate(key);
    }
    if (drop) {
      out += text.slice(kept, at);
      kept = end;
    } else previous.set(text, head, at, stop);
    at = end;
  }
  return kept === 0 ? text : (out + text.slice(kept)).trimEnd();
}
