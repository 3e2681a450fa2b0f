/**
 * `npm run eval:compress`: API-09 quality on eval/data/compress/prompts_dev.jsonl.
 *
 * Per level: median and mean o200k_base token reduction (overall and per kind), the retention
 * checks of retention.ts (numbers, URLs, e-mails, quoted strings, inline code, identifiers, code
 * blocks, negations; content words in safe and balanced), gold-answer survival (every answer
 * string of a prompt that is in the prompt must still be in the compressed prompt), determinism
 * and idempotence. The median is also given for the even- and odd-numbered prompts (lines of the
 * file) separately: a rule developed on one half should help the other as well. Exits 1 when a
 * retention, answer or idempotence check fails.
 *
 * With --bound it also prints ceilings that no rule keeping the facts can pass: the reduction
 * if every closed-class word (articles, forms of "to be", auxiliaries, common prepositions,
 * conjunctions, pronouns) were deleted, readable or not; the share of tokens in sentences (5+
 * words) that repeat an earlier one word for word, in the prompt and in what balanced leaves of
 * it; and the two together.
 *
 * A record with a `template` and a `question` (BBH) is measured as sent: the template filled in
 * with both, the worked examples followed by the open question.
 *
 * Reads every *.jsonl of eval/data/compress/ by default, or `--file F` (repeatable) / `--dir D`.
 * A record without a usable `prompt` (missing, not a string, empty) is skipped and counted; so is
 * a line that is not JSON. Medians are printed per kind and per source (`source` or `dataset`)
 * beside the pooled ones.
 *
 *   npm run eval:compress [-- --file path/to/prompts.jsonl] [-- --dir DIR] [-- --verbose] [-- --bound]
 */
import { jsonObjects } from './lib/jsonl.ts';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LEVELS, type Level } from '../src/services/tokenslimmer/core.ts';
import { checkRetention } from '../src/services/tokenslimmer/retention.ts';
import { slimPrompt } from '../src/services/tokenslimmer/slim.ts';
import { countTokens } from '../src/tokenizer/index.ts';

interface EvalRecord {
  id: string;
  kind: string;
  source: string;
  prompt: string;
  answer?: unknown;
  answers?: unknown;
}

/**
 * The prompt as a caller sends it: a record with a `template` ("{prompt}\n\nQ: {question}\nA: …")
 * and a `question` is measured filled in, the examples followed by the open query, as the
 * benchmark's own harness sends it.
 */
function asSent(r: Record<string, unknown>): string {
  const prompt = r.prompt as string;
  if (typeof r.template !== 'string' || typeof r.question !== 'string' || !r.template.includes('{prompt}')) return prompt;
  const question = r.question;
  return r.template.replace(/\{(prompt|question)\}/g, (_m, k: string) => (k === 'prompt' ? prompt : question));
}

const args = process.argv.slice(2);
const valuesOf = (flag: string): string[] => args.flatMap((a, i) => (a === flag && args[i + 1] !== undefined ? [args[i + 1]!] : []));
const dirs = valuesOf('--dir');
let files = valuesOf('--file');
if (files.length === 0 && dirs.length === 0) dirs.push(fileURLToPath(new URL('../eval/data/compress/', import.meta.url)));
for (const d of dirs) files = files.concat(readdirSync(d).filter((f) => f.endsWith('.jsonl')).sort().map((f) => join(d, f)));
const verbose = args.includes('--verbose');
const skipped = new Map<string, number>();
const skip = (why: string): void => void skipped.set(why, (skipped.get(why) ?? 0) + 1);
const records: EvalRecord[] = [];
for (const file of files) {
  for (const { record: r } of jsonObjects(readFileSync(file, 'utf8'), skip)) {
    if (typeof r.prompt !== 'string') skip('prompt missing or not a string');
    else if (r.prompt.trim() === '') skip('prompt empty');
    else {
      const source = typeof r.source === 'string' ? r.source : typeof r.dataset === 'string' ? r.dataset : '(no source)';
      records.push({ id: String(r.id ?? `${file}:${records.length}`), kind: typeof r.kind === 'string' ? r.kind : '(no kind)', source, prompt: asSent(r), answer: r.answer, answers: r.answers });
    }
  }
}
if (records.length === 0) {
  console.error(`no usable record in ${files.join(', ') || '(no file)'}` + [...skipped].map(([w, n]) => `; skipped ${n}: ${w}`).join(''));
  process.exit(1);
}

