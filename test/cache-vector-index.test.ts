/** One suite, two implementations: HNSW (hnswlib-node) and exact brute force must agree. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BruteForceIndex, HnswIndex, type VectorIndex } from '../src/vector-index/index.ts';

const DIMS = 16;

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function unit(r: () => number): Float32Array {
  const v = new Float32Array(DIMS);
  let n = 0;
  for (let d = 0; d < DIMS; d++) {
    v[d] = r() - 0.5;
    n += v[d]! * v[d]!;
  }
  for (let d = 0; d < DIMS; d++) v[d]! /= Math.sqrt(n);
  return v;
}

const IMPLEMENTATIONS: Array<[string, () => VectorIndex]> = [
  ['hnsw', () => new HnswIndex(DIMS, { initialCapacity: 8 })],
  ['brute force', () => new BruteForceIndex(DIMS, 4)],
];

for (const [name, make] of IMPLEMENTATIONS) {
  describe(`vector index: ${name}`, () => {
    it('returns nothing from an empty index', () => {
      assert.deepEqual(make().search(unit(rng(1)), 5), []);
    });

    it('finds an added vector with cosine 1 and its label', () => {
      const idx = make();
      const r = rng(2);
      const v = unit(r);
      idx.add(7, v);
      idx.add(8, unit(r));
      const [top] = idx.search(v, 1);
      assert.equal(top!.label, 7);
      assert.ok(Math.abs(top!.score - 1) < 1e-5);
    });

    it('orders hits best first and never returns more than it holds', () => {
      const idx = make();
      const r = rng(3);
      for (let i = 0; i < 3; i++) idx.add(i, unit(r));
      const hits = idx.search(unit(r), 10);
      assert.equal(hits.length, 3);
      for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1]!.score >= hits[i]!.score);
    });

    it('never returns a removed label, and a removed label can be added again', () => {
      const idx = make();
      const r = rng(4);
      const v = unit(r);
      idx.add(1, v);
      idx.add(2, unit(r));
      assert.equal(idx.remove(1), true);
      assert.equal(idx.remove(1), false);
      assert.ok(idx.search(v, 5).every((h) => h.label !== 1));
      assert.equal(idx.size, 1);
      idx.add(1, v);
      assert.equal(idx.search(v, 1)[0]!.label, 1);
    });

    it('grows past its initial capacity and keeps exact neighbours (agrees with brute force)', () => {
      const idx = make();
      const ref = new BruteForceIndex(DIMS);
      const r = rng(5);
      for (let i = 0; i < 600; i++) {
        const v = unit(r);
        idx.add(i, v);
        ref.add(i, v);
      }
      for (let i = 0; i < 200; i += 2) {
        idx.remove(i);
        ref.remove(i);
      }
      let agree = 0;
      for (let q = 0; q < 50; q++) {
        const v = unit(r);
        if (idx.search(v, 1)[0]!.label === ref.search(v, 1)[0]!.label) agree++;
      }
      assert.ok(agree >= 48, `recall@1 ${agree}/50`);
      assert.equal(idx.size, 500);
    });

    it('rebuild keeps exactly the live vectors', () => {
      const idx = make();
      const r = rng(6);
      const kept = unit(r);
      for (let i = 0; i < 50; i++) idx.add(i, unit(r));
      idx.add(1000, kept);
      for (let i = 0; i < 50; i++) idx.remove(i);
      idx.rebuild();
      assert.equal(idx.size, 1);
      assert.equal(idx.deleted, 0);
      assert.deepEqual(idx.search(kept, 5).map((h) => h.label), [1000]);
    });

    it('rejects a vector of the wrong length and a label already in use', () => {
      const idx = make();
      assert.throws(() => idx.add(1, new Float32Array(DIMS + 1)), RangeError);
      idx.add(1, unit(rng(7)));
      assert.throws(() => idx.add(1, unit(rng(8))), RangeError);
      assert.throws(() => idx.add(-1, unit(rng(8))), RangeError);
    });
  });
}

describe('vector index: HNSW deletions', () => {
  it('reuses markDeleted slots for new inserts and asks for a rebuild only when deletions pile up', () => {
    const idx = new HnswIndex(DIMS, { initialCapacity: 64 });
    const r = rng(9);
    for (let i = 0; i < 64; i++) idx.add(i, unit(r));
    for (let i = 0; i < 32; i++) idx.remove(i);
    assert.equal(idx.deleted, 32);
    for (let i = 100; i < 132; i++) idx.add(i, unit(r));
    assert.equal(idx.deleted, 0, 'inserts reuse deleted slots');
    assert.equal(idx.needsRebuild(), false);
    const big = new HnswIndex(DIMS, { initialCapacity: 4096 });
    for (let i = 0; i < 3000; i++) big.add(i, unit(r));
    for (let i = 0; i < 2000; i++) big.remove(i);
    assert.equal(big.needsRebuild(), true);
    big.rebuild();
    assert.equal(big.needsRebuild(), false);
    assert.equal(big.size, 1000);
  });
});
