/** The shared learning module (src/learn): features, training, calibration, model files. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  FeatureHasher, addCharNgrams, addWordNgrams, averagePrecision, calibrate, decodeModel, encodeModel,
  fitIsotonic, fitPlatt, hashString, mulberry32, trainLogistic, type SparseVector,
} from '../src/learn/index.ts';

/** A toy task: a text is positive when it holds a word of the "attack" list. */
function toyData(n: number, seed: number): { texts: string[]; y: number[] } {
  const rng = mulberry32(seed);
  const good = ['bake', 'bread', 'weather', 'summary', 'translate', 'poem', 'garden', 'travel', 'music', 'recipe'];
  const bad = ['ignore', 'override', 'jailbreak', 'reveal'];
  const texts: string[] = [];
  const y: number[] = [];
  for (let i = 0; i < n; i++) {
    const words = Array.from({ length: 6 }, () => good[Math.floor(rng() * good.length)]!);
    const positive = rng() < 0.4;
    if (positive) words[Math.floor(rng() * words.length)] = bad[Math.floor(rng() * bad.length)]!;
    texts.push(words.join(' '));
    y.push(positive ? 1 : 0);
  }
  return { texts, y };
}

function featurise(h: FeatureHasher, text: string): SparseVector {
  h.begin();
  addWordNgrams(h, text.split(' '), 2, 1);
  addCharNgrams(h, ` ${text} `, 3, 4, 0.5);
  return h.end('l2');
}

