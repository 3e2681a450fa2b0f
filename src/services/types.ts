/**
 * How a service plugs into the gateway. Each service folder exports a factory; `src/services/index.ts`
 * lists them and `src/gateway.ts` builds them with their dependencies at boot.
 */
import type { Config } from '../config.ts';
import type { Logger } from '../observability/logger.ts';
import type client from 'prom-client';
import type { WorkerPool } from '../pool/worker-pool.ts';
import type { AnyRoute, ServiceId } from '../server/types.ts';
import type { StateBackend } from '../state/index.ts';

export type ServiceHealth = 'up' | 'degraded' | 'down';

export interface ServiceModule {
  /** The contract's service id; `undefined` for gateway parts that only add routes (usage, keys). */
  readonly id?: ServiceId;
  readonly routes: readonly AnyRoute[];
  health?(): ServiceHealth;
  /**
   * Optional boot step run before the gateway listens (skipped by tests): e.g. make every worker
   * thread load this service's module, so the first request does not pay ~1 s of module loading.
   */
  warmup?(): Promise<void>;
  close?(): Promise<void> | void;
}

export interface ServiceDeps {
  readonly config: Config;
  readonly pool: WorkerPool;
  readonly logger: Logger;
  /** The gateway's own Prometheus registry (labels: never user data). */
  readonly registry: client.Registry;
  /** STATE_BACKEND: with `redis`, services build their Redis stores on `state.redis`. Absent in tests that build deps by hand. */
  readonly state?: StateBackend;
}

export type ServiceFactory = (deps: ServiceDeps) => ServiceModule | Promise<ServiceModule>;
