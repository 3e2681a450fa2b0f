/** POST /v1/api/08-llm-shield-guard: screens `input_text`; long inputs run on the worker pool. */
import { createError } from '../../errors.ts';
import { taskRef, type WorkerPool } from '../../pool/worker-pool.ts';
import type { RouteDef } from '../../server/types.ts';
import type { Shield, Verdict } from './core.ts';
import type { Origin } from './types.ts';
import { MAX_INPUT_BYTES, ShieldRequest, ShieldResponse } from './schema.ts';

export const SHIELD_LABEL = '[API-08] LLM Shield Guard';

/**
 * Inputs longer than this (UTF-16 code units) are screened on a worker. Measured: ~0.2-0.3 ms per
 * KiB on one core, so 4 KiB is about the 1 ms where a ~0.1 ms pool hop starts to pay off
 * (docs/api-08-llm-shield.md, bench/micro/llm-shield.ts).
 */
export const INLINE_MAX_CHARS = 4096;

export const SCREEN_TASK = taskRef(new URL('../../../workers/llm-shield.ts', import.meta.url), 'screen');

/** What the route hands the worker (workers/llm-shield.ts). */
export interface ScreenTask {
  readonly text: string;
  readonly origin: Origin;
}

export function shieldRoute(shield: Shield, pool: WorkerPool, inlineMaxChars = INLINE_MAX_CHARS): RouteDef<typeof ShieldRequest> {
  return {
    method: 'POST',
    paths: ['/v1/api/08-llm-shield-guard'],
    api: SHIELD_LABEL,
    service: 'API-08',
    summary: 'Screen text for prompt injection, jailbreaks, exfiltration, SSRF targets, secrets and PII',
    description:
      'Normalises the text (NFKC, homoglyphs, leetspeak, spaced letters, invisible characters), decodes embedded base64/hex/URL/' +
      'HTML-entity/ROT13 payloads, runs linear-time rule families and a learned linear classifier over hashed n-grams; with ' +
      '`origin: "external"` it screens retrieved content for instructions planted for the model. A detected threat is a 200 with `action` BLOCKED; PII and ' +
      'secrets alone give REDACTED with `sanitized_text` carrying typed placeholders.',
    tags: ['API-08'],
    body: ShieldRequest,
    response: ShieldResponse,
    handler: async (ctx) => {
      const text = ctx.body.input_text;
      if (text.length > MAX_INPUT_BYTES / 3 && Buffer.byteLength(text, 'utf8') > MAX_INPUT_BYTES) {
        throw createError('VALIDATION_FAILED', 'Request body failed validation', {
          details: [{ path: '/input_text', message: `must be at most ${MAX_INPUT_BYTES} bytes of UTF-8` }],
        });
      }
      const origin: Origin = ctx.body.origin ?? 'user';
      const verdict: Verdict =
        text.length > inlineMaxChars ? await pool.run<Verdict>(SCREEN_TASK, { text, origin } satisfies ScreenTask, ctx.signal) : shield.screen(text, origin);
      return verdict as unknown as Record<string, unknown>;
    },
  };
}
