/**
 * The retention proof of API-09: what the input holds that the output must still hold.
 *
 * - every level: each number, URL, e-mail, quoted string, inline code span, identifier, code
 *   block and answer-option line ("(A) …", the items of an "Options:" block) of the input occurs
 *   in the output (byte for byte, after CRLF → LF);
 * - every level: negations are not lost. The output holds at least as many negation words as the
 *   input's distinct sentences do (a sentence repeated word for word may be dropped once; its
 *   negations are still in the copy that stays);
 * - safe and balanced: every word of the input occurs in the output (case-insensitive), except
 *   the words that the documented tables of phrases.ts remove (filler, disfluencies, verbose
 *   phrases, attribute-less HTML tag names, empty speaker turns).
 *
 * The checker reports classes and counts only, never the values (zero retention: it may run on
 * live traffic); `missing` lists values for tests and the eval script, which run on public data.
 */
import type { Level } from './core.ts';
import { restructure } from './structure.ts';
import { cleanHtml } from './html-leftovers.ts';
import { dropBoilerplate } from './boilerplate.ts';
import { dropCalculatorNotes } from './calculator-notes.ts';
import { withoutMobileSignatures } from './email-lines.ts';
import { codeBlocks, INDENTED_CODE_RE, NEGATION_RE, optionReader, RETAINED_CLASSES, SPAN_RE, TABLE_ROW_RE, WORD_ITEM_RE } from './patterns.ts';
import { applyBalanced, BACKCHANNEL_TURN_RE, EMPTY_TURN_RE, isSpoken } from './rules.ts';
import {
  BLOCK_TAG_RE,
  BR_RE,
  EMPHASIS_RE,
  INLINE_TAG_RE,
  INVISIBLE_RE,
  SPACE_RUN_RE,
  SPLIT_CLITIC_RE,
} from './surface.ts';
import { applyAggressive } from './telegraph.ts';
import { pruneDemoArticles } from './demos.ts';

export type RetentionClass = 'placeholder' | 'number' | 'url' | 'email' | 'quoted' | 'inline_code' | 'identifier' | 'code_block' | 'option' | 'negation' | 'content_word';

export interface RetentionResult {
  readonly ok: boolean;
  /** Per class: items checked and items missing. */
  readonly classes: Readonly<Record<RetentionClass, { checked: number; missing: number }>>;
  /** The missing values themselves (tests and eval only; never log them). */
  readonly missing: readonly { cls: RetentionClass; value: string }[];
}

