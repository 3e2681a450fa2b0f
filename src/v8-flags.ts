/**
 * V8 flags the gateway sets for its own process, before any worker thread starts (V8 flags are
 * process-wide, so the workers run under them too; Node refuses them in a Worker's execArgv and
 * in NODE_OPTIONS, hence here).
 *
 * `--no-allocation-site-pretenuring`: when a young-generation collection happens to run in the
 * middle of a request, most of that request's objects are alive (an API-01 page's DOM: thousands
 * of nodes), and V8 then allocates everything from those allocation sites straight in the old
 * generation, for every later request. Measured on the API-01 worker (typical pages, 1
 * connection, `--trace-gc`): the old generation filled at ~140 MB/s and a 7-19 ms mark-compact ran
 * about once a second; p99 10.0-10.4 ms, against 5.6-5.9 ms and 2 mark-compacts per run with the
 * flag (BENCHMARKS.md, Gateway). Request data here is short-lived by design, so the young
 * generation is the right place for it. `node --allocation-site-pretenuring src/main.ts` keeps
 * V8's default.
 */
import { setFlagsFromString } from 'node:v8';

export const NO_PRETENURING = '--no-allocation-site-pretenuring';

/** Sets the gateway's V8 flags unless the command line asked otherwise; returns those it set. */
export function applyV8Flags(execArgv: readonly string[] = process.execArgv, set: (flag: string) => void = setFlagsFromString): string[] {
  if (execArgv.includes('--allocation-site-pretenuring')) return [];
  set(NO_PRETENURING);
  return [NO_PRETENURING];
}
