/**
 * API-08 quality (`npm run eval:shield -- --data DIR`):
 *
 * 1. Leave-one-source-out (needs `--data DIR`, the directory of the training corpus
 *    prompts_train.jsonl; it stays outside the repository): the records of DIR and of the
 *    development file are grouped by `source`; for each source the detector is retrained on all
 *    other sources (same features, options and calibration as `npm run train:shield`) and scores
 *    the one left out with the shipped decision policy (rules or model). A row per source, then
 *    the mean over sources: the numbers that say how the detector does on attacks and prompts of
 *    a kind it has never seen. Also: rules alone on the same rows, and per category over the
 *    left-out predictions (planted instructions caught, clean external content passed).
 * 2. Pooled: the shipped build (rules + shipped weights) on the development file, per source and
 *    per category, beside @andersmyrmel/vard in the same run. The shipped weights were trained on
 *    that file too (model meta), so these numbers are in-sample: quote the first table.
 * 3. PII recall per entity type (pii_dev.jsonl), phone numbers included.
 * 4. Phone numbers written the ways people write them: libphonenumber's example mobile number of
 *    53 regions in 7 forms (international with spaces or dashes, 00, E.164, national with spaces,
 *    dots or none), each in 12 sentence frames of 12 languages (a phone noun or a "call me" verb,
 *    before or after the number, or a bare name label). Generated, not read from a file: recall per
 *    form and per frame.
 *
 * Records that cannot be used (no text, no label) are skipped and counted, never fatal. A
 * record's origin is `external` for the categories built from third-party content
 * (indirect_injection, external_content_clean), else `user`, as a caller would send it.
 *
 * Options: `--data DIR`, `--dir D` (default eval/data/shield), `--file F` (a prompts file of the
 * same format instead of D/prompts_dev.jsonl), `--pii F`, `--show-errors` (ids only), `--nested`
 * (with `--data`: also a leave-one-source-out run whose thresholds are chosen without the source
 * left out, by an inner leave-one-source-out over the other sources; ~12× the retrains).
 */
import { existsSync, readFileSync } from 'node:fs';
import { getExampleNumber, type CountryCode } from 'libphonenumber-js/max';
import phoneExamples from 'libphonenumber-js/mobile/examples';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vard from '@andersmyrmel/vard';
import { calibrate } from '../src/learn/index.ts';
import { createShield } from '../src/services/llm-shield/core.ts';
import { blocks } from '../src/services/llm-shield/decision.ts';
import { fit, originOf, readPromptFile, toRows, type PromptRecord, type Row, type Skipped } from '../src/services/llm-shield/model/train.ts';

const args = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const here = path.dirname(fileURLToPath(import.meta.url));
const dir = opt('--dir') ?? path.resolve(here, '../eval/data/shield');
const promptFile = opt('--file') ?? path.join(dir, 'prompts_dev.jsonl');
const piiFile = opt('--pii') ?? path.join(dir, 'pii_dev.jsonl');
const data = opt('--data');
const showErrors = args.includes('--show-errors');
const nested = args.includes('--nested');

interface Counts {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}
const zero = (): Counts => ({ tp: 0, fp: 0, fn: 0, tn: 0 });
function add(c: Counts, positive: boolean, flagged: boolean): void {
  if (positive) flagged ? c.tp++ : c.fn++;
  else flagged ? c.fp++ : c.tn++;
}
const precision = (c: Counts): number => c.tp / (c.tp + c.fp);
const recall = (c: Counts): number => c.tp / (c.tp + c.fn);
const f1 = (c: Counts): number => (c.tp === 0 ? (c.tp + c.fn > 0 ? 0 : NaN) : (2 * precision(c) * recall(c)) / (precision(c) + recall(c)));
const fpr = (c: Counts): number => c.fp / (c.fp + c.tn);
const pct = (x: number): string => (Number.isFinite(x) ? (x * 100).toFixed(1) + '%' : '—');
const f3 = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : '—');
const mean = (xs: number[]): number => {
  const v = xs.filter(Number.isFinite);
  return v.length === 0 ? NaN : v.reduce((a, b) => a + b, 0) / v.length;
};

