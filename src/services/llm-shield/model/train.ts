/**
 * Training of the learned detector, shared by `npm run train:shield`, the evaluation's
 * leave-one-source-out retrains and the determinism test. Deterministic: rows in file order, a
 * fixed seed, calibration rows chosen by a hash of the record id; the same rows give the same
 * bytes.
 *
 *   records ─ analyse (rules + features, one shield) ─ rows
 *   rows ─ 4 of 5 (by id hash) ─ logistic regression ─ model
 *        └ 1 of 5 ─ Platt on the model's logits ─ calibration
 */
import { readFileSync } from 'node:fs';
import { encodeModel, fitPlatt, hashString, trainLogistic, type LinearModel, type Calibration, type SparseVector, type TrainOptions } from '../../../learn/index.ts';
import type { Shield } from '../core.ts';
import type { Origin, ThreatType } from '../types.ts';
import { FEATURE_SPEC } from './features.ts';

/** A record of the shield's prompt files (training corpus and eval/data/shield/prompts_dev.jsonl). */
export interface PromptRecord {
  readonly id: string;
  readonly text: string;
  readonly label: 'injection' | 'benign';
  readonly category: string;
  readonly source: string;
  /**
   * The text the model trains on when it differs: a jailbreak template filled with a harmful goal
   * (`filled_with`, AdvBench) trains with the goal cut out, so the model learns the template and
   * not the topic (a benign question about the same topic is not an attack).
   */
  readonly trainText?: string;
}

/** Text that no user wrote: the categories built from documents, e-mails, web pages and tool outputs. */
export const EXTERNAL_CATEGORIES: ReadonlySet<string> = new Set(['indirect_injection', 'external_content_clean']);

export function originOf(r: PromptRecord): Origin {
  return EXTERNAL_CATEGORIES.has(r.category) ? 'external' : 'user';
}

export interface Skipped {
  [reason: string]: number;
}

/** Reads a JSON Lines prompt file; records it cannot use are counted in `skipped`, never thrown. */
export function readPromptFile(file: string, skipped: Skipped): PromptRecord[] {
  const out: PromptRecord[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    let r: Partial<PromptRecord> | null;
    try {
      r = JSON.parse(line) as Partial<PromptRecord> | null;
    } catch {
      skipped['not JSON'] = (skipped['not JSON'] ?? 0) + 1;
      continue;
    }
    const reason =
      r === null || typeof r !== 'object' ? 'not an object'
      : typeof r.text !== 'string' || r.text === '' ? 'no text'
      : r.label !== 'injection' && r.label !== 'benign' ? 'no label injection/benign'
      : null;
    if (reason !== null) {
      skipped[reason] = (skipped[reason] ?? 0) + 1;
      continue;
    }
    const filled = (r as { filled_with?: unknown }).filled_with;
    const trainText = typeof filled === 'string' && filled.length > 0 && r!.text!.includes(filled) ? r!.text!.split(filled).join(' ') : undefined;
    out.push({
      id: typeof r!.id === 'string' ? r!.id : `${file}:${out.length}`,
      text: r!.text!,
      ...(trainText === undefined ? {} : { trainText }),
      label: r!.label!,
      category: typeof r!.category === 'string' ? r!.category : 'unknown',
      source: typeof r!.source === 'string' ? r!.source : 'unknown',
    });
  }
  return out;
}

export interface Row {
  readonly record: PromptRecord;
  readonly origin: Origin;
  /** features of the text as a caller would send it (scoring) */
  readonly x: SparseVector;
  /** features of `trainText` when the record has one, else `x` (training) */
  readonly xTrain: SparseVector;
  /** window features of an external text (core.ts `windows`) */
  readonly windows: readonly SparseVector[];
  readonly y: 0 | 1;
  /** what the rules decided alone (null: no rule blocks) */
  readonly ruleType: ThreatType | null;
  readonly nearestType: ThreatType | null;
}

