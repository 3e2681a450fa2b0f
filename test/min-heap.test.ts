import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MinHeap } from '../src/util/min-heap.ts';
import { rng } from './helpers/rng.ts';

describe('MinHeap', () => {
  it('pops items in key order, whatever the push order', () => {
    const r = rng(42);
    const heap = new MinHeap<{ at: number }>((x) => x.at);
    const keys = Array.from({ length: 500 }, () => Math.floor(r() * 1000));
    for (const at of keys) heap.push({ at });
    const out: number[] = [];
    for (let x = heap.pop(); x !== undefined; x = heap.pop()) out.push(x.at);
    assert.deepEqual(out, [...keys].sort((a, b) => a - b));
    assert.equal(heap.size, 0);
  });

  it('pops only what is due and rebuilds from a filtered copy', () => {
    const heap = new MinHeap<{ at: number; live: boolean }>((x) => x.at);
    for (const [at, live] of [[30, true], [10, false], [20, true]] as const) heap.push({ at, live });
    assert.equal(heap.popIfAtMost(5), undefined);
    assert.equal(heap.popIfAtMost(10)?.at, 10);
    heap.rebuild(heap.items().filter((x) => x.at !== 20));
    assert.equal(heap.size, 1);
    assert.equal(heap.peek()?.at, 30);
  });
});