/** Gold answers that the prompt itself contains: those must survive compression (null, non-string answers ignored). */
function goldAnswers(r: EvalRecord): string[] {
  const all = [r.answer, ...(Array.isArray(r.answers) ? r.answers : [])];
  return all.filter((a): a is string => typeof a === 'string' && a.trim() !== '' && r.prompt.includes(a));
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const pct = (x: number): string => `${x.toFixed(1)}%`;

let failed = false;
const kinds = [...new Set(records.map((r) => r.kind))];
const sources = [...new Set(records.map((r) => r.source))];
console.log(`API-09 eval: ${records.length} prompts (${kinds.join(', ')}) from ${files.length} file(s), encoding o200k_base`);
console.log(`skipped: ${skipped.size === 0 ? 'none' : [...skipped].map(([w, n]) => `${n} (${w})`).join(', ')}\n`);
/** Per level: the reductions per kind and per source, printed after the main table. */
const perGroup: { level: string; byKind: Map<string, number[]>; bySource: Map<string, number[]> }[] = [];
console.log('| level | median reduction | mean reduction | median even / odd prompts | mean even / odd prompts | ' + kinds.map((k) => `median ${k}`).join(' | ') + ' | retention | gold answers kept | idempotent | ms/prompt |');
console.log('|---|---|---|---|---|' + kinds.map(() => '---').join('|') + '|---|---|---|---|');
const classTotals: Record<string, Record<string, { checked: number; missing: number }>> = {};
const aims: Record<string, string> = {};
for (const level of LEVELS) {
  const reductions: number[] = [];
  const byKind = new Map<string, number[]>();
  const bySource = new Map<string, number[]>();
  perGroup.push({ level, byKind, bySource });
  let retained = 0;
  let answersChecked = 0;
  let answersKept = 0;
  let idempotent = 0;
  let ms = 0;
  const totals: Record<string, { checked: number; missing: number }> = {};
  for (const r of records) {
    const t0 = performance.now();
    const res = slimPrompt({ prompt: r.prompt, level: level as Level });
    ms += performance.now() - t0;
    const red = (res.tokens_saved * 100) / res.original_tokens;
    reductions.push(red);
    byKind.set(r.kind, [...(byKind.get(r.kind) ?? []), red]);
    bySource.set(r.source, [...(bySource.get(r.source) ?? []), red]);
    const again = slimPrompt({ prompt: res.compressed_content, level: level as Level });
    const repeat = slimPrompt({ prompt: r.prompt, level: level as Level });
    if (again.compressed_content === res.compressed_content && again.status === 'UNCHANGED' && repeat.compressed_content === res.compressed_content) idempotent++;
    else {
      failed = true;
      console.error(`  not idempotent/deterministic: ${r.id} ${level}`);
    }
    const check = checkRetention(r.prompt, res.compressed_content, level as Level);
    for (const [cls, c] of Object.entries(check.classes)) {
      const t = (totals[cls] ??= { checked: 0, missing: 0 });
      t.checked += c.checked;
      t.missing += c.missing;
    }
    if (check.ok) retained++;
    else {
      failed = true;
      if (verbose) console.error(`  retention ${r.id} ${level}:`, check.missing.slice(0, 8));
    }
    for (const a of goldAnswers(r)) {
      answersChecked++;
      if (res.compressed_content.includes(a)) answersKept++;
      else {
        failed = true;
        console.error(`  gold answer lost: ${r.id} ${level}`);
      }
    }
  }
  classTotals[level] = totals;
  aims[level] = `${reductions.filter((x) => x >= 15).length} at 15% or more, ${reductions.filter((x) => x >= 30).length} at 30% or more`;
  console.log(
    `| ${level} | ${pct(median(reductions))} | ${pct(mean(reductions))} | ${pct(median(reductions.filter((_, i) => i % 2 === 0)))} / ${pct(median(reductions.filter((_, i) => i % 2 === 1)))} | ` +
      `${pct(mean(reductions.filter((_, i) => i % 2 === 0)))} / ${pct(mean(reductions.filter((_, i) => i % 2 === 1)))} | ` +
      kinds.map((k) => pct(median(byKind.get(k)!))).join(' | ') +
      ` | ${retained}/${records.length} | ${answersKept}/${answersChecked} | ${idempotent}/${records.length} | ${(ms / records.length).toFixed(2)} |`,
  );
}
const groupTable = (title: string, names: string[], pick: (g: (typeof perGroup)[number]) => Map<string, number[]>): void => {
  console.log(`\nMedian reduction per ${title} (prompts):\n`);
  console.log(`| ${title} | n | ` + perGroup.map((g) => g.level).join(' | ') + ' |');
  console.log('|---|---|' + perGroup.map(() => '---').join('|') + '|');
  for (const name of names) console.log(`| ${name} | ${pick(perGroup[0]!).get(name)!.length} | ` + perGroup.map((g) => pct(median(pick(g).get(name)!))).join(' | ') + ' |');
  console.log(`| pooled | ${records.length} | ` + perGroup.map((g) => pct(median([...pick(g).values()].flat()))).join(' | ') + ' |');
};
groupTable('kind', kinds, (g) => g.byKind);
groupTable('source', sources, (g) => g.bySource);
console.log(`\nPrompts at the aims (the median reaches an aim when ${(records.length >> 1) + 1} of ${records.length} do): ` + Object.entries(aims).map(([l, a]) => `${l} ${a}`).join('; '));
console.log('\nRetention per class (items checked / missing), summed over prompts:');
for (const [level, totals] of Object.entries(classTotals)) {
  console.log(`  ${level.padEnd(10)} ` + Object.entries(totals).map(([c, t]) => `${c} ${t.checked}/${t.missing}`).join(', '));
}
console.log('\nGold answers: answer strings of a record (BBH `answer`, NQ `answers`) that occur in its prompt.');
if (args.includes('--bound')) printBounds();

/**
 * The ceilings of --bound, per kind (median over the kind's prompts, o200k_base): every
 * closed-class word deleted; the tokens in sentences that repeat an earlier one word for word
 * (5+ words), in the prompt and in what balanced leaves; and both together (closed-class words
 * deleted from a prompt whose repeated sentences of 15+ characters are all dropped, answers too).
 */
function printBounds(): void {
  const closedClass = new RegExp(
    String.raw`\b(?:the|a|an|is|are|was|were|be|been|being|am|has|have|had|do|does|did|will|would|can|could|should|may|might|of|in|on|at|to|for|with|by|from|into|about|as|and|or|but|that|which|who|it|its|he|she|they|their|his|her|this|these|those|we|you|i)\b ?`,
    'gi',
  );
  const sentences = (line: string): string[] => line.match(/.*?[.!?]+(?:\s+|$)|.+$/g) ?? [];
  /** Tokens in sentences (at least `minWords` words, `minChars` characters) that repeat an earlier one, and the text without them. */
  const repeats = (text: string, minWords: number, minChars: number): { tokens: number; rest: string } => {
    const seen = new Set<string>();
    let tokens = 0;
    let rest = '';
    for (const line of text.split('\n')) {
      for (const sentence of sentences(line)) {
        const key = sentence.trim().replace(/\s+/g, ' ').toLowerCase();
        if (key.split(' ').length >= minWords && key.length >= minChars && seen.has(key)) {
          tokens += countTokens(sentence, 'o200k_base');
          continue;
        }
        seen.add(key);
        rest += sentence;
      }
      rest += '\n';
    }
    return { tokens, rest };
  };
  const strip = (text: string): string => text.replace(closedClass, '').replace(/ {2,}/g, ' ');
  console.log('\nCeilings (--bound), median per kind; [prompts at or above 15% / 30%]:');
  for (const kind of [...kinds, 'all']) {
    const stripped: number[] = [];
    const repeated: number[] = [];
    const repeatedLeft: number[] = [];
    const both: number[] = [];
    for (const r of records.filter((x) => kind === 'all' || x.kind === kind)) {
      const n = countTokens(r.prompt, 'o200k_base');
      stripped.push(100 * (1 - countTokens(strip(r.prompt), 'o200k_base') / n));
      repeated.push((100 * repeats(r.prompt, 5, 0).tokens) / n);
      repeatedLeft.push((100 * repeats(slimPrompt({ prompt: r.prompt, level: 'balanced' }).compressed_content, 5, 0).tokens) / n);
      both.push(100 * (1 - countTokens(strip(repeats(r.prompt, 1, 15).rest), 'o200k_base') / n));
    }
    const at = (xs: number[]): string => `[${xs.filter((x) => x >= 15).length}/${xs.filter((x) => x >= 30).length}]`;
    console.log(
      `  ${kind.padEnd(20)} every closed-class word deleted: ${pct(median(stripped))} ${at(stripped)}; in repeated sentences: ${pct(median(repeated))}, ` +
        `of them left after balanced: ${pct(median(repeatedLeft))}; both (closed-class words and repeated sentences of 15+ characters): ${pct(median(both))} ${at(both)}`,
    );
  }
}

if (failed) {
  console.error('\nFAILED: a retention, gold-answer or idempotence check did not hold (rerun with --verbose).');
  process.exitCode = 1;
}
