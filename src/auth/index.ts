/**
 * Keys, plans and quotas (CONTRACT.md §4), assembled for the gateway: the key store watching
 * API_KEYS_FILE, the usage store restored from and snapshotted to DATA_DIR, the burst limiter,
 * the gatekeeper and the /v1/usage route. With AUTH_MODE=off none of it runs: the gateway uses
 * OPEN_GATEKEEPER and /v1/usage answers 401.
 */
import path from 'node:path';
import type client from 'prom-client';
import type { Config } from '../config.ts';
import type { Logger } from '../observability/logger.ts';
import type { Gatekeeper, RouteDef } from '../server/types.ts';
import { createAuthMetrics } from './auth-metrics.ts';
import { QuotaGatekeeper, type BurstLimiter } from './gatekeeper.ts';
import { KeyStore } from './key-store.ts';
import { TokenBucketLimiter } from './rate-limiter.ts';
import { lockSnapshot, restoreUsage, SnapshotWriter } from './usage-snapshot.ts';
import { MemoryUsageStore, type UsageStore } from './usage-store.ts';
import { usageRoute } from './usage-route.ts';

export { QuotaGatekeeper } from './gatekeeper.ts';
export { MemoryUsageStore, type UsageStore, type UsageCharge, type TakeResult } from './usage-store.ts';

export interface AuthOptions {
  /** Wall clock (epoch ms) for month boundaries; tests inject one. Default Date.now. */
  readonly now?: () => number;
  /** Monotonic clock (ms) for the burst limiter. Default performance.now. */
  readonly monotonic?: () => number;
  /** How often changed counts are written to DATA_DIR (ms). Default 2000. */
  readonly snapshotIntervalMs?: number;
  /** A shared store (e.g. Redis); when given, nothing is snapshotted locally. */
  readonly usageStore?: UsageStore;
  /** A shared burst limiter (e.g. Redis); default an in-process token bucket. */
  readonly rateLimiter?: BurstLimiter;
}

export interface AuthModule {
  /** null when AUTH_MODE=off. */
  readonly gatekeeper: Gatekeeper | null;
  readonly routes: readonly RouteDef[];
  /** Stops watching, writes the final snapshot. */
  close(): Promise<void>;
}

/** File that holds the usage counts under DATA_DIR. */
export function usageSnapshotFile(config: Config): string {
  return path.join(config.dataDir, 'usage.snapshot');
}

export function createAuth(deps: { config: Config; logger: Logger; registry: client.Registry }, options: AuthOptions = {}): AuthModule {
  const { config, logger } = deps;
  if (config.authMode === 'off') return { gatekeeper: null, routes: [usageRoute(null)], close: async () => undefined };

  const metrics = createAuthMetrics(deps.registry);
  const keys = new KeyStore({ file: config.apiKeysFile, logger, onLoad: (n) => metrics.activeKeys(n) });
  keys.start();
  if (keys.size === 0) logger.warn({ keysFile: config.apiKeysFile, authMode: config.authMode }, 'no API keys loaded yet: create one with `npm run keys -- create --tenant T --plan P`');

  let usage: UsageStore;
  let writer: SnapshotWriter | null = null;
  let unlock: (() => void) | null = null;
  if (options.usageStore !== undefined) {
    usage = options.usageStore;
  } else {
    const memory = new MemoryUsageStore();
    const file = usageSnapshotFile(config);
    let restored;
    try {
      unlock = lockSnapshot(file);
      restored = restoreUsage(file, memory, logger);
    } catch (err) {
      unlock?.();
      keys.close();
      throw err;
    }
    // Restored from `.prev`: rewrite the current file at the first tick.
    const dirty = restored.source === 'previous';
    writer = new SnapshotWriter({ file, store: memory, intervalMs: options.snapshotIntervalMs, logger, dirty, onWrite: (ok) => metrics.snapshotWrite(ok) });
    usage = memory;
  }

  const gatekeeper = new QuotaGatekeeper({
    mode: config.authMode,
    keys,
    usage,
    limiter: options.rateLimiter ?? new TokenBucketLimiter(options.monotonic),
    rateLimit: config.rateLimit,
    trustProxy: config.trustProxy,
    failMode: config.state.quotaFailMode,
    now: options.now,
    metrics,
    logger,
  });

  let closing: Promise<void> | null = null;
  return {
    gatekeeper,
    routes: [usageRoute(gatekeeper)],
    close() {
      closing ??= (async () => {
        keys.close();
        await writer?.close();
        await usage.close();
        unlock?.();
      })();
      return closing;
    },
  };
}
