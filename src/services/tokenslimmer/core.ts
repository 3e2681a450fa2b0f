/**
 * API-09 TokenSlimmer core: deterministic prompt compression in three levels.
 *
 *   safe        whitespace, attribute-less HTML decoration, Markdown emphasis markers, invisible
 *               characters, repeated lines/paragraphs, JSON minified (whitespace; \uXXXX escapes
 *               of printable characters written out), split contractions joined ("it 's" → "it's")
 *   balanced    + filler/politeness/hedges, transcript disfluencies and non-speech tags, verbose
 *               phrases from the documented table (phrases.ts), instructions said twice, a
 *               retrieval header's title that its passage repeats, acknowledgement-only turns not
 *               after a question, boilerplate lines of pasted e-mails and pages and calculator
 *               notes of worked steps (boilerplate.ts),
 *               consecutive turns of one speaker in a transcript joined (turns.ts mergeTurns),
 *               articles in the worked examples of a few-shot prompt (demos.ts)
 *   aggressive  + forms of "to be", empty intensifiers, articles (kept before names, in quantities,
 *               in "the answer is", after prepositions inside retrieved passages), reduced
 *               relatives, shorter retrieval headers, discourse markers, "that" after verbs of
 *               saying, acknowledgement-only turns and sentences (prose only), boilerplate with
 *               values, image-only lines, related-link lists, URL tracking parameters, inline
 *               link targets in prose, spoken "you know ," / "I mean ," and hedges in transcripts
 *
 * After the fixed point, pipe tables lose their outer pipes where GFM allows (pipe-tables.ts).
 *
 * What is never touched: code blocks (fenced, <pre>, indented by 4), inline code, URLs, e-mails,
 * quoted strings, numbers, identifiers, tags with attributes, table rows (whitespace only).
 * These are masked (mask.ts: placeholders of C0 control characters; the same text always gets the
 * same placeholder, so duplicate lines stay equal), the rules run over the whole masked prompt
 * with one regex call each, and the placeholders are restored.
 *
 * Idempotence by construction: one pass `f` is applied until the text stops changing, so the
 * result `y` satisfies f(y) = y and compressing it again returns it unchanged. Every rule either
 * shortens the text or is itself idempotent, so the loop ends (in practice after 2–3 passes).
 */
import { Masker, maskBlocks, oneByte } from './mask.ts';
import { maskProtected } from './patterns.ts';
import { dedupeAndJoin } from './dedupe.ts';
import { bareTables } from './pipe-tables.ts';
import { restructure } from './structure.ts';
import { mergeTurns } from './turns.ts';
import { dropBoilerplate } from './boilerplate.ts';
import { examplesQuoteTheirInput, fewShotPlan, type FewShotPlan, materialStart, outsideOutputAnswers, pruneDemoArticles } from './demos.ts';
import { onEnglishRuns } from './language.ts';
import { applyBalanced, removeForeignFillers } from './rules.ts';
import { BLOCK_TAG_RE, BR_RE, EMPHASIS_RE, INLINE_TAG_RE, joinClitics, SPACE_RUN_RE, trimLineEnds } from './surface.ts';
import { applyAggressive } from './telegraph.ts';
import { CAP_MARK, escape, LINE_MARK, SPLIT_MARK } from './words.ts';

export type Level = 'safe' | 'balanced' | 'aggressive';
export const LEVELS: readonly Level[] = Object.freeze(['safe', 'balanced', 'aggressive'] as const);

/** Passes allowed before giving up on a fixed point (typical: 2–3; see the property tests). */
const MAX_PASSES = 12;

/**
 * Compresses `text` at `level` and returns the fixed point.
 *
 * @example compressText('Could you please explain, in order to learn,  the   rule?', 'balanced')
 *          // 'Explain, to learn, the rule?'
 */
export function compressText(text: string, level: Level): string {
  let current = text;
  // A prompt that asks for a quotation ("Quote his answer", "their exact words") needs the words of
  // its material as written, and so does one that tags tokens ("the O" under its sentence): the
  // word rules are off, the line passes of the level still run.
  const words = level !== 'safe' && (asksForQuotation(text) || tagsTokens(text)) ? 'safe' : level;
  for (let i = 0; i < MAX_PASSES; i++) {
    const next = compressPass(current, level, words);
    // Outer table pipes go last: the passes (masking, the table scan) read `|…|` rows.
    if (next === current) return bareTables(i === 0 ? text : oneByte(current));
    current = next;
  }
  // No fixed point within the bound: return the input untouched rather than a text that would
  // change again on a second call (idempotence is a contract, a saving is not).
  return text;
}

/** One pass over the whole prompt; `words`: the level whose word rules run (safe when the prompt asks for a quotation). */
export function compressPass(input: string, level: Level, words: Level = level): string {
  const text = dropBoilerplate(restructure(input.includes('\r') ? input.replace(/\r\n?/g, '\n') : input), level);
  const masker = new Masker();
  let masked = maskBlocks(text, masker);
  masked = maskProtected(masked, masker.mask);
  masked = maskMentioned(masked, text, masker.mask);
  masked = applyRules(masked, words, words === 'aggressive' || (words === 'balanced' && !examplesQuoteTheirInput(text)), words === 'safe' ? undefined : fewShotPlan(text));
  const out = masker.restore(dedupeAndJoin(masked, level, masker.options));
  // Speaker turns join only in text that has them (the masker marked each with LINE_MARK).
  return level === 'safe' || !masked.includes(LINE_MARK) ? out : mergeTurns(out);
}

