/**
 * The gateway's one small learning module, shared by API-05 (pair verifier) and API-08 (prompt
 * detector): hashed features, logistic regression, calibration and a compact model file. Training
 * runs in scripts (`npm run train:*`); the services only load a file and score.
 */
export { FeatureHasher, addCharNgrams, addWordNgrams, hashString, type FeatureHasherOptions, type Normalisation, type SparseVector } from './features.ts';
export { LinearModel, mulberry32, shuffleInPlace, sigmoid, trainLogistic, type TrainData, type TrainOptions } from './linear.ts';
export { averagePrecision, calibrate, fitIsotonic, fitPlatt, type Calibration } from './calibrate.ts';
export { decodeModel, encodeModel, type ModelBundle, type WeightFormat } from './model-file.ts';
