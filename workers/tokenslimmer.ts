/** Worker entry for API-09: long prompts are compressed and counted here, off the event loop. */
import { workerTask } from '../src/pool/worker-task.ts';
import { slimPrompt, type SlimInput } from '../src/services/tokenslimmer/slim.ts';

export const slim = workerTask((input: SlimInput) => slimPrompt(input));