function table(head: string[], rows: string[][]): void {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]): string => r.map((c, i) => c.padEnd(w[i]!)).join('  ');
  console.log(line(head));
  console.log(w.map((x) => '-'.repeat(x)).join('  '));
  for (const r of rows) console.log(line(r));
}
const scoreRow = (name: string, c: Counts): string[] => [name, String(c.tp + c.fn), String(c.fp + c.tn), f3(precision(c)), f3(recall(c)), f3(f1(c)), pct(fpr(c))];
const HEAD = ['', 'attacks', 'benign', 'precision', 'recall', 'F1', 'FP rate'];
const skippedText = (s: Skipped): string => Object.entries(s).map(([k, v]) => `${v} ${k}`).join(', ') || 'none';

/** Hit rate per category: recall for attack categories, share passed for benign ones. */
function byCategory(items: { record: PromptRecord; flagged: boolean }[]): Map<string, { hit: number; n: number }> {
  const m = new Map<string, { hit: number; n: number }>();
  for (const { record, flagged } of items) {
    const c = m.get(record.category) ?? { hit: 0, n: 0 };
    c.n++;
    if (flagged === (record.label === 'injection')) c.hit++;
    m.set(record.category, c);
  }
  return new Map([...m.entries()].sort(([a], [b]) => (a < b ? -1 : 1)));
}

// --- 1. leave-one-source-out ------------------------------------------------------------------
const devSkipped: Skipped = {};
const dev = existsSync(promptFile) ? readPromptFile(promptFile, devSkipped) : [];
if (data === undefined) {
  console.log('\nLeave-one-source-out: not run (pass --data DIR, the directory holding prompts_train.jsonl).');
} else {
  const trainSkipped: Skipped = {};
  const records = [...readPromptFile(path.join(data, 'prompts_train.jsonl'), trainSkipped), ...dev];
  const t0 = performance.now();
  const rows = toRows(createShield({ model: null }), records);
  const sources = [...new Set(rows.map((r) => r.record.source))].sort();
  const outRows: string[][] = [];
  const ruleRows: string[][] = [];
  const f1s: number[] = [];
  const fprs: number[] = [];
  const ruleF1s: number[] = [];
  const ruleFprs: number[] = [];
  const all = zero();
  const predictions: { record: PromptRecord; flagged: boolean; rules: boolean }[] = [];
  const errors: string[] = [];
  for (const source of sources) {
    const held: Row[] = [];
    const rest: Row[] = [];
    for (const r of rows) (r.record.source === source ? held : rest).push(r);
    const { model, calibration } = fit(rest);
    const c = zero();
    const rc = zero();
    for (const r of held) {
      // as the service scores: the whole text, and each window of a long external text
      let p = calibrate(calibration, model.logit(r.x));
      for (const w of r.windows) p = Math.max(p, calibrate(calibration, model.logit(w)));
      const flagged = blocks(r.ruleType !== null, p, r.origin);
      add(c, r.y === 1, flagged);
      add(rc, r.y === 1, r.ruleType !== null);
      add(all, r.y === 1, flagged);
      predictions.push({ record: r.record, flagged, rules: r.ruleType !== null });
      if (flagged !== (r.y === 1)) errors.push(r.record.id);
    }
    outRows.push(scoreRow(source, c));
    ruleRows.push(scoreRow(source, rc));
    if (c.tp + c.fn > 0) f1s.push(f1(c)), ruleF1s.push(f1(rc));
    if (c.fp + c.tn > 0) fprs.push(fpr(c)), ruleFprs.push(fpr(rc));
  }
  const secs = ((performance.now() - t0) / 1000).toFixed(0);
  console.log(`\nLeave-one-source-out: ${rows.length} records of ${sources.length} sources (training corpus + ${path.basename(promptFile)}; skipped: ${skippedText({ ...trainSkipped, ...devSkipped })}), ${sources.length} retrains, ${secs} s`);
  console.log('Each row: trained on every other source, scored on this one (rules + model, the shipped policy).');
  console.log('Precision of a source without benign records is 1 unless nothing was flagged; FP rate needs benign records.\n');
  table(HEAD, [...outRows, ['mean over sources', '', '', '', '', f3(mean(f1s)), pct(mean(fprs))], scoreRow('all left-out rows', all)]);
  console.log('\nRules alone on the same rows (no training involved):\n');
  table(HEAD, [...ruleRows, ['mean over sources', '', '', '', '', f3(mean(ruleF1s)), pct(mean(ruleFprs))]]);
  console.log('\nPer category, left-out predictions (recall for attack categories, share passed for benign ones):\n');
  const cats = byCategory(predictions);
  const rulesCats = byCategory(predictions.map((p) => ({ record: p.record, flagged: p.rules })));
  table(['category', 'origin', 'n', 'rules + model', 'rules alone'], [...cats.entries()].map(([k, v]) => {
    const r = rulesCats.get(k)!;
    const sample = predictions.find((p) => p.record.category === k)!.record;
    return [k, originOf(sample), String(v.n), pct(v.hit / v.n), pct(r.hit / r.n)];
  }));
  if (showErrors) console.log('\nleft-out errors:', errors.join(' '));
  if (nested) nestedRun(rows, sources);
}

