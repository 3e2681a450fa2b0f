/** The health body for the baselines: the gateway's own health handler with the same sources. */
import { healthRoute } from '../../src/services/health/route.ts';

const route = healthRoute({
  version: '1.0.0',
  startedAt: performance.now(),
  uwsNative: true,
  fetchAllowPrivate: false,
  workers: () => ({ threads: 1, queued: 0 }),
  services: () => ({}),
});

export function health(): unknown {
  return { success: true, api: route.api, ...(route.handler({} as never) as Record<string, unknown>) };
}
