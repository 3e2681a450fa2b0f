/**
 * The demonstrations of a few-shot prompt, and the article pruning `balanced` gives them.
 *
 * A few-shot prompt is an instruction, worked examples, and the query: the same labelled pair
 * ("Q:"/"A:", "Question:"/"Answer:", "Input:"/"Output:", or an unlabelled question closed by
 * "Answer: B") said several times, the last pair left open. A model reads the examples for their
 * pattern, not their wording, so they bear more compression than the instruction and the query
 * (the budget split of LLMLingua, Jiang et al. 2023). `balanced` drops articles there and only
 * there, by the rule `aggressive` applies everywhere (telegraph.ts articlePruner: not before a
 * name, a number or a capitalised word, not in "the answer is", not after a form of "to be").
 * The instruction above the examples and the open query stay as written.
 */
import { foreignLines, onEnglishRuns } from './language.ts';
import { isSpoken } from './rules.ts';
import { pruneArticles } from './telegraph.ts';

/** A line that opens with a label of 1–3 words and a colon: "Q:", "Answer:", "Final answer:". */
const LABEL_RE = /^[\x01-\x07 \t]*([A-Z][A-Za-z]{0,19}(?:[ \t][A-Za-z]{1,20}){0,2})[ \t]*:(?!\/)[ \t]*(.*)$/;
/** The open answer may carry a cue ("A: Let's think step by step."): at most this many words. */
const OPEN_ANSWER_MAX_WORDS = 8;
/** Examples needed before the query: one could be an instruction's own sample. */
const MIN_EXAMPLES = 2;

interface Line {
  readonly start: number;
  readonly text: string;
  readonly label: string | undefined;
  readonly rest: string;
}

function linesOf(text: string): Line[] {
  const out: Line[] = [];
  for (let start = 0; start <= text.length; ) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const line = text.slice(start, end);
    const m = LABEL_RE.exec(line);
    out.push({ start, text: line, label: m?.[1], rest: m?.[2]?.trim() ?? '' });
    start = end + 1;
  }
  return out;
}

const blank = (l: Line): boolean => l.text.trim() === '';

/**
 * Labels of a conversation's roles: a chat history is no set of examples (its answers are what
 * the assistant said and will echo) and a transcript's speakers are people.
 */
const ROLE_LABELS: ReadonlySet<string> = new Set([
  'user', 'assistant', 'human', 'ai', 'bot', 'chatbot', 'system', 'model', 'gpt', 'chatgpt', 'customer', 'agent', 'client',
  'me', 'you', 'speaker', 'interviewer', 'interviewee', 'caller', 'operator', 'support', 'host', 'guest', 'moderator',
]);
/** An example whose answer repeats this share of its question's words, and the reverse, rewrites its input (grammar, style): the articles are the task. */
const COPY_SHARE = 0.7;

/**
 * The span [start, end) of `text` that holds its worked examples, or null when the text is no
 * few-shot prompt: its last line must open an answer label, empty or with the cue that the
 * examples' answers open with ("A: Let's think step by step."), and at least MIN_EXAMPLES earlier
 * answers must carry that label and text. The examples start at the first question label of that
 * pair (the label of the line that opens the open query), or, for unlabelled questions, at the
 * paragraph of the first answer; they end where the open query starts.
 *
 * Not a set of examples: a conversation (ROLE_LABELS), examples in two languages (a translation:
 * the articles of one side are what the other renders) and examples whose answer is a near copy
 * of the question (a correction: the articles may be the error).
 *
 * `lenient` (retention.ts, which may let more go, never less): any open answer, none of the
 * exclusions, and the span runs to the end of the text. The checker's view keeps the repeats the
 * compressor drops, so a sentence of the query may survive only in its pruned copy among the examples.
 */
export function demoSpan(text: string, lenient = false): [number, number] | null {
  return demoLayout(text, lenient)?.span ?? null;
}

interface DemoLayout {
  readonly span: [number, number];
  /**
   * The label that closes each example's answer with its result, when the answer under the open
   * label is the reasoning ("Reasoning: … / Answer: (A)", "Justification: … / Answer: (D)").
   */
  readonly closing: string | undefined;
  /** The label of the open query's first line ("Input", "Review"), when it has one. */
  readonly question: string | undefined;
  /** The examples' answers are near copies of their questions (a correction, a tagging): the words are the task. */
  readonly rewrite: boolean;
}

