/** Worker entry for API-08: inputs above INLINE_MAX_CHARS are screened here, off the event loop. */
import { workerTask } from '../src/pool/worker-task.ts';
import { createShield } from '../src/services/llm-shield/core.ts';

// One compiled shield per worker thread (RE2 programs and the lexicon are read-only after boot).
const shield = createShield();

export const screen = workerTask((input: string) => shield.screen(input));