/** A word alone in quotes: the prompt speaks of it ('the word "actually" signals surprise'). */
const MENTION_RE = /["“'‘]([A-Za-z][a-z’']{1,20})[.,]?["”'’]/g;
/** Most mentioned words read (a prompt quoting many single words is a word list, not a mention). */
const MENTIONS_MAX = 20;

/**
 * `masked` with every occurrence of a word the prompt mentions in quotes masked: the example that
 * holds it ("It was actually pretty relaxing.") keeps it, or the prompt would speak of a word
 * that is gone. Only words of letters (a filler, a hedge, an article), whole and in any case.
 */
function maskMentioned(masked: string, text: string, mask: (span: string) => string): string {
  if (!text.includes('"') && !text.includes('“') && !text.includes("'") && !text.includes('‘')) return masked;
  const words = new Set<string>();
  for (const m of text.matchAll(MENTION_RE)) {
    words.add(m[1]!.toLowerCase());
    if (words.size > MENTIONS_MAX) return masked;
  }
  if (words.size === 0) return masked;
  const re = new RegExp(String.raw`(?<![\p{L}\p{N}'’])(?:${[...words].map(escape).join('|')})(?![\p{L}\p{N}])`, 'giu');
  return masked.replace(re, mask);
}

/**
 * A request for the material's own words: "quote his answer", "quote the passage that says so",
 * "their exact words", "word for word", "copy it verbatim", "in her own words". A value asked for
 * "as written" (a date, a figure) is kept as written anyway; "please quote the invoice number"
 * (a reference) and "the original quote" (a price) are no such request.
 */
const QUOTATION_RE =
  /\bquote (?:(?:his|her|their|its|the speaker'?s|the witness'?s?|the customer'?s) (?:\w+ )?(?:answers?|words|repl(?:y|ies)|responses?|statements?|testimony|remarks?|comments?)\b|(?:him|her|them)\b|(?:the|a|any) (?:\w+ )?(?:sentences?|passages?|lines?|paragraphs?|parts?|section|clause|statements?|wording)\b)|\bexact words\b|\bword[- ]for[- ]word\b|\b(?:quote|copy|reproduce|repeat|cite|extract|return|give)\b[^.?!\n]{0,40}\bverbatim\b|\bin (?:his|her|their) own words\b/i;

/** A token and its tag on a line, as CoNLL files and taggers print them ("Ruiz I-PER", "the O", "dog NN"). */
const TOKEN_TAG_LINE_RE = /^\S{1,40}[ \t]+(?:O|[BIES]-[A-Za-z]{2,10}|[A-Z]{2,4}\$?)[ \t]*$/;
/** Consecutive token lines that make a tagging. */
const TOKEN_TAG_LINES = 6;

/** The prompt tags tokens (TOKEN_TAG_LINES lines of token and tag in a row): its sentences' words are the tokens. */
export function tagsTokens(text: string): boolean {
  let run = 0;
  for (let start = 0; start < text.length; ) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    if (end - start <= 60 && TOKEN_TAG_LINE_RE.test(text.slice(start, end))) {
      if (++run >= TOKEN_TAG_LINES) return true;
    } else run = 0;
    start = end + 1;
  }
  return false;
}

/** The prompt asks for a quotation of its material (QUOTATION_RE, read anywhere in the prompt). */
export function asksForQuotation(text: string): boolean {
  return QUOTATION_RE.test(text);
}

const SPLIT_LINE = '\n' + SPLIT_MARK;

/**
 * The level's rules over the whole masked text, one regex call each; `demos`: balanced prunes the
 * articles of few-shot examples (demos.ts); `plan`: what of a few-shot prompt keeps its words.
 */
function applyRules(s: string, level: Level, demos = false, plan?: FewShotPlan): string {
  if (s.includes('<')) s = s.replace(BR_RE, SPLIT_LINE).replace(BLOCK_TAG_RE, SPLIT_LINE).replace(INLINE_TAG_RE, '');
  if (s.includes('*')) s = s.replace(EMPHASIS_RE, (_m, a: string | undefined, b: string | undefined) => a ?? b ?? '');
  s = joinClitics(s); // found from the apostrophes: without one, two indexOf calls
  if (level !== 'safe') {
    // Space runs (also of no-break and other Unicode spaces) collapse before the phrase rules, as
    // retention.ts normalises them: "please \u2003answer" must read as "please answer" in the
    // first pass too, or a wrapper rule would see a different text than the checker.
    // The English word tables leave lines of another language as they are (language.ts), but for
    // hesitation sounds that are no word of any language ("äh", "euh").
    s = s.replace(SPACE_RUN_RE, '$1 ');
    // A few-shot prompt whose example answers are the output (labels, summaries, rewrites): the
    // model copies their wording, so they keep it, and the query (with a rewrite's examples) is
    // the material of the task; the rest of the prompt is pruned.
    const at = plan === undefined ? -1 : materialStart(s, plan);
    const tail = at === -1 ? '' : s.slice(at);
    if (at !== -1) s = s.slice(0, at);
    const rules = (run: string): string => (level === 'aggressive' ? applyAggressive(applyBalanced(run, true)) : applyBalanced(run, true));
    s = onEnglishRuns(s, plan === undefined ? rules : (run) => outsideOutputAnswers(run, plan.answer, rules), removeForeignFillers) + tail;
    // Balanced prunes articles in a few-shot prompt's examples only (aggressive everywhere), and
    // both shorten their questions' "which of the following".
    if (demos) s = pruneDemoArticles(s, false, level === 'balanced');
    if (s.includes(CAP_MARK)) s = s.replace(/\u0001[ \t]*([a-z])(?=[a-z]*\b)/g, (_m, c: string) => c.toUpperCase()).replace(/\u0001/g, '');
  }
  return trimLineEnds(s.replace(SPACE_RUN_RE, '$1 '));
}
