/**
 * What one worker-pool round trip costs here, against the same function inline (tinybench, same
 * run). This number decides what stays on the event loop: work well under it is never moved.
 */
import { Bench } from 'tinybench';
import { taskRef, WorkerPool } from '../../src/pool/worker-pool.ts';
import { sum } from '../lib/noop-worker.ts';
import { printReport } from '../lib/harness.ts';

const pool = new WorkerPool({ threads: 1, maxQueue: 1024 });
const task = taskRef(new URL('../lib/noop-worker.ts', import.meta.url), 'sumTask');
const small = { values: [1, 2, 3, 4] };
const kb10 = { values: Array.from({ length: 1280 }, (_, i) => i) }; // ~10 KB of JSON-ish payload

console.assert((await pool.run<number>(task, small)) === 10, 'the worker computes the same sum');
console.assert((await pool.run<number>(task, kb10)) === sum(kb10), 'the worker computes the same sum on 10 KB');

const bench = new Bench({ time: 1500, warmupTime: 300 });
bench
  .add('inline call (small payload)', () => {
    sum(small);
  })
  .add('pool round trip (small payload)', async () => {
    await pool.run(task, small);
  })
  .add('pool round trip (10 KB payload)', async () => {
    await pool.run(task, kb10);
  })
  .add('pool, 8 tasks in flight (per task)', async () => {
    await Promise.all(Array.from({ length: 8 }, () => pool.run(task, small)));
  });
await bench.run();
await pool.close();

const ms = (name: string) => {
  const t = bench.tasks.find((x) => x.name === name)!;
  const r = t.result as unknown as { latency: { mean: number; p50?: number; p99?: number }; throughput: { mean: number } };
  return r;
};
const rows = bench.tasks.map((t) => {
  const r = ms(t.name);
  const per = t.name.includes('8 tasks') ? 8 : 1;
  return { label: t.name, opsPerSec: r.throughput.mean * per, p50Ms: (r.latency.p50 ?? r.latency.mean) / per, p99Ms: (r.latency.p99 ?? r.latency.mean) / per };
});
const hop = (ms('pool round trip (small payload)').latency.p50 ?? 0) - (ms('inline call (small payload)').latency.p50 ?? 0);
printReport({
  name: 'Worker pool round trip (Piscina, 1 thread)',
  rows,
  ratios: { 'pool / inline (p50 latency)': (ms('pool round trip (small payload)').latency.p50 ?? 1) / Math.max(1e-6, ms('inline call (small payload)').latency.p50 ?? 1) },
  notes: [`one hop costs ≈ ${(hop * 1000).toFixed(0)} µs at p50: work much below that stays on the event loop`],
});
