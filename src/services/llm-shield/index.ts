/**
 * API-08 factory: compiles the shield (RE2 patterns, lexicon) once at boot and binds the route.
 * The worker module compiles its own copy per thread (workers/llm-shield.ts).
 */
import type { ServiceFactory } from '../types.ts';
import { createShield } from './core.ts';
import { SCREEN_TASK, shieldRoute } from './route.ts';

export { createShield, type Shield, type Verdict } from './core.ts';
export { SHIELD_LABEL, INLINE_MAX_CHARS } from './route.ts';

export const llmShieldFactory: ServiceFactory = (deps) => {
  const shield = createShield();
  return {
    id: 'API-08',
    routes: [shieldRoute(shield, deps.pool)],
    health: () => 'up',
    // Every worker compiles its own rule set (RE2, lexicon) before the first large input arrives.
    warmup: () => deps.pool.warm(SCREEN_TASK, 'warm up the shield'),
  };
};
