/**
 * Worker entry for API-01: HTML -> Markdown runs here, off the event loop. With `estimate` (the
 * buffer of split-estimate.ts) the HTML token estimate is shared with the event loop: the worker
 * extracts first, then scans the chunks the event loop has not claimed, and returns the body only
 * (the event loop adds the estimate). Without it the whole result is computed here.
 */
import { workerTask } from '../src/pool/worker-task.ts';
import { extractBody, extractMarkdown, type ExtractedBody, type ExtractInput, type ExtractResult } from '../src/services/web-to-markdown/core.ts';
import { finishInWorker } from '../src/services/web-to-markdown/split-estimate.ts';

export type ExtractTaskInput = ExtractInput & { readonly estimate?: SharedArrayBuffer };

export const extract = workerTask((input: ExtractTaskInput): ExtractedBody | ExtractResult => {
  if (input.estimate === undefined) return extractMarkdown(input);
  const body = extractBody(input);
  finishInWorker(input.estimate, input.html);
  return body;
});
