/** Worker entry for API-01: HTML -> Markdown runs here, off the event loop. */
import { workerTask } from '../src/pool/worker-task.ts';
import { extractMarkdown, type ExtractInput } from '../src/services/web-to-markdown/core.ts';

export const extract = workerTask((input: ExtractInput) => extractMarkdown(input));
