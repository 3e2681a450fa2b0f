/**
 * Decision: findings -> threat_type, action, confidence (CONTRACT.md §5 API-08).
 *
 * - Hostile signals below REPORT_THRESHOLD are not findings; the strongest of them is the
 *   `confidence` of a NONE verdict (how close the input came to being flagged).
 * - `threat_type` is the blocking finding with the highest confidence (ties: contract order);
 *   without one, SECRET_LEAK before PII_LEAK; else NONE.
 * - `confidence` of a blocking verdict combines its blocking findings (noisy-OR: independent
 *   signals reinforce each other), capped at 0.99; of a redaction, the strongest leak finding.
 * - The learned detector's calibrated probability joins the noisy-OR when it reaches
 *   MODEL_THRESHOLD; it is listed as a finding (over the whole text, or its most hostile window)
 *   only when no rule blocks. Below the threshold it is a sub-threshold signal.
 */
import { BLOCKING, THREAT_TYPES, type Finding, type Origin, type ThreatType } from './types.ts';

export const REPORT_THRESHOLD = 0.5;
/**
 * The learned detector's calibrated probability from which it blocks, per origin. Calibration is
 * fitted on held-apart rows of the training sources; on sources it has never seen the model is
 * over-confident, so the pair is chosen on the leave-one-source-out folds of `npm run
 * eval:shield`: mean benign false-positive rate within 3%, and no hand-written benign prompt of
 * test/shield-generalisation.test.ts blocked (user 0.95 scores more F1 on the folds but blocks
 * two). A pair picked on the folds flatters them: `--nested` picks per fold without the source
 * it scores and lands above 3% FP. User prompts need more: the rules already cover the direct
 * attacks well, and benign prompts full of trigger words are where the model errs.
 */
export const MODEL_THRESHOLD: Readonly<Record<Origin, number>> = { user: 0.99, external: 0.95 };

/** The learned detector's reading of the whole text (core.ts). */
export interface Learned {
  readonly probability: number;
  /** threat_type when the model alone detects: INDIRECT_PROMPT_INJECTION for external text, else the nearest rule family */
  readonly type: ThreatType;
  readonly rule: string;
  readonly origin: Origin;
  readonly start: number;
  readonly end: number;
}

/**
 * Does the pair (rules, model) block? One place, used by the service and by the evaluation's
 * leave-one-source-out retrains, so both score the same policy.
 */
export function blocks(ruleBlocks: boolean, probability: number, origin: Origin): boolean {
  return ruleBlocks || probability >= MODEL_THRESHOLD[origin];
}
/** Findings listed in a response; sanitized_text still redacts every value beyond this. */
export const MAX_FINDINGS = 256;

export type Action = 'BLOCKED' | 'REDACTED' | 'ALLOWED';

export interface Verdict {
  threat_detected: boolean;
  threat_type: ThreatType;
  action: Action;
  confidence: number;
  findings: Finding[];
  sanitized_text: string;
}

const ORDER = new Map<ThreatType, number>(THREAT_TYPES.map((t, i) => [t, i]));

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

export function decide(all: Finding[], residual: number, sanitized: string, learned?: Learned): Verdict {
  let extra = 1;
  if (learned !== undefined) {
    const ruleBlocks = all.some((f) => BLOCKING.has(f.type) && f.confidence >= REPORT_THRESHOLD);
    // The model's finding is listed when it is the reason to block; beside blocking rule findings
    // (which point at the exact span) it only adds its weight to the confidence.
    if (!blocks(false, learned.probability, learned.origin)) residual = Math.max(residual, learned.probability);
    else if (ruleBlocks) extra = 1 - learned.probability;
    else all.push({ type: learned.type, rule: learned.rule, confidence: learned.probability, start: learned.start, end: learned.end });
  }
  let top: Finding | null = null;
  let keep = extra;
  let leak: Finding | null = null;
  let quiet = residual;
  for (const f of all) {
    if (BLOCKING.has(f.type)) {
      if (f.confidence < REPORT_THRESHOLD) {
        quiet = Math.max(quiet, f.confidence);
        continue;
      }
      keep *= 1 - f.confidence;
      if (top === null || f.confidence > top.confidence || (f.confidence === top.confidence && ORDER.get(f.type)! < ORDER.get(top.type)!)) top = f;
    } else if (leak === null || (f.type === 'SECRET_LEAK' && leak.type === 'PII_LEAK') || (f.type === leak.type && f.confidence > leak.confidence)) {
      leak = f;
    }
  }
  const findings = all
    .map((f) => ({ type: f.type, rule: f.rule, confidence: round3(f.confidence), start: f.start, end: f.end }))
    .sort((a, b) => a.start - b.start || b.confidence - a.confidence);
  if (findings.length > MAX_FINDINGS) findings.length = MAX_FINDINGS;
  if (top !== null) {
    return { threat_detected: true, threat_type: top.type, action: 'BLOCKED', confidence: round3(Math.min(0.99, 1 - keep)), findings, sanitized_text: sanitized };
  }
  if (leak !== null) {
    return { threat_detected: true, threat_type: leak.type, action: 'REDACTED', confidence: round3(leak.confidence), findings, sanitized_text: sanitized };
  }
  return { threat_detected: false, threat_type: 'NONE', action: 'ALLOWED', confidence: round3(quiet), findings, sanitized_text: sanitized };
}
