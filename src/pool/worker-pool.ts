/**
 * The one Piscina pool of the gateway, built in main.ts. CPU-heavy work only: a round trip costs
 * ~0.1 ms here (BENCHMARKS.md), so sub-millisecond jobs stay on the event loop.
 *
 * - bounded queue: a full queue answers 503 OVERLOADED with Retry-After;
 * - a client abort cancels its queued task (AbortSignal);
 * - a worker that throws or dies fails that request with 500 INTERNAL; Piscina replaces the worker.
 * Workers run the same TypeScript cores: they inherit `--import tsx` from process.execArgv,
 * or get it added here when the main thread was started another way.
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { createError, deserializeError } from '../errors.ts';
import { FAILURE_KEY, isWorkerFailure } from './worker-task.ts';

export interface WorkerPoolOptions {
  /** Worker threads (fixed size: min = max). */
  readonly threads: number;
  /** Tasks allowed to wait for a free worker. */
  readonly maxQueue: number;
  /** Seconds a client should wait after a 503; default 1. */
  readonly retryAfterSeconds?: number;
}

/** A function exported by a worker module: `taskRef(new URL('../../workers/x.ts', import.meta.url), 'fn')`. */
export interface TaskRef {
  readonly filename: string;
  readonly name: string;
}

export function taskRef(file: URL, name: string): TaskRef {
  return Object.freeze({ filename: file.href, name });
}

/** Cheap counters, read on every health request. */
export interface PoolStats {
  readonly threads: number;
  readonly queued: number;
  readonly completed: number;
}

/**
 * The part of the process's flags a worker thread may be given. Node rejects process-wide flags in
 * a Worker's execArgv (ERR_WORKER_INVALID_EXEC_ARGV: `node --expose-gc src/main.ts` would fail at
 * boot); V8 flags such as --expose-gc or --max-semi-space-size are process-wide anyway, so the
 * workers already run under them. Kept: module loading and warning options, which are per thread.
 */
export function workerExecArgv(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const name = a.startsWith('--') ? a.split('=', 1)[0]! : a;
    const takesValue = !a.includes('=') && WITH_VALUE.has(name);
    if (PER_THREAD.has(name) || name.startsWith('--experimental-') || name.startsWith('--no-experimental-')) {
      out.push(a);
      if (takesValue && i + 1 < argv.length) out.push(argv[++i]!);
    } else if (takesValue) {
      i++; // a dropped flag's value goes with it
    }
  }
  return out;
}

const WITH_VALUE = new Set(['--import', '--require', '-r', '--loader', '--experimental-loader', '--conditions', '-C', '--disable-warning', '--max-old-space-size', '--max-semi-space-size', '--stack-size']);
const PER_THREAD = new Set(['--import', '--require', '-r', '--loader', '--experimental-loader', '--conditions', '-C', '--enable-source-maps', '--no-warnings', '--disable-warning', '--no-deprecation', '--trace-warnings', '--trace-deprecation', '--trace-uncaught']);

export class WorkerPool {
  readonly #pool: Piscina;
  readonly #retryAfter: string;
  readonly #capacity: number;
  /** Tasks submitted and not yet settled (running + queued). */
  #pending = 0;
  readonly threads: number;

  constructor(options: WorkerPoolOptions) {
    if (!Number.isInteger(options.threads) || options.threads < 1) throw new RangeError('threads must be an integer >= 1');
    if (!Number.isInteger(options.maxQueue) || options.maxQueue < 0) throw new RangeError('maxQueue must be an integer >= 0');
    const retry = options.retryAfterSeconds ?? 1;
    if (!Number.isInteger(retry) || retry < 1) throw new RangeError('retryAfterSeconds must be an integer >= 1');
    this.threads = options.threads;
    this.#retryAfter = String(retry);
    // Piscina does not count tasks that carry an AbortSignal against maxQueue (they wait in its
    // "skip queue"), so the bound is enforced here: running + waiting <= threads + maxQueue.
    this.#capacity = options.threads + options.maxQueue;
    const inherited = workerExecArgv(process.execArgv);
    const execArgv = inherited.some((a, i, all) => a === '--import=tsx' || (a === '--import' && all[i + 1] === 'tsx'))
      ? inherited
      : [...inherited, '--import', 'tsx'];
    this.#pool = new Piscina({
      minThreads: options.threads,
      maxThreads: options.threads,
      maxQueue: options.maxQueue,
      idleTimeout: 60_000,
      execArgv,
    });
  }

  /** Runs `task(payload)` on a worker. Rejects with OVERLOADED when the queue is full. */
  async run<R>(task: TaskRef, payload: unknown, signal?: AbortSignal): Promise<R> {
    if (this.#pending >= this.#capacity) throw this.#overloaded();
    this.#pending++;
    let result: unknown;
    try {
      result = await this.#pool.run(payload, { filename: task.filename, name: task.name, signal });
    } catch (err) {
      const message = err instanceof Error ? err.message : '';
      if (message === 'Task queue is at limit' || message === 'No task queue available and all Workers are busy') throw this.#overloaded();
      throw err;
    } finally {
      this.#pending--;
    }
    if (isWorkerFailure(result)) throw deserializeError(result[FAILURE_KEY]);
    return result as R;
  }

  /**
   * Runs `task(payload)` once per thread, all at once, so every worker loads the task's module
   * at boot instead of on a user's first request (module loading costs ~1 s under tsx).
   */
  async warm(task: TaskRef, payload: unknown): Promise<void> {
    await Promise.all(Array.from({ length: this.threads }, () => this.run(task, payload)));
  }

  /** True when a task submitted now starts at once (some thread has nothing to run). */
  hasIdleThread(): boolean {
    return this.#pending < this.threads;
  }

  #overloaded() {
    return createError('OVERLOADED', 'All workers are busy and the queue is full; retry later', { headers: { 'retry-after': this.#retryAfter } });
  }

  stats(): PoolStats {
    return {
      threads: this.#pool.threads.length,
      queued: Math.max(0, this.#pending - this.threads),
      completed: this.#pool.completed,
    };
  }

  /**
   * Approximate busy share (0-1). Piscina derives it from its run-time histogram, which costs
   * ~0.1 ms per read: for metric scrapes only, never on a request path.
   */
  utilization(): number {
    return this.#pool.utilization;
  }

  async close(): Promise<void> {
    await this.#pool.close({ force: true });
  }
}

export function defaultThreads(): number {
  return Math.max(1, availableParallelism() - 1);
}