/**
 * The shipped thresholds (decision.ts) are one pair for every fold, chosen on the table above, so
 * each left-out source had a say in them. Here each fold chooses its own pair without the source
 * it scores: the pair with the best mean F1 among those with mean FP ≤ 3% over an inner
 * leave-one-source-out of the other sources. The gap to the table above is how optimistic a
 * threshold chosen on the outer folds is.
 */
function nestedRun(rows: Row[], sources: string[]): void {
  const GRID = [0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99, 0.995];
  const probability = (f: ReturnType<typeof fit>, r: Row): number => {
    let p = calibrate(f.calibration, f.model.logit(r.x));
    for (const w of r.windows) p = Math.max(p, calibrate(f.calibration, f.model.logit(w)));
    return p;
  };
  type Scored = { source: string; row: Row; p: number };
  const meanScores = (items: Scored[], srcs: string[], tu: number, te: number): { f1: number; fpr: number; per: Map<string, Counts> } => {
    const per = new Map<string, Counts>(srcs.map((s) => [s, zero()]));
    for (const it of items) add(per.get(it.source)!, it.row.y === 1, it.row.ruleType !== null || it.p >= (it.row.origin === 'external' ? te : tu));
    const cs = [...per.values()];
    return { f1: mean(cs.filter((c) => c.tp + c.fn > 0).map(f1)), fpr: mean(cs.filter((c) => c.fp + c.tn > 0).map(fpr)), per };
  };
  const t0 = performance.now();
  const outRows: string[][] = [];
  const outer: Scored[] = [];
  for (const source of sources) {
    const rest = rows.filter((r) => r.record.source !== source);
    const inner = [...new Set(rest.map((r) => r.record.source))].sort();
    const scored: Scored[] = [];
    for (const s of inner) {
      const f = fit(rest.filter((r) => r.record.source !== s));
      for (const r of rest) if (r.record.source === s) scored.push({ source: s, row: r, p: probability(f, r) });
    }
    let best = { f1: -1, tu: 0.995, te: 0.995 };
    for (const tu of GRID) for (const te of GRID) {
      const m = meanScores(scored, inner, tu, te);
      if (m.fpr <= 0.03 && m.f1 > best.f1) best = { f1: m.f1, tu, te };
    }
    const f = fit(rest);
    const held = rows.filter((r) => r.record.source === source).map((r) => ({ source, row: r, p: probability(f, r) }));
    const c = meanScores(held, [source], best.tu, best.te).per.get(source)!;
    outRows.push([...scoreRow(source, c), `${best.tu} / ${best.te}`]);
    for (const h of held) outer.push({ ...h, p: h.row.ruleType !== null || h.p >= (h.row.origin === 'external' ? best.te : best.tu) ? 1 : 0 });
  }
  const m = meanScores(outer, sources, 1, 1);
  const ext = outer.filter((o) => o.row.origin === 'external');
  const planted = ext.filter((o) => o.row.y === 1);
  const clean = ext.filter((o) => o.row.y === 0);
  const secs = ((performance.now() - t0) / 1000).toFixed(0);
  console.log(`\nNested: thresholds chosen without the source left out (inner leave-one-source-out, best mean F1 with mean FP ≤ 3%), ${secs} s:\n`);
  table([...HEAD, 'user / external'], [...outRows, ['mean over sources', '', '', '', '', f3(m.f1), pct(m.fpr), '']]);
  console.log(`planted instructions caught ${pct(planted.filter((o) => o.p === 1).length / planted.length)}, clean external passed ${pct(clean.filter((o) => o.p === 0).length / clean.length)}`);
}