const RESERVED_LINE_RE = /[\x01-\x04\x0E-\x1F]/;
/** The opaque stand-in for a protected span, shaped like core.ts's placeholders. */
const OPAQUE = '\x0E\x10\x0F';
const JSON_ESCAPE_RE = /\\u[0-9a-fA-F]{4}/g;
const WORD_RE = /[\p{L}\p{M}]+(?:['’][\p{L}]+)*/gu;

/** Checks that `output` retains what `input` holds at `level` (see the module comment). */
export function checkRetention(input: string, output: string, level: Level): RetentionResult {
  // The structure passes (structure.ts) are checked by their own properties (tables keep their
  // cells, JSON parses to the same value, test/compress-structure.test.ts); what they remove
  // (markup, padding, repeats) is not owed. The items of the input are read after them, and its
  // numbers, URLs and e-mails also after the markup removal alone.
  const lf = input.replace(/\r\n?/g, '\n');
  const src = restructure(lf);
  // Boilerplate lines (boilerplate.ts) are not owed either: in balanced they hold no protected
  // value by construction (the product name of "Sent from my iPhone" aside), so values are still
  // read from `src` there (a rule that dropped one would show); aggressive may drop values with them (an image line, a tracking parameter).
  // To its fixed point, as the compressor's passes reach it: a line one pass drops can leave a
  // run of chrome labels that the next pass reads as a menu.
  const dropped = boilerplateFixedPoint(src, level);
  // A calculator note's expression ("<<48/2=24>>" after "48 / 2 = ") is the step said again.
  const valueSrc = level === 'aggressive' ? dropped : level === 'balanced' ? withoutCalculatorNotes(withoutMobileSignatures(src)) : src;
  const unmarked = level === 'aggressive' ? boilerplateFixedPoint(cleanHtml(lf), level) : level === 'balanced' ? withoutCalculatorNotes(cleanHtml(lf)) : cleanHtml(lf);
  // The hex digits of a \uXXXX escape are no number: json-compact.ts writes a JSON string's escaped "é" as "é".
  const unmarkedNumbers = unmarked.includes('\\u') ? unmarked.replace(JSON_ESCAPE_RE, ' ') : unmarked;
  const out = output.replace(/\r\n?/g, '\n');
  const classes = {} as Record<RetentionClass, { checked: number; missing: number }>;
  const missing: { cls: RetentionClass; value: string }[] = [];
  const record = (cls: RetentionClass, items: Iterable<string>, present: (v: string) => boolean): void => {
    let checked = 0;
    let miss = 0;
    for (const v of items) {
      checked++;
      if (!present(v)) {
        miss++;
        missing.push({ cls, value: v });
      }
    }
    classes[cls] = { checked, missing: miss };
  };

  const blocks = new Set<string>();
  const proseOf = (text: string): string => {
    let prose = '';
    let last = 0;
    for (const m of codeBlocks(text)) {
      // A block's trailing blank lines are not part of it (an unclosed fence at the end keeps its lines, not the blanks after).
      blocks.add(m[0].replace(/\s+$/, ''));
      prose += text.slice(last, m.index) + '\n';
      last = m.index + m[0].length;
    }
    return (prose + text.slice(last)).replace(INVISIBLE_RE, '');
  };
  const valueProse = proseOf(valueSrc);
  const prose = dropped === valueSrc ? valueProse : proseOf(dropped);
  record('code_block', blocks, (v) => out.includes(v));
  const isOption = optionReader();
  record('option', new Set(valueProse.split('\n').filter(isOption)), (v) => out.includes(v));
  for (const [cls, re] of Object.entries(RETAINED_CLASSES)) {
    const items = new Set(Array.from(valueProse.matchAll(re), (m) => m[0]));
    if (cls === 'number' || cls === 'url' || cls === 'email') for (const m of (cls === 'number' ? unmarkedNumbers : unmarked).matchAll(re)) items.add(m[0]);
    record(cls as RetentionClass, items, (v) => out.includes(v));
  }

  const expected = expectedNegations(prose, level);
  const actual = countNegations(out);
  classes.negation = { checked: expected, missing: Math.max(0, expected - actual) };
  if (actual < expected) missing.push({ cls: 'negation', value: `${expected - actual} of ${expected}` });

  if (level === 'aggressive') classes.content_word = { checked: 0, missing: 0 };
  else {
    const outWords = new Set(words(out));
    // Words of the input only: a table's replacement ("because") is not owed to the output.
    const inputWords = new Set(words(prose));
    const owed = new Set(words(removable(prose, level)).filter((w) => inputWords.has(w)));
    record('content_word', owed, (w) => outWords.has(w));
  }
  return { ok: missing.length === 0, classes, missing };
}

/** The input with what the level's tables remove taken out (the words left must survive). */
function removable(text: string, level: Level): string {
  // Protected spans are checked verbatim by their own classes; here they are opaque, as in core.ts.
  // Lines core.ts keeps whole (private-use characters, indented code, table rows) likewise.
  const isOption = optionReader();
  text = text
    .split('\n')
    .map((l) => (isOption(l) || RESERVED_LINE_RE.test(l) || INDENTED_CODE_RE.test(l) || TABLE_ROW_RE.test(l) ? OPAQUE : l))
    .join('\n')
    .replace(SPAN_RE, OPAQUE)
    .replace(WORD_ITEM_RE, OPAQUE);
  text = text.replace(BR_RE, '\n').replace(BLOCK_TAG_RE, '\n').replace(INLINE_TAG_RE, '');
  text = text.replace(EMPHASIS_RE, (_m, a: string | undefined, b: string | undefined) => a ?? b ?? '');
  text = text.replace(SPLIT_CLITIC_RE, '$1');
  if (level === 'safe') return text;
  // core.ts collapses runs of (also no-break) spaces after each pass, so a phrase split by them
  // matches on the next pass: the checker normalises them the same way first.
  text = text.replace(SPACE_RUN_RE, '$1 ');
  // The compressor collapses stutters only in text with disfluencies or noise tags. It keeps "um"
  // and "er" on lines of another language and the word tables off such lines (language.ts): the
  // checker lets more go, never less, so both views read every line as English.
  const spoken = isSpoken(text, false);
  for (let i = 0; i < 4; i++) {
    const before = text;
    text = applyBalanced(text, false, spoken, false).replace(/[ \t]+/g, ' ').replace(SPACE_RUN_RE, '$1 ').replace(/[ \t]+$/gm, '').replace(SPLIT_CLITIC_RE, '$1'); // a removal can leave a clitic split off
    if (text === before) break;
  }
  // Before the empty turns go: the open answer label ("A:") is one.
  if (level === 'balanced') text = pruneDemoArticles(text, true);
  // A speaker turn that held nothing but removed noise is dropped with its label.
  text = text
    .split('\n')
    .map((l) => (EMPTY_TURN_RE.test(l.trim()) ? '' : l))
    .join('\n');
  // An acknowledgement-only turn that does not follow a question (dedupe.ts drops it).
  let asked = false;
  text = text
    .split('\n')
    .map((l) => {
      const t = l.trim();
      if (t === '') return l;
      const before = asked;
      asked = t.endsWith('?');
      return !before && !asked && BACKCHANNEL_TURN_RE.test(t) ? '' : l;
    })
    .join('\n');
  if (level === 'aggressive') text = applyAggressive(text);
  return text;
}

function words(text: string): string[] {
  return Array.from(text.matchAll(WORD_RE), (m) => m[0].toLowerCase().replace(/’/g, "'"));
}

/**
 * Expected negations: summed over the input's distinct sentences, where two sentences that differ
 * only in what the level may remove count once (the compressor may merge them into one copy).
 */
function expectedNegations(prose: string, level: Level): number {
  const seen = new Set<string>();
  let n = 0;
  for (const line of prose.split('\n')) {
    for (const s of line.match(/[^.!?]*[.!?]+|[^.!?]+$/g) ?? []) {
      const count = countNegations(s);
      if (count === 0) continue;
      const key = words(removable(s, level)).join(' ') || s; // a sentence kept whole (option, table row) is its own key
      if (seen.has(key)) continue;
      seen.add(key);
      n += count;
    }
  }
  return n;
}

export function countNegations(text: string): number {
  NEGATION_RE.lastIndex = 0;
  let n = 0;
  while (NEGATION_RE.exec(text) !== null) n++;
  return n;
}

const withoutCalculatorNotes = (text: string): string => (text.includes('<<') ? text.split('\n').map(dropCalculatorNotes).join('\n') : text);

/** dropBoilerplate applied until the text stops changing (at most a few times). */
function boilerplateFixedPoint(text: string, level: Level): string {
  let current = text;
  for (let i = 0; i < 4; i++) {
    const next = dropBoilerplate(current, level);
    if (next === current) return next;
    current = next;
  }
  return current;
}
