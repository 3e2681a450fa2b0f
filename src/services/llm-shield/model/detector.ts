/**
 * The shipped weights (model/shield.bin, written by `npm run train:shield`): decoded once at boot,
 * checked against the feature spec this build computes, then read-only.
 */
import { readFileSync } from 'node:fs';
import { calibrate, decodeModel, type Calibration, type LinearModel, type SparseVector } from '../../../learn/index.ts';
import type { NgramFeaturizer } from '../../../learn/ngram-featurizer.ts';
import { FEATURE_SPEC, NORMALISATION } from './features.ts';

export const MODEL_FILE = new URL('./shield.bin', import.meta.url);

export interface ShieldModel {
  /** calibrated probability that the text is an attack, for the row open in `h` (features.ts) */
  probability(h: NgramFeaturizer): number;
  /** the same for a closed row (training and evaluation) */
  probabilityOf(x: SparseVector): number;
  readonly meta: Record<string, unknown>;
}

export function toShieldModel(model: LinearModel, calibration: Calibration, meta: Record<string, unknown>): ShieldModel {
  return {
    probability: (h) => calibrate(calibration, h.logit(model.weights, model.bias, NORMALISATION)),
    probabilityOf: (x) => calibrate(calibration, model.logit(x)),
    meta,
  };
}

/** Decodes a model file; throws when it was trained on another feature spec. */
export function decodeShieldModel(buf: Buffer): ShieldModel {
  const { model, calibration, meta } = decodeModel(buf);
  const spec = (meta as { features?: unknown }).features;
  if (JSON.stringify(spec) !== JSON.stringify(FEATURE_SPEC)) {
    throw new Error('llm-shield model: feature spec of model/shield.bin differs from this build; run npm run train:shield');
  }
  return toShieldModel(model, calibration, meta as Record<string, unknown>);
}

export function loadShippedModel(): ShieldModel {
  return decodeShieldModel(readFileSync(MODEL_FILE));
}
