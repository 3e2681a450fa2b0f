/**
 * Loads uWebSockets.js and tells whether the native addon loaded. The npm republish we use
 * (`@trufflesuite/uws-js-unofficial@20.30.0`) ships binaries for Node ABI 93/108/115 (Node 16-20);
 * on other Node versions it silently falls back to a slow pure-JS server. We detect that here so
 * the boot log warns loudly and /v1/health reports it.
 */
import { createRequire } from 'node:module';
import type * as Uws from 'uWebSockets.js';

const require = createRequire(import.meta.url);

export type UwsModule = typeof Uws;

export interface UwsRuntime {
  readonly uws: UwsModule;
  /** true when the native addon is serving; false on the pure-JS fallback. */
  readonly native: boolean;
}

let cached: UwsRuntime | undefined;

export function loadUws(): UwsRuntime {
  // The module object is process-wide by nature (require cache); caching the probe is not state.
  if (cached) return cached;
  const uws = require('uWebSockets.js') as UwsModule & { SSLApp?: unknown };
  // The pure-JS fallback (dist/index.js) exports only App and two helpers; the addon has SSLApp.
  const native = typeof uws.SSLApp === 'function';
  cached = Object.freeze({ uws, native });
  return cached;
}