/**
 * The label of the line that closes the first example's answer on the lines under it, before a
 * blank line ("Answer" under "Reasoning: …"), unless that label also stands before the first
 * answer: then it is the next example's question ("Q:" in a prompt without blank lines).
 */
function closingLabel(lines: readonly Line[], firstAnswer: number, answer: string): string | undefined {
  let closing: string | undefined;
  for (let i = firstAnswer + 1; i < lines.length && !blank(lines[i]!); i++) {
    const label = lines[i]!.label;
    if (label === undefined || label === answer) continue;
    closing = label;
    break;
  }
  if (closing === undefined) return undefined;
  for (let i = 0; i < firstAnswer; i++) if (lines[i]!.label === closing) return undefined;
  return closing;
}

/**
 * `plan` (fewShotPlan): read a conversation, examples in another language and rewrites too, and
 * say which they are, rather than reading none of them as examples.
 */
function demoLayout(text: string, lenient: boolean, plan = false): DemoLayout | null {
  if (!openAnswerLast(text, lenient)) return null;
  const lines = linesOf(text);
  let last = lines.length - 1;
  while (last >= 0 && blank(lines[last]!)) last--;
  const open = lines[last];
  if (open?.label === undefined) return null;
  const answer = open.label;
  if (!lenient && !plan && ROLE_LABELS.has(answer.toLowerCase())) return null;
  const answers: number[] = [];
  for (let i = 0; i < last; i++) {
    const l = lines[i]!;
    if (l.label !== answer) continue;
    const next = lines[i + 1];
    // An answer with text on its line, or on the lines under it ("Answer:\n42").
    if (l.rest !== '' || (next !== undefined && !blank(next) && next.label === undefined)) answers.push(i);
  }
  if (answers.length < MIN_EXAMPLES) return null;
  // The open answer's cue must be how the examples' answers open.
  if (!lenient && open.rest !== '' && !answers.some((a) => lines[a]!.rest.startsWith(open.rest))) return null;
  // The open query's first line: after the last example's answer, which runs to a blank line (or,
  // in prompts without blank lines, to the next line with another label), the first line with
  // another label, or else the first line of the next paragraph.
  const lastAnswer = answers[answers.length - 1]!;
  const closing = closingLabel(lines, answers[0]!, answer);
  let gap = lastAnswer + 1;
  while (gap < last && !blank(lines[gap]!) && (lines[gap]!.label === undefined || lines[gap]!.label === answer || lines[gap]!.label === closing)) gap++;
  let query = -1;
  for (let i = gap; i < last && query === -1; i++) if (lines[i]!.label !== undefined && lines[i]!.label !== answer) query = i;
  let from: number;
  let to: number;
  if (query !== -1) {
    const question = lines[query]!.label;
    from = lines.findIndex((l) => l.label === question);
    if (from > answers[0]!) return null;
    to = query;
  } else {
    // Unlabelled questions ("Which …?" over its options, closed by "Answer: B"): blocks are
    // paragraphs; without a blank line before the query its start is unknown.
    if (gap === last || !blank(lines[gap]!)) return null;
    to = gap;
    while (to < last && blank(lines[to]!)) to++;
    from = answers[0]!;
    while (from > 0 && !blank(lines[from - 1]!)) from--;
  }
  let examples = 0;
  for (const a of answers) if (a >= from && a < to) examples++;
  if (examples < MIN_EXAMPLES) return null;
  const start = lines[from]!.start;
  const end = lines[to]!.start;
  const question = query === -1 ? undefined : lines[query]!.label;
  if (lenient) return { span: [start, text.length], closing, question, rewrite: false };
  if (plan) return { span: [start, end], closing, question, rewrite: rewritesInput(lines, from, to, answer) };
  if (query !== -1 && ROLE_LABELS.has(lines[query]!.label!.toLowerCase())) return null;
  if (foreignLines(text.slice(start, end)) !== null || rewritesInput(lines, from, to, answer)) return null;
  return { span: [start, end], closing, question, rewrite: false };
}

/** True when one example's answer is a near copy of its question (COPY_SHARE of the words both ways). */
function rewritesInput(lines: readonly Line[], from: number, to: number, answer: string): boolean {
  let question = new Set<string>();
  for (let i = from; i < to; i++) {
    const l = lines[i]!;
    if (l.label !== answer) {
      for (const w of wordsOf(l.label === undefined ? l.text : l.rest)) question.add(w);
      continue;
    }
    const said = new Set(wordsOf(l.rest));
    if (said.size >= 3 && question.size > 0) {
      let shared = 0;
      for (const w of said) if (question.has(w)) shared++;
      if (shared >= COPY_SHARE * said.size && shared >= COPY_SHARE * question.size) return true;
    }
    question = new Set();
  }
  return false;
}