export function toRows(shield: Shield, records: readonly PromptRecord[]): Row[] {
  return records.map((record) => {
    const origin = originOf(record);
    const a = shield.analyse(record.text, origin);
    const xTrain = record.trainText === undefined ? a.features : shield.analyse(record.trainText, origin).features;
    return { record, origin, x: a.features, xTrain, windows: a.windowFeatures, y: record.label === 'injection' ? 1 : 0, ruleType: a.ruleType, nearestType: a.nearestType };
  });
}

export const TRAIN_OPTIONS = { epochs: 6, l2: 1e-6, learningRate: 0.2, seed: 1 } as const;
/** Total weight of the clean documents' windows, relative to the clean documents'. */
const WINDOW_WEIGHT = 0.5;
/** One row in CALIBRATION_FOLDS (by id hash) calibrates; the others train. */
const CALIBRATION_FOLDS = 5;

export interface Fitted {
  readonly model: LinearModel;
  readonly calibration: Calibration;
}

const isCalibrationRow = (r: Row): boolean => hashString(r.record.id) % CALIBRATION_FOLDS === 0;

/** Trains and calibrates on `rows` (in their order). */
export function fit(rows: readonly Row[], options: TrainOptions = {}): Fitted {
  const train = rows.filter((r) => !isCalibrationRow(r));
  const held = rows.filter(isCalibrationRow);
  const dim = FEATURE_SPEC.reserved + 2 ** FEATURE_SPEC.bits;
  // Every window of a clean document is clean: those windows train as benign rows too (half the
  // weight of the clean documents themselves), so reading a long document window by window does
  // not flag an ordinary paragraph. Windows of attacked documents have no label of their own.
  const weight = balance(train);
  const x = train.map((r) => r.xTrain);
  const y: number[] = train.map((r) => r.y);
  const w = Array.from(weight);
  const cleanWindows = train.filter((r) => r.origin === 'external' && r.y === 0).flatMap((r) => r.windows);
  const cleanDocs = train.findIndex((r) => r.origin === 'external' && r.y === 0);
  if (cleanWindows.length > 0 && cleanDocs >= 0) {
    const groupTotal = train.filter((r) => r.origin === 'external' && r.y === 0).length * weight[cleanDocs]!;
    for (const v of cleanWindows) {
      x.push(v);
      y.push(0);
      w.push((WINDOW_WEIGHT * groupTotal) / cleanWindows.length);
    }
  }
  const model = trainLogistic({ x, y, weight: w }, dim, { ...TRAIN_OPTIONS, ...options });
  const calibration = fitPlatt(held.map((r) => model.logit(r.x)), held.map((r) => r.y));
  return { model, calibration };
}

/**
 * Row weights that give each (origin, label) group the same total: the model should not learn
 * how often attacks occur in this corpus (that depends on which sources it holds), only what
 * they look like, separately for user prompts and for external content.
 */
export function balance(rows: readonly Row[]): Float64Array {
  const key = (r: Row): string => `${r.origin}/${r.y}`;
  const count = new Map<string, number>();
  for (const r of rows) count.set(key(r), (count.get(key(r)) ?? 0) + 1);
  const w = new Float64Array(rows.length);
  rows.forEach((r, i) => (w[i] = rows.length / count.size / count.get(key(r))!));
  return w;
}

/** Record counts per source and label: the provenance written into the model file. */
export function provenance(rows: readonly Row[]): Record<string, { injection: number; benign: number }> {
  const out: Record<string, { injection: number; benign: number }> = {};
  for (const r of rows) {
    const c = (out[r.record.source] ??= { injection: 0, benign: 0 });
    c[r.record.label]++;
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The model file: int8 weights, the feature spec, and what the weights were trained on. */
export function encode(f: Fitted, rows: readonly Row[], extra: Record<string, unknown> = {}): Buffer {
  return encodeModel(
    { model: f.model, calibration: f.calibration, meta: { features: FEATURE_SPEC, training: TRAIN_OPTIONS, sources: provenance(rows), records: rows.length, ...extra } },
    { weights: 'i8' },
  );
}
