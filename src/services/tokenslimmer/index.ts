/**
 * API-09 TokenSlimmer: deterministic prompt compression (safe / balanced / aggressive) with token
 * counts from the shared BPE tokenizer. No state: the tables compile at module load.
 */
import type { ServiceFactory, ServiceModule, ServiceDeps } from '../types.ts';
import { tokenSlimmerRoute } from './route.ts';

export { compressText, LEVELS, type Level } from './core.ts';
export { checkRetention } from './retention.ts';
export { slimPrompt, type SlimInput, type SlimResult } from './slim.ts';
export { TOKENSLIMMER_LABEL } from './route.ts';

/**
 * Prompts up to this many characters are compressed on the event loop; longer ones on the pool.
 * Measured (bench/micro/tokenslimmer.ts): 8 KiB takes ~1 ms inline end to end, about ten pool
 * hops; beyond it the event loop would stall other requests for milliseconds.
 */
export const INLINE_MAX_CHARS = 8 * 1024;

export function createTokenSlimmerService(deps: ServiceDeps, options: { inlineMaxChars?: number } = {}): ServiceModule {
  const inlineMaxChars = options.inlineMaxChars ?? INLINE_MAX_CHARS;
  if (!Number.isInteger(inlineMaxChars) || inlineMaxChars < 0) throw new RangeError('inlineMaxChars must be an integer >= 0');
  return { id: 'API-09', routes: [tokenSlimmerRoute({ pool: deps.pool, inlineMaxChars })], health: () => 'up' };
}

export const tokenSlimmerFactory: ServiceFactory = (deps) => createTokenSlimmerService(deps);
