/**
 * API-09 TokenSlimmer: deterministic prompt compression (safe / balanced / aggressive) with token
 * counts from the shared BPE tokenizer. No state: the tables compile at module load.
 */
import type { ServiceFactory, ServiceModule, ServiceDeps } from '../types.ts';
import { SLIM_TASK, tokenSlimmerRoute } from './route.ts';

export { compressText, LEVELS, type Level } from './core.ts';
export { checkRetention } from './retention.ts';
export { slimPrompt, type SlimInput, type SlimResult } from './slim.ts';
export { TOKENSLIMMER_LABEL } from './route.ts';

/**
 * Prompts up to this many characters are compressed on the event loop; longer ones on the pool.
 * Measured with bench/micro/tokenslimmer.ts: the cost grows linearly (about 1.5-3.5x the cost of
 * counting the prompt's tokens twice); 10 KB stays inline (no hop, lowest latency: with 10 KB on
 * the one-thread pool, server p99 at 50 connections rose from ~2.5 ms to over a second, see
 * BENCHMARKS.md), while from 16 KiB on one request would hold the event loop for several
 * milliseconds, which the pool's ~0.1 ms hop (bench/micro/pool-hop.ts) easily pays for.
 */
export const INLINE_MAX_CHARS = 16 * 1024;

export function createTokenSlimmerService(deps: ServiceDeps, options: { inlineMaxChars?: number } = {}): ServiceModule {
  const inlineMaxChars = options.inlineMaxChars ?? INLINE_MAX_CHARS;
  if (!Number.isInteger(inlineMaxChars) || inlineMaxChars < 0) throw new RangeError('inlineMaxChars must be an integer >= 0');
  return {
    id: 'API-09',
    routes: [tokenSlimmerRoute({ pool: deps.pool, inlineMaxChars })],
    health: () => 'up',
    // Every worker loads the phrase tables and the tokenizer ranks before the first long prompt.
    warmup: () => deps.pool.warm(SLIM_TASK, { prompt: 'Could you please warm up, you know, the tokenizer?', level: 'aggressive' }),
  };
}

export const tokenSlimmerFactory: ServiceFactory = (deps) => createTokenSlimmerService(deps);