// --- 2. pooled: the shipped build on the development file ----------------------------------------
const shield = createShield();
const vardModerate = vard.moderate().maxLength(1_000_000);
for (const r of dev.slice(0, 20)) shield.screen(r.text, originOf(r));
const ours = zero();
const vm = zero();
const perSource = new Map<string, { ours: Counts; vard: Counts }>();
const items: { record: PromptRecord; flagged: boolean }[] = [];
const vardItems: { record: PromptRecord; flagged: boolean }[] = [];
const pooledErrors: string[] = [];
let ms = 0;
for (const r of dev) {
  const t0 = performance.now();
  const flagged = shield.screen(r.text, originOf(r)).action === 'BLOCKED';
  ms += performance.now() - t0;
  const v = !vardModerate.safeParse(r.text).safe;
  const positive = r.label === 'injection';
  add(ours, positive, flagged);
  add(vm, positive, v);
  const s = perSource.get(r.source) ?? { ours: zero(), vard: zero() };
  add(s.ours, positive, flagged);
  add(s.vard, positive, v);
  perSource.set(r.source, s);
  items.push({ record: r, flagged });
  vardItems.push({ record: r, flagged: v });
  if (flagged !== positive) pooledErrors.push(r.id);
}
console.log(`\nPooled: the shipped build on ${promptFile} (${dev.length} records; skipped: ${skippedText(devSkipped)}), ${(ms / Math.max(1, dev.length)).toFixed(3)} ms/record.`);
console.log('IN-SAMPLE when this file is the development file: the shipped weights were trained on it. Quote the leave-one-source-out table.\n');
table(HEAD, [scoreRow('llm-shield (BLOCKED)', ours), scoreRow('vard moderate', vm)]);
console.log('\nPer source (llm-shield | vard moderate):\n');
table(['source', 'attacks', 'benign', 'F1', 'FP rate', 'vard F1', 'vard FP rate'], [...perSource.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, s]) => [
  k, String(s.ours.tp + s.ours.fn), String(s.ours.fp + s.ours.tn), f3(f1(s.ours)), pct(fpr(s.ours)), f3(f1(s.vard)), pct(fpr(s.vard)),
]));
console.log('\nPer category:\n');
const oc = byCategory(items);
const vc = byCategory(vardItems);
table(['category', 'n', 'llm-shield', 'vard moderate'], [...oc.entries()].map(([k, v]) => [k, String(v.n), pct(v.hit / v.n), pct(vc.get(k)!.hit / vc.get(k)!.n)]));
if (showErrors) console.log('\npooled errors:', pooledErrors.join(' '));

