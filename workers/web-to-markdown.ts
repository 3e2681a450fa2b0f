/**
 * Worker entry for API-01: HTML -> Markdown runs here, off the event loop.
 *
 * - `extract`: the handler's input. With `estimate` (the buffer of split-estimate.ts) the HTML
 *   token estimate is shared with the event loop: the worker extracts first, then scans the chunks
 *   the event loop has not claimed, and returns the body only (the event loop adds the estimate).
 *   Without it the whole result is computed here.
 * - `extractRaw`: the early start (route.ts): the raw request body, parsed here while the event
 *   loop parses and validates its own copy; null when there is no `html` or the body is refused.
 */
import { workerTask } from '../src/pool/worker-task.ts';
import { extractBody, extractMarkdown, type ExtractedBody, type ExtractInput, type ExtractResult } from '../src/services/web-to-markdown/core.ts';
import { inputFromRawBody } from '../src/services/web-to-markdown/raw-input.ts';
import { finishInWorker } from '../src/services/web-to-markdown/split-estimate.ts';

export type ExtractTaskInput = ExtractInput & { readonly estimate?: SharedArrayBuffer };

export const extract = workerTask((input: ExtractTaskInput): ExtractedBody | ExtractResult => {
  if (input.estimate === undefined) return extractMarkdown(input);
  const body = extractBody(input);
  finishInWorker(input.estimate, input.html);
  return body;
});

export const extractRaw = workerTask((raw: Uint8Array): ExtractedBody | null => {
  const input = inputFromRawBody(raw);
  return input === null ? null : extractBody(input);
});