const wordsOf = (s: string): string[] => s.toLowerCase().match(/[a-z]+/g) ?? [];

/** The cheap test first: the text's last line opens a label (most prompts stop here without splitting lines). */
function openAnswerLast(text: string, lenient: boolean): boolean {
  let end = text.length;
  while (end > 0 && /\s/.test(text[end - 1]!)) end--;
  const m = LABEL_RE.exec(text.slice(text.lastIndexOf('\n', end - 1) + 1, end));
  return m !== null && (lenient || wordCount(m[2]!) <= OPEN_ANSWER_MAX_WORDS);
}

function wordCount(s: string): number {
  let n = 0;
  for (const _ of s.matchAll(/\S+/g)) n++;
  return n;
}

/** A quoted value of 3+ characters on one line. */
const QUOTED_RE = /"([^"\n]{3,200})"/g;
const HAS_ARTICLE_RE = /(?:^|[^a-z])(?:the|an?)[ \t]/i;
/** Quoted values with an article looked for in the examples' text, at most. */
const QUOTES_READ = 32;

/**
 * The examples quote their input ("Text: The startup raised…" / `{"company": "the startup"}`, a
 * sentence judged word for word): a quoted value with an article also stands unquoted in the
 * examples. Dropping the input's articles would break what the examples show. Read on the text as
 * sent (core.ts masks quoted strings before the word rules run).
 */
export function examplesQuoteTheirInput(text: string): boolean {
  if (!text.includes('"')) return false;
  const span = demoSpan(text);
  if (span === null) return false;
  const part = text.slice(span[0], span[1]);
  const lower = part.toLowerCase();
  let read = 0;
  for (const m of part.matchAll(QUOTED_RE)) {
    const value = m[1]!;
    if (!HAS_ARTICLE_RE.test(value)) continue;
    // Each value is looked for over the examples: past QUOTES_READ of them (no few-shot prompt
    // quotes so many), the examples count as quoting, and the time stays linear.
    if (++read > QUOTES_READ) return true;
    const v = value.toLowerCase();
    for (let at = lower.indexOf(v); at !== -1; at = lower.indexOf(v, at + 1)) if (lower.charCodeAt(at - 1) !== 34 /* " */) return true;
  }
  return false;
}

/** `balanced`'s article pruning inside the examples of a few-shot prompt (see the module comment); English lines only. */
export function pruneDemoArticles(text: string, lenient = false, articles = true): string {
  const layout = demoLayout(text, lenient);
  if (layout === null) return text;
  const [from, to] = layout.span;
  const part = text.slice(from, to);
  // `articles` false: aggressive, whose own pass pruned them everywhere already.
  const prune = (run: string): string => (articles ? pruneArticles(run) : run).replace(WHICH_OF_RE, '$1 ');
  const answer = articles && !lenient ? openLabel(text) : undefined;
  const worked = answer === undefined || layout.closing !== undefined || workedAnswers(part, answer);
  const demos = onEnglishRuns(part, worked ? prune : (run) => outsideAnswers(run, answer, prune));
  return text.slice(0, from) + demos + text.slice(to);
}

/**
 * The answer label of a few-shot prompt's examples ("Output", "A"), or undefined when the text is
 * none (read as demoSpan's `lenient` reads it): an example's answer shows the format the model will copy (structure.ts leaves a one-line
 * JSON answer as written).
 */
export function exampleAnswerLabel(text: string): string | undefined {
  // Read leniently: examples in two languages, or a chat's turns, show a format as well.
  return demoSpan(text, true) === null ? undefined : openLabel(text);
}

/**
 * What `balanced` and `aggressive` leave as written in a few-shot prompt whose examples' answers
 * are the output itself (a label, a summary, a rewrite, JSON; not worked steps), or in a chat's
 * history: the model copies those answers' wording, so they keep it; and the open query is the
 * material the task works on (the review to classify, the text to rewrite), so it stays whole.
 * Where the answers are near copies of their questions (a correction, a tagging), the examples'
 * questions are that material too. Undefined for other prompts and for worked examples (a model
 * reads those for their steps).
 */
