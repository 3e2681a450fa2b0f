/**
 * API-01 request bodies into extraction inputs, for both sides of the early start (route.ts
 * `early`): the handler on the event loop, and a worker that was handed the body as it came off
 * the socket. The worker turns the raw bytes into the handler's input the same way the gateway
 * does (parseJsonObject, the route's schema, then requestUrl), so both sides see the same page.
 * Anything the gateway would refuse gives null on the worker: the gateway answers with its own
 * error then and drops the worker's result, so that answer never depends on this side.
 */
import { createError } from '../../errors.ts';
import { parseJsonObject } from '../../server/body.ts';
import { compileValidator } from '../../schema/validator.ts';
import type { ExtractInput } from './core.ts';
import { ExtractRequest } from './schema.ts';

/** The request's `url`, parsed (the schema only checks its scheme); VALIDATION_FAILED otherwise. */
export function requestUrl(body: ExtractRequest): URL {
  try {
    return new URL(body.url);
  } catch {
    throw createError('VALIDATION_FAILED', 'Request body failed validation', { details: [{ path: '/url', message: 'Expected an absolute http(s) URL' }] });
  }
}

/** The extraction input of a validated body that carries `html` (nothing to fetch). */
export function htmlInput(body: ExtractRequest & { html: string }, url: URL): ExtractInput {
  return { html: body.html, url: url.href, includeLinks: body.include_links ?? true };
}

let validate: ReturnType<typeof compileValidator> | null = null;

/** The extraction input of a raw request body, or null when it has no `html` or the gateway refuses it. */
export function inputFromRawBody(raw: Uint8Array): ExtractInput | null {
  validate ??= compileValidator(ExtractRequest);
  try {
    const body = parseJsonObject(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength));
    validate(body);
    const request = body as ExtractRequest;
    if (request.html === undefined) return null;
    return htmlInput(request as ExtractRequest & { html: string }, requestUrl(request));
  } catch {
    return null;
  }
}