// --- 3. PII recall per entity type ---------------------------------------------------------------
interface PiiRow {
  id: string;
  text: string;
  spans: { type: string; start: number; end: number }[];
}
const TYPE_MAP: Record<string, string[]> = {
  CREDIT_CARD: ['pii.card_luhn'],
  IBAN_CODE: ['pii.iban_mod97'],
  EMAIL_ADDRESS: ['pii.email'],
  PHONE_NUMBER: ['pii.phone_valid', 'pii.phone_labelled'],
  US_SSN: ['pii.us_ssn'],
  IP_ADDRESS: ['pii.ipv4', 'pii.ipv6'],
};
if (existsSync(piiFile)) {
  const piiSkipped: Skipped = {};
  const pii: PiiRow[] = [];
  for (const line of readFileSync(piiFile, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    let r: Partial<PiiRow> | null = null;
    try {
      r = JSON.parse(line) as Partial<PiiRow>;
    } catch {
      /* counted below */
    }
    if (r === null || typeof r !== 'object' || typeof r.text !== 'string' || !Array.isArray(r.spans)) {
      piiSkipped['no text or spans'] = (piiSkipped['no text or spans'] ?? 0) + 1;
      continue;
    }
    pii.push({ id: String(r.id ?? pii.length), text: r.text, spans: r.spans.filter((s) => s !== null && typeof s.start === 'number' && typeof s.end === 'number') });
  }
  const stats = new Map<string, { hit: number; n: number }>();
  const misses: string[] = [];
  let piiMs = 0;
  for (const r of pii) {
    const t0 = performance.now();
    const v = shield.screen(r.text);
    piiMs += performance.now() - t0;
    for (const span of r.spans) {
      const rules = TYPE_MAP[span.type];
      if (rules === undefined) continue;
      const st = stats.get(span.type) ?? { hit: 0, n: 0 };
      st.n++;
      if (v.findings.some((f) => f.type === 'PII_LEAK' && rules.includes(f.rule) && f.start < span.end && f.end > span.start)) st.hit++;
      else misses.push(`${r.id}:${span.type}`);
      stats.set(span.type, st);
    }
  }
  console.log(`\nPII recall per entity type (${piiFile}: ${pii.length} texts, skipped: ${skippedText(piiSkipped)}; ${(piiMs / Math.max(1, pii.length)).toFixed(3)} ms/text):\n`);
  let hit = 0;
  let n = 0;
  table(['entity', 'n', 'recall'], [...stats.entries()].sort().map(([k, s]) => ((hit += s.hit), (n += s.n), [k, String(s.n), pct(s.hit / s.n)])));
  console.log(`\nvalidated types overall: ${hit}/${n} = ${pct(hit / n)}`);
  if (showErrors) console.log('PII misses:', misses.join(' '));
}

// --- 4. Phone numbers of 53 regions, 7 forms, 12 language frames --------------------------------
{
  const REGIONS = 'US GB DE FR ES IT PT BR NL RU CN JP KR IN SA EG AE MX AR CO CL PE PL TR SE NO DK FI GR CZ AT CH BE IE AU NZ ZA NG KE ID VN TH PH MY SG HK TW IL UA RO HU PK BD'.split(' ') as CountryCode[];
  const FRAMES: Record<string, string> = {
    en: 'Call me at {} tomorrow.', de: 'Ruf mich unter {} an.', fr: 'Appelez-moi au {} demain.', es: 'Llámame al {} mañana.',
    it: 'Chiamami al {} domani.', nl: 'Bel me op {}.', ru: 'Позвоните мне по {}.', zh: '请拨打{}联系我。', ja: '{}にお電話ください。',
    ko: '{}로 연락주세요.', ar: 'اتصل بي على {}', hi: 'मुझे {} पर कॉल करें',
  };
  const forms: Record<string, (n: NonNullable<ReturnType<typeof getExampleNumber>>) => string> = {
    'international': (n) => n.formatInternational(),
    'international, dashes': (n) => n.formatInternational().replace(/ /g, '-'),
    '00 prefix': (n) => '00' + n.formatInternational().slice(1),
    'E.164': (n) => n.number,
    'national': (n) => n.formatNational(),
    'national, dots': (n) => n.formatNational().replace(/ /g, '.'),
    'national, no separators': (n) => n.formatNational().replace(/[^0-9]/g, ''),
  };
  const byForm = new Map<string, { hit: number; n: number }>();
  const byFrame = new Map<string, { hit: number; n: number }>();
  for (const region of REGIONS) {
    const number = getExampleNumber(region, phoneExamples);
    if (number === undefined) continue;
    for (const [form, write] of Object.entries(forms)) {
      const written = write(number);
      for (const [lang, frame] of Object.entries(FRAMES)) {
        const text = frame.replace('{}', written);
        const v = shield.screen(text);
        const ok = v.findings.some((f) => f.rule.startsWith('pii.phone')) && v.sanitized_text === text.replace(written, '<PHONE_NUMBER_1>');
        for (const [map, key] of [[byForm, form], [byFrame, lang]] as const) {
          const st = map.get(key) ?? { hit: 0, n: 0 };
          st.n++;
          if (ok) st.hit++;
          map.set(key, st);
        }
      }
    }
  }
  const total = [...byForm.values()].reduce((a, s) => ({ hit: a.hit + s.hit, n: a.n + s.n }), { hit: 0, n: 0 });
  console.log(`\nPhone numbers: libphonenumber example numbers of ${REGIONS.length} regions, ${Object.keys(forms).length} forms, ${Object.keys(FRAMES).length} language frames: ${total.hit}/${total.n} = ${pct(total.hit / total.n)} redacted as phone numbers\n`);
  table(['form', 'n', 'recall'], [...byForm.entries()].map(([k, s]) => [k, String(s.n), pct(s.hit / s.n)]));
  console.log('');
  table(['frame', 'n', 'recall'], [...byFrame.entries()].map(([k, s]) => [k, String(s.n), pct(s.hit / s.n)]));
  console.log('\nMisses are mostly dotted national forms with no phone noun: "912.345.678" is also how Europe writes an amount.');
}