export interface FewShotPlan {
  /** The examples' answer label ("Output", "Assistant"): its answers keep their words. */
  readonly answer: string;
  /** The query's label ("Input"): from its last line on (`examples`: its first), the text keeps its words. */
  readonly question: string | undefined;
  readonly examples: boolean;
}

export function fewShotPlan(text: string): FewShotPlan | undefined {
  const layout = demoLayout(text, false, true);
  const answer = layout === null ? undefined : openLabel(text);
  if (layout === null || answer === undefined) return undefined;
  // Speech ("Ann: So, um, …" / "Bob:" to continue): a dialogue's turns, whose disfluencies go as
  // in any transcript, not examples to copy.
  if (isSpoken(text.slice(layout.span[0], layout.span[1]))) return undefined;
  if (!layout.rewrite && (layout.closing !== undefined || workedAnswers(text.slice(layout.span[0], layout.span[1]), answer))) return undefined;
  return { answer, question: layout.question, examples: layout.rewrite };
}

/**
 * Where the text a FewShotPlan leaves whole starts in `s` (the masked text, with the labels of the
 * text the plan was read from): the last line under the query's label, or with `examples` the
 * first; -1 when there is none.
 */
export function materialStart(s: string, plan: FewShotPlan): number {
  if (plan.question === undefined) return -1;
  let found = -1;
  for (let start = 0; start < s.length; ) {
    let end = s.indexOf('\n', start);
    if (end === -1) end = s.length;
    if (LABEL_RE.exec(s.slice(start, end))?.[1] === plan.question) {
      found = start;
      if (plan.examples) return found;
    }
    start = end + 1;
  }
  return found;
}

/** `rewrite` over the lines of `text` outside the answers under `answer` (see outsideAnswers). */
export function outsideOutputAnswers(text: string, answer: string, rewrite: (s: string) => string): string {
  return outsideAnswers(text, answer, rewrite, false);
}

/** The label of the text's last line with text: the open answer's ("A", "Summary"). */
function openLabel(text: string): string | undefined {
  let end = text.length;
  while (end > 0 && /\s/.test(text[end - 1]!)) end--;
  return LABEL_RE.exec(text.slice(text.lastIndexOf('\n', end - 1) + 1, end))?.[1];
}

/**
 * The examples' answers work a problem out ("Let's think step by step. … So the answer is 6."): a
 * model reads them for their steps, and the pruned articles cost nothing. Otherwise an answer is
 * the output itself (a summary, a plain-English rewrite, a span copied from the passage): the model
 * copies its wording, and a telegraphic example teaches a telegraphic reply. Those keep their
 * articles; the examples' inputs lose theirs.
 */
const WORKED_RE = /\b(?:answer|result)[ \t]+(?:is|was|would be)\b|\bstep by step\b|^[ \t]*#{4}[ \t]/im;

function workedAnswers(part: string, answer: string): boolean {
  let inAnswer = false;
  for (const line of part.split('\n')) {
    const label = LABEL_RE.exec(line)?.[1];
    if (label !== undefined) inAnswer = label === answer;
    else if (line.trim() === '') inAnswer = false;
    if (inAnswer && WORKED_RE.test(line)) return true;
  }
  return false;
}

/**
 * `prune` over the lines of `run` outside the answers under `answer` (an answer runs to a blank
 * line or another label); `which`: the answers' "which of the following" is shortened all the same.
 */
function outsideAnswers(run: string, answer: string, prune: (s: string) => string, which = true): string {
  const lines = run.split('\n');
  const out: string[] = [];
  let inAnswer = false;
  let start = 0; // first line of the current stretch
  const flush = (end: number, answers: boolean): void => {
    if (end > start) {
      const stretch = lines.slice(start, end).join('\n');
      out.push(answers ? (which ? stretch.replace(WHICH_OF_RE, '$1 ') : stretch) : prune(stretch));
    }
    start = end;
  };
  for (let i = 0; i < lines.length; i++) {
    const label = LABEL_RE.exec(lines[i]!)?.[1];
    const next: boolean = label !== undefined ? label === answer : lines[i]!.trim() === '' ? false : inAnswer;
    if (next !== inAnswer) flush(i, inAnswer);
    inAnswer = next;
  }
  flush(lines.length, inAnswer);
  return out.join('\n');
}

/**
 * "Which of the following is …" in an example's question: its options follow, so "Which is …"
 * asks the same (after the article rule the phrase reads "which of following").
 */
const WHICH_OF_RE = /\b([Ww]hich)[ \t]+of[ \t]+(?:the[ \t]+)?following[ \t]+(?=[a-z])/g;
