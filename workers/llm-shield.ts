/** Worker entry for API-08: inputs above INLINE_MAX_CHARS are screened here, off the event loop. */
import { workerTask } from '../src/pool/worker-task.ts';
import { createShield } from '../src/services/llm-shield/core.ts';
import type { ScreenTask } from '../src/services/llm-shield/route.ts';

// One compiled shield per worker thread (RE2 programs, lexicon and model weights are read-only after boot).
const shield = createShield();

export const screen = workerTask((task: ScreenTask | string) => (typeof task === 'string' ? shield.screen(task) : shield.screen(task.text, task.origin)));