describe('src/learn', () => {
  it('hashes strings to stable 32-bit values (shipped weights depend on them)', () => {
    assert.equal(hashString(''), 0);
    assert.notEqual(hashString('ab'), hashString('ba'));
    assert.notEqual(hashString('ab', 1), hashString('ab', 2));
    // Pinned values: a change of the hash silently breaks every shipped model.
    const pinned = [hashString('hello'), hashString('w1:ignore'), hashString('c3:ign', 42)];
    assert.ok(pinned.every((v) => Number.isInteger(v) && v >= 0 && v <= 0xffffffff));
    assert.deepEqual(pinned, [3619887497, 358246980, 283577363]);
  });

  it('merges repeated keys, keeps dense slots in front and normalises only the hashed part on request', () => {
    const h = new FeatureHasher({ bits: 4, reserved: 2 });
    assert.equal(h.dim, 18);
    h.begin();
    h.addIndex(1, 5);
    h.add('x', 3);
    h.add('x', 1);
    const v = h.end('l2-hashed');
    assert.equal(v.index.length, 2);
    assert.equal(v.index[0], 1);
    assert.equal(v.value[0], 5);
    assert.ok(v.index[1]! >= 2 && v.index[1]! < 18);
    assert.equal(v.value[1], 1);
    h.begin();
    h.add('x', 3);
    h.add('x', -3);
    assert.equal(h.end().index.length, 0);
    assert.throws(() => h.addIndex(2, 1), RangeError);
    assert.throws(() => new FeatureHasher({ bits: 0 }), RangeError);
  });

  it('builds word and char n-gram keys', () => {
    const h = new FeatureHasher({ bits: 20 });
    h.begin();
    addWordNgrams(h, ['a', 'b', 'c'], 2);
    assert.equal(h.end().index.length, 5); // a b c, a b, b c
    h.begin();
    addCharNgrams(h, 'abcd', 2, 3);
    assert.equal(h.end().index.length, 5); // ab bc cd, abc bcd
  });

  it('learns a separable task and ranks held-out rows well', () => {
    const h = new FeatureHasher({ bits: 12 });
    const train = toyData(600, 1);
    const test = toyData(300, 2);
    const model = trainLogistic({ x: train.texts.map((t) => featurise(h, t)), y: train.y }, h.dim, { epochs: 5 });
    const scores = test.texts.map((t) => model.probability(featurise(h, t)));
    assert.ok(averagePrecision(scores, test.y) > 0.98);
    const correct = scores.filter((s, i) => (s >= 0.5 ? 1 : 0) === test.y[i]).length;
    assert.ok(correct / scores.length > 0.95, `accuracy ${correct / scores.length}`);
  });

  it('gives the same weights byte for byte on the same data and options, other weights on another seed', () => {
    const h = new FeatureHasher({ bits: 10 });
    const data = toyData(200, 3);
    const x = data.texts.map((t) => featurise(h, t));
    const a = encodeModel({ model: trainLogistic({ x, y: data.y }, h.dim, { epochs: 3, seed: 9 }), calibration: { kind: 'identity' }, meta: { k: 1 } });
    const b = encodeModel({ model: trainLogistic({ x, y: data.y }, h.dim, { epochs: 3, seed: 9 }), calibration: { kind: 'identity' }, meta: { k: 1 } });
    const c = encodeModel({ model: trainLogistic({ x, y: data.y }, h.dim, { epochs: 3, seed: 10 }), calibration: { kind: 'identity' }, meta: { k: 1 } });
    assert.ok(a.equals(b));
    assert.ok(!a.equals(c));
  });

  it('round-trips a model file exactly in f32 and within one step in i8; refuses damaged files', () => {
    const h = new FeatureHasher({ bits: 8 });
    const data = toyData(100, 4);
    const model = trainLogistic({ x: data.texts.map((t) => featurise(h, t)), y: data.y }, h.dim, { epochs: 2 });
    const calibration = fitPlatt([-2, -1, 0, 1, 2], [0, 0, 1, 1, 1]);
    const f32 = decodeModel(encodeModel({ model, calibration, meta: { sources: ['x'] } }));
    assert.deepEqual(Array.from(f32.model.weights), Array.from(model.weights));
    assert.equal(f32.model.bias, model.bias);
    assert.deepEqual(f32.calibration, calibration);
    assert.deepEqual(f32.meta, { sources: ['x'] });
    const bytes = encodeModel({ model, calibration, meta: {} }, { weights: 'i8' });
    const i8 = decodeModel(bytes);
    const max = Math.max(...Array.from(model.weights, Math.abs));
    for (let i = 0; i < model.dim; i++) assert.ok(Math.abs(i8.model.weights[i]! - model.weights[i]!) <= max / 127 / 2 + 1e-6);
    assert.throws(() => decodeModel(Buffer.from('nope')), TypeError);
    assert.throws(() => decodeModel(bytes.subarray(0, bytes.length - 1)), TypeError);
  });

  it('calibrates: Platt is monotone and fits the rates; isotonic pools violators', () => {
    const scores: number[] = [];
    const labels: number[] = [];
    const rng = mulberry32(5);
    for (let i = 0; i < 2000; i++) {
      const s = rng() * 8 - 4;
      scores.push(s);
      labels.push(rng() < 1 / (1 + Math.exp(-(2 * s + 1))) ? 1 : 0);
    }
    const platt = fitPlatt(scores, labels);
    assert.equal(platt.kind, 'platt');
    if (platt.kind === 'platt') {
      assert.ok(Math.abs(platt.a - 2) < 0.4, `a ${platt.a}`);
      assert.ok(Math.abs(platt.b - 1) < 0.4, `b ${platt.b}`);
    }
    assert.ok(calibrate(platt, 1) > calibrate(platt, 0));
    const iso = fitIsotonic([1, 2, 3, 4], [0, 1, 0, 1]);
    assert.deepEqual(iso, { kind: 'isotonic', x: [1, 2.5, 4], y: [0, 0.5, 1] });
    assert.equal(calibrate(iso, 0), 0);
    assert.equal(calibrate(iso, 1.75), 0.25);
    assert.equal(calibrate(iso, 9), 1);
    assert.equal(averagePrecision([0.9, 0.8, 0.1], [1, 0, 1]), (1 + 2 / 3) / 2);
  });
});
