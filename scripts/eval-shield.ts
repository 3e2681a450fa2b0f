/**
 * API-08 quality on eval/data/shield/ (`npm run eval:shield`):
 * - injection vs benign (prompts_dev.jsonl): precision, recall, F1, false-positive rate, recall per
 *   category and attack method, for this shield (predicted injection = action BLOCKED) and, in the
 *   same run, for @andersmyrmel/vard (moderate and strict presets; predicted injection = blocked);
 * - PII recall per entity type (pii_dev.jsonl) for the types the shield validates: a gold span
 *   counts as found when a PII finding of the matching type overlaps it.
 *
 * - the same scores for this shield on the even and the odd lines of prompts_dev.jsonl (rules are
 *   developed on one half and checked on the other, so a gain that shows on one half only is a
 *   sign of fitting the file rather than the attacks).
 *
 * Options: `--dir <path>` (default eval/data/shield), `--half even|odd` (score only that half
 * of prompts_dev.jsonl, line numbers counted from 0), `--show-errors` (ids of misses and false
 * positives, for development only: the texts are public eval data, never request data).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vard from '@andersmyrmel/vard';
import { createShield } from '../src/services/llm-shield/core.ts';

interface PromptRow {
  id: string;
  text: string;
  label: 'injection' | 'benign';
  category: string;
  attack_method?: string;
}
interface PiiRow {
  id: string;
  text: string;
  spans: { type: string; value: string; start: number; end: number }[];
}

const args = process.argv.slice(2);
const here = path.dirname(fileURLToPath(import.meta.url));
const dirArg = args.indexOf('--dir');
const dir = dirArg >= 0 ? args[dirArg + 1]! : path.resolve(here, '../eval/data/shield');
const showErrors = args.includes('--show-errors');
const halfArg = args.indexOf('--half');
const half = halfArg >= 0 ? args[halfArg + 1] : undefined;
if (half !== undefined && half !== 'even' && half !== 'odd') throw new Error('--half takes even or odd');

function readJsonl<T>(file: string): T[] {
  return readFileSync(path.join(dir, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}

interface Scores {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  byCategory: Map<string, { hit: number; n: number }>;
  ms: number;
  misses: string[];
  falsePositives: string[];
}

function score(rows: PromptRow[], predict: (text: string) => boolean): Scores {
  const s: Scores = { tp: 0, fp: 0, fn: 0, tn: 0, byCategory: new Map(), ms: 0, misses: [], falsePositives: [] };
  const t0 = performance.now();
  for (const r of rows) {
    const flagged = predict(r.text);
    const positive = r.label === 'injection';
    if (positive && flagged) s.tp++;
    else if (positive) {
      s.fn++;
      s.misses.push(r.id);
    } else if (flagged) {
      s.fp++;
      s.falsePositives.push(r.id);
    } else s.tn++;
    for (const key of [r.category, r.attack_method ? `${r.category}/${r.attack_method}` : null]) {
      if (key === null) continue;
      const c = s.byCategory.get(key) ?? { hit: 0, n: 0 };
      c.n++;
      if (flagged === positive) c.hit++;
      s.byCategory.set(key, c);
    }
  }
  s.ms = performance.now() - t0;
  return s;
}

const pct = (x: number): string => (Number.isFinite(x) ? (x * 100).toFixed(1) + '%' : 'n/a');
const f3 = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : 'n/a');

function summary(name: string, s: Scores, n: number): string[] {
  const precision = s.tp / (s.tp + s.fp);
  const recall = s.tp / (s.tp + s.fn);
  const f1 = (2 * precision * recall) / (precision + recall);
  const fpr = s.fp / (s.fp + s.tn);
  return [name, f3(precision), f3(recall), f3(f1), pct(fpr), `${s.tp}/${s.fp}/${s.fn}/${s.tn}`, (s.ms / n).toFixed(3)];
}

function table(head: string[], rows: string[][]): void {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]): string => r.map((c, i) => c.padEnd(w[i]!)).join('  ');
  console.log(line(head));
  console.log(w.map((x) => '-'.repeat(x)).join('  '));
  for (const r of rows) console.log(line(r));
}

const allPrompts = readJsonl<PromptRow>('prompts_dev.jsonl');
const parity = (i: number): 'even' | 'odd' => (i % 2 === 0 ? 'even' : 'odd');
const prompts = half === undefined ? allPrompts : allPrompts.filter((_, i) => parity(i) === half);
const pii = readJsonl<PiiRow>('pii_dev.jsonl');
const shield = createShield();
const vardModerate = vard.moderate().maxLength(1_000_000);
const vardStrict = vard.strict().maxLength(1_000_000);

// warm-up so the first timed rows do not pay for JIT and RE2 compilation
for (const r of prompts.slice(0, 20)) shield.screen(r.text);

const ours = score(prompts, (t) => shield.screen(t).action === 'BLOCKED');
const vm = score(prompts, (t) => !vardModerate.safeParse(t).safe);
const vs = score(prompts, (t) => !vardStrict.safeParse(t).safe);

const injections = prompts.filter((r) => r.label === 'injection').length;
console.log(`\nAPI-08 shield eval: ${prompts.length} prompts${half === undefined ? '' : ` (${half} half)`} (${injections} injection, ${prompts.length - injections} benign) from ${dir}\n`);
table(['detector', 'precision', 'recall', 'F1', 'FPR', 'TP/FP/FN/TN', 'ms/prompt'], [
  summary('llm-shield (BLOCKED)', ours, prompts.length),
  summary('vard moderate', vm, prompts.length),
  summary('vard strict', vs, prompts.length),
]);

if (half === undefined) {
  console.log('\nHalves of prompts_dev.jsonl (llm-shield; even/odd line numbers from 0):\n');
  table(['half', 'precision', 'recall', 'F1', 'FPR', 'TP/FP/FN/TN', 'ms/prompt'], (['even', 'odd'] as const).map((h) => {
    const rows = allPrompts.filter((_, i) => parity(i) === h);
    return summary(h, score(rows, (t) => shield.screen(t).action === 'BLOCKED'), rows.length);
  }));
} else console.log(`\n(scored on the ${half} half of prompts_dev.jsonl only)`);

console.log('\nPer category (recall for injection categories, 1 - FPR for benign ones):\n');
const cats = [...ours.byCategory.keys()].sort();
table(['category', 'n', 'llm-shield', 'vard moderate', 'vard strict'], cats.map((c) => {
  const a = ours.byCategory.get(c)!;
  const b = vm.byCategory.get(c)!;
  const d = vs.byCategory.get(c)!;
  return [c, String(a.n), pct(a.hit / a.n), pct(b.hit / b.n), pct(d.hit / d.n)];
}));

// --- PII recall per entity type ---------------------------------------------------------------
const TYPE_MAP: Record<string, string[]> = {
  CREDIT_CARD: ['pii.card_luhn'],
  IBAN_CODE: ['pii.iban_mod97'],
  EMAIL_ADDRESS: ['pii.email'],
  PHONE_NUMBER: ['pii.phone_valid', 'pii.phone_labelled'],
  US_SSN: ['pii.us_ssn'],
  IP_ADDRESS: ['pii.ipv4', 'pii.ipv6'],
};
const piiStats = new Map<string, { hit: number; n: number; vard: number }>();
const piiMisses: string[] = [];
let piiMs = 0;
for (const r of pii) {
  const t0 = performance.now();
  const v = shield.screen(r.text);
  piiMs += performance.now() - t0;
  const vardResult = vardModerate.safeParse(r.text);
  const vardChanged = vardResult.safe ? vardResult.data !== r.text : true;
  for (const span of r.spans) {
    const rules = TYPE_MAP[span.type];
    if (rules === undefined) continue;
    const st = piiStats.get(span.type) ?? { hit: 0, n: 0, vard: 0 };
    st.n++;
    const found = v.findings.some((f) => f.type === 'PII_LEAK' && rules.includes(f.rule) && f.start < span.end && f.end > span.start);
    if (found) st.hit++;
    else piiMisses.push(`${r.id}:${span.type}`);
    if (vardChanged) st.vard++;
    piiStats.set(span.type, st);
  }
}
console.log(`\nPII recall per entity type (${pii.length} texts, ${(piiMs / pii.length).toFixed(3)} ms/text; vard has no PII detector: its column is "input changed or blocked"):\n`);
let totHit = 0;
let totN = 0;
table(['entity', 'n', 'llm-shield recall', 'vard (changed)'], [...piiStats.entries()].sort().map(([k, s]) => {
  totHit += s.hit;
  totN += s.n;
  return [k, String(s.n), pct(s.hit / s.n), pct(s.vard / s.n)];
}));
console.log(`\nvalidated types overall: ${totHit}/${totN} = ${pct(totHit / totN)}`);

if (showErrors) {
  console.log('\nmissed injections:', ours.misses.join(' '));
  console.log('false positives:', ours.falsePositives.join(' '));
  console.log('PII misses:', piiMisses.join(' '));
}
