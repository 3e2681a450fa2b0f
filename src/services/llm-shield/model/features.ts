/**
 * Features of the learned detector, shared by inference (core.ts) and training
 * (scripts/train-shield.ts): one function, so the shipped weights and the running service can
 * never read a text differently.
 *
 *   fold view tokens ─ hashed word 1..2-grams                ┐ l2 over the hashed part
 *   origin external  ─ the same n-grams again, other salt    ┘ (a copy only external text has, so
 *                                                              the model learns what is hostile there)
 *   dense slots [0, reserved): origin, the rules' strongest signal per threat type, PII present, length,
 *                              the user referring to their own earlier message (a benign cue)
 *
 * No character n-grams: they raised pooled scores but lowered leave-one-source-out ones (they learn
 * a source's style), see docs/api-08-llm-shield.md.
 *
 * The fold view has already undone homoglyphs, leetspeak, spaced letters and invisible characters,
 * so an n-gram learned on plain text also fires on its disguised spellings. Cost is linear in the
 * text: two n-grams per token (four for external text).
 */
import { NgramFeaturizer } from '../../../learn/ngram-featurizer.ts';
import { BLOCKING, THREAT_TYPES, type Origin, type ThreatType } from '../types.ts';

/** Part of the model file's meta: a model trained with another spec is refused at boot. */
export const FEATURE_SPEC = {
  version: 3,
  bits: 18,
  reserved: 16,
  wordNgrams: 2,
  externalCopy: true,
} as const;
export type FeatureSpec = typeof FEATURE_SPEC;

/** Dense slots: 0 origin, 1.. one per blocking threat type, then PII/secret present, log length, own earlier message. */
export const SLOT_ORIGIN = 0;
export const SIGNAL_TYPES: readonly ThreatType[] = THREAT_TYPES.filter((t) => BLOCKING.has(t));
const SLOT_SIGNAL0 = 1;
const SLOT_LEAK = SLOT_SIGNAL0 + SIGNAL_TYPES.length;
const SLOT_LENGTH = SLOT_LEAK + 1;
const SLOT_OWN = SLOT_LENGTH + 1;
if (SLOT_OWN >= FEATURE_SPEC.reserved) throw new Error('feature slots exceed the reserved range');

const SIGNAL_SLOT = new Map<ThreatType, number>(SIGNAL_TYPES.map((t, i) => [t, SLOT_SIGNAL0 + i]));

/** What the rules saw, per threat type (the strongest confidence, reported or not). */
export interface RuleSignals {
  readonly byType: Float32Array;
  leak: boolean;
}

export function emptySignals(): RuleSignals {
  return { byType: new Float32Array(THREAT_TYPES.length), leak: false };
}

const TYPE_INDEX = new Map<ThreatType, number>(THREAT_TYPES.map((t, i) => [t, i]));

export function noteSignal(s: RuleSignals, type: ThreatType, confidence: number): void {
  const i = TYPE_INDEX.get(type)!;
  if (confidence > s.byType[i]!) s.byType[i] = confidence;
}

/** A featuriser for FEATURE_SPEC; one per shield and thread (it owns a scratch row). */
export function createHasher(): NgramFeaturizer {
  return new NgramFeaturizer({ bits: FEATURE_SPEC.bits, reserved: FEATURE_SPEC.reserved });
}

/** Hash salts of the feature families (part of the spec: changing one needs a retrain). */
const SALT_WORD = 1;
const SALT_EXTERNAL = 2;
export const NORMALISATION = 'l2-hashed';

/**
 * Opens the feature row of one text in `h` (read it with `h.end(NORMALISATION)` or score it with
 * `h.logit(w, b, NORMALISATION)`). `foldText` and `words` are the fold view and its tokens (the
 * rules computed them already), `length` the original text's length.
 */
export function featurize(h: NgramFeaturizer, _foldText: string, words: readonly string[], origin: Origin, signals: RuleSignals, length: number): void {
  h.begin();
  if (origin === 'external') h.addIndex(SLOT_ORIGIN, 1);
  for (const t of SIGNAL_TYPES) {
    const v = signals.byType[TYPE_INDEX.get(t)!]!;
    if (v > 0) h.addIndex(SIGNAL_SLOT.get(t)!, v);
  }
  if (signals.leak) h.addIndex(SLOT_LEAK, 1);
  h.addIndex(SLOT_LENGTH, Math.log2(1 + length) / 16);
  if (ownEarlierMessage(words)) h.addIndex(SLOT_OWN, 1);
  h.addWordNgrams(words, FEATURE_SPEC.wordNgrams, 1, SALT_WORD);
  if (FEATURE_SPEC.externalCopy && origin === 'external') h.addWordNgrams(words, FEATURE_SPEC.wordNgrams, 1, SALT_EXTERNAL);
}

const EARLIER = new Set(['previous', 'last', 'earlier', 'prior']);
const MESSAGE = new Set(['message', 'messages', 'question', 'request', 'email', 'comment', 'reply', 'answer', 'sentence', 'text', 'post', 'draft']);

/** "my previous message", "my last question": the user refers to their own earlier words (a benign cue). */
function ownEarlierMessage(words: readonly string[]): boolean {
  for (let i = 0; i + 2 < words.length; i++) if (words[i] === 'my' && EARLIER.has(words[i + 1]!) && MESSAGE.has(words[i + 2]!)) return true;
  return false;
}
