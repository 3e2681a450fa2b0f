/**
 * Composition: config -> pool -> services -> server. The only place that wires things; `main.ts`
 * is the process entry around it (config from env, signals, exit codes) and tests call
 * `startGateway` directly, so one process can run two independent gateways.
 */
import { readFileSync } from 'node:fs';
import { createAuth, type AuthOptions } from './auth/index.ts';
import type { DestinationStream } from 'pino';
import type { Config } from './config.ts';
import { createLogger, createRequestLog, safeStack, type Logger } from './observability/logger.ts';
import { createMetrics } from './observability/metrics.ts';
import { WorkerPool } from './pool/worker-pool.ts';
import { buildOpenApiDocument, type ResponseExamples } from './schema/openapi.ts';
import { createHttpServer, type HttpServer } from './server/http-server.ts';
import { OPEN_GATEKEEPER, type Gatekeeper, type AnyRoute, type ServiceId } from './server/types.ts';
import { loadUws } from './server/uws.ts';
import { healthRoute } from './services/health/route.ts';
import { SERVICE_FACTORIES } from './services/index.ts';
import { docsRoutes } from './services/meta/docs.ts';
import { metricsRoute, openApiRoute } from './services/meta/route.ts';
import type { ServiceFactory, ServiceHealth, ServiceModule } from './services/types.ts';
import { createStateBackend, type StateBackend, type StateOptions } from './state/index.ts';

export const VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
/** Real responses for the OpenAPI document (captured by `npm run gen:examples`). */
const EXAMPLES = JSON.parse(readFileSync(new URL('./schema/examples.json', import.meta.url), 'utf8')) as ResponseExamples;

export interface GatewayOptions {
  /** Log sink (tests capture lines here); default stdout. */
  readonly logDestination?: DestinationStream;
  /** Override the services (tests); default SERVICE_FACTORIES. */
  readonly factories?: readonly ServiceFactory[];
  /** Override the keys/quota gatekeeper (tests); default from config. */
  readonly gatekeeper?: Gatekeeper;
  /** Keys/quota options (tests inject a clock, a snapshot interval or a shared usage store). */
  readonly auth?: AuthOptions;
  /** Shared-state options (tests give each run its own Redis key prefix). */
  readonly state?: StateOptions;
  /** Run the services' warm-up steps before listening (default true; tests turn it off for speed). */
  readonly warmup?: boolean;
}

export interface Gateway {
  readonly port: number;
  readonly config: Config;
  readonly server: HttpServer;
  readonly pool: WorkerPool;
  readonly logger: Logger;
  readonly routes: readonly AnyRoute[];
  readonly openapi: Record<string, unknown>;
  /** STATE_BACKEND: memory, or the Redis connection and stores. */
  readonly state: StateBackend;
  /** Stops accepting, drains in-flight requests (SHUTDOWN_TIMEOUT_MS), closes services and the pool. */
  close(): Promise<void>;
}

export async function startGateway(config: Config, options: GatewayOptions = {}): Promise<Gateway> {
  const startedAt = performance.now();
  const logger = createLogger(config.logLevel, options.logDestination);
  const runtime = loadUws();
  const pool = new WorkerPool({ threads: config.workerThreads, maxQueue: config.workerQueueMax });
  const metrics = createMetrics({ poolStats: () => pool.stats(), poolUtilization: () => pool.utilization(), uwsNative: runtime.native });

  let state: StateBackend | undefined;
  const modules: ServiceModule[] = [];
  let auth: ReturnType<typeof createAuth>;
  try {
    // STATE_BACKEND=redis: connect first; an unreachable Redis stops the boot with a clear message.
    state = await createStateBackend(config, logger, options.state);
    for (const factory of options.factories ?? SERVICE_FACTORIES) {
      modules.push(await factory({ config, pool, logger, registry: metrics.registry, state }));
    }
    // AUTH_MODE=off: no gatekeeper (OPEN_GATEKEEPER below); else keys, quotas and /v1/usage.
    const shared = state.usageStore === null ? {} : { usageStore: state.usageStore, rateLimiter: state.rateLimiter ?? undefined };
    auth = createAuth({ config, logger, registry: metrics.registry }, { ...shared, ...options.auth });
  } catch (err) {
    // A failed boot leaves nothing running: what was built is closed in reverse order.
    await Promise.allSettled(modules.map((m) => m.close?.()));
    await state?.close();
    await pool.close();
    metrics.close();
    throw err;
  }

  if (options.warmup !== false) {
    const started = performance.now();
    // Ready means ready: /v1/health answers only after every worker has loaded its modules.
    const results = await Promise.allSettled(modules.map((m) => m.warmup?.()));
    for (const r of results) if (r.status === 'rejected') logger.warn({ err: safeStack(r.reason) }, 'service warm-up failed; it will load on first use');
    logger.debug({ ms: Math.round(performance.now() - started) }, 'services warmed up');
  }

  let openapi: Record<string, unknown> = {};
  const routes: AnyRoute[] = [
    healthRoute({
      version: VERSION,
      startedAt,
      uwsNative: runtime.native,
      fetchAllowPrivate: config.fetch.allowPrivate,
      workers: () => pool.stats(),
      services: () => {
        const out: Partial<Record<ServiceId, ServiceHealth>> = {};
        for (const m of modules) if (m.id !== undefined) out[m.id] = m.health?.() ?? 'up';
        return out;
      },
    }),
    openApiRoute(() => openapi),
    ...docsRoutes(),
    metricsRoute(metrics.registry),
    ...auth.routes,
    ...modules.flatMap((m) => m.routes),
  ];
  openapi = buildOpenApiDocument(routes, {
    title: 'LLM & payments gateway',
    version: VERSION,
    description: 'Web-to-Markdown, semantic cache, LLM shield, prompt compression, consensus/lock arbiter and SEPA Verification of Payee.',
  }, EXAMPLES);

  const logRequest = createRequestLog(logger);
  const server = createHttpServer({
    routes,
    maxBodyBytes: config.maxBodyBytes,
    bodyTimeoutMs: config.bodyTimeoutMs,
    corsOrigins: config.corsOrigins,
    trustProxy: config.trustProxy,
    gatekeeper: options.gatekeeper ?? auth.gatekeeper ?? OPEN_GATEKEEPER,
    uws: runtime,
    onResponse: (info) => {
      metrics.observe(info);
      logRequest(info);
    },
  });
  const port = await server.listen(config.host, config.port);
  if (!runtime.native) {
    logger.warn(
      { node: process.version },
      'uWebSockets.js is running on its pure-JS FALLBACK (no native binary for this Node version): throughput will be far lower. Use Node 20.',
    );
  }

  let closing: Promise<void> | null = null;
  return {
    port,
    config,
    server,
    pool,
    logger,
    routes,
    openapi,
    state,
    close() {
      closing ??= (async () => {
        const drained = await server.close(config.shutdownTimeoutMs);
        if (!drained) logger.warn({ inFlight: server.inFlight }, 'shutdown timeout: in-flight requests abandoned');
        await Promise.allSettled(modules.map((m) => m.close?.()));
        // After the drain: the final usage snapshot includes every settled request.
        await auth.close().catch((err: unknown) => logger.error({ err: err instanceof Error ? err.name : typeof err }, 'closing keys/quotas failed'));
        await state.close().catch((err: unknown) => logger.error({ err: err instanceof Error ? err.name : typeof err }, 'closing the state backend failed'));
        await pool.close();
        metrics.close();
        logger.flush();
      })();
      return closing;
    },
  };
}
