/**
 * HTTP binding of API-09: POST /v1/auto and /v1/api/09-tokenslimmer. Prompts up to
 * `inlineMaxChars` run on the event loop (compression + two token counts stay well under a
 * millisecond there, cheaper than the pool hop); longer ones run on the worker pool.
 */
import { createError } from '../../errors.ts';
import { taskRef, type WorkerPool } from '../../pool/worker-pool.ts';
import type { RouteDef } from '../../server/types.ts';
import { MAX_PROMPT_BYTES, SlimRequest, SlimResponse } from './schema.ts';
import { slimPrompt, type SlimInput, type SlimResult } from './slim.ts';

export const TOKENSLIMMER_LABEL = '[API-09] TokenSlimmer';

export const SLIM_TASK = taskRef(new URL('../../../workers/tokenslimmer.ts', import.meta.url), 'slim');

export interface TokenSlimmerRouteOptions {
  readonly pool: WorkerPool;
  /** Prompts longer than this (characters) go to the pool. */
  readonly inlineMaxChars: number;
}

export function tokenSlimmerRoute(options: TokenSlimmerRouteOptions): RouteDef<typeof SlimRequest> {
  const { pool, inlineMaxChars } = options;
  return {
    method: 'POST',
    paths: ['/v1/auto', '/v1/api/09-tokenslimmer'],
    api: TOKENSLIMMER_LABEL,
    service: 'API-09',
    summary: 'Compress a prompt deterministically; token counts measured with a real BPE tokenizer',
    description:
      'Numbers, URLs, e-mails, quoted strings, code and identifiers survive byte for byte in every level, negations are never removed, and in safe and balanced every content word survives. Idempotent: compressing compressed_content again returns UNCHANGED.',
    tags: ['API-09'],
    body: SlimRequest,
    response: SlimResponse,
    handler: async (ctx) => {
      const { prompt, level, encoding } = ctx.body;
      if (prompt.length > MAX_PROMPT_BYTES / 3 && Buffer.byteLength(prompt, 'utf8') > MAX_PROMPT_BYTES) {
        throw createError('VALIDATION_FAILED', 'Request body failed validation', { details: [{ path: '/prompt', message: `Expected at most ${MAX_PROMPT_BYTES} bytes of UTF-8` }] });
      }
      const input: SlimInput = { prompt, ...(level ? { level } : {}), ...(encoding ? { encoding } : {}) };
      const result = prompt.length <= inlineMaxChars ? slimPrompt(input) : await pool.run<SlimResult>(SLIM_TASK, input, ctx.signal);
      return { ...result };
    },
  };
}
