/** Worker functions for the pool-hop benchmark. */
import { workerTask } from '../../src/pool/worker-task.ts';

export function sum(input: { values: number[] }): number {
  let s = 0;
  for (const v of input.values) s += v;
  return s;
}

export const sumTask = workerTask(sum);
