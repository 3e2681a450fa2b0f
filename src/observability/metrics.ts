/**
 * Prometheus metrics (prom-client), one Registry per gateway so two gateways in one process do
 * not share counters. Labels are route labels (a route's canonical path), methods, status codes
 * and plan names: never user data, keys or tenant ids.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import client from 'prom-client';
import type { PoolStats } from '../pool/worker-pool.ts';
import type { ResponseInfo } from '../server/http-server.ts';

/** Latency buckets in seconds: the services answer in tens of microseconds to tens of ms. */
/** Any other method is labelled OTHER: a client must not be able to mint label values. */
const KNOWN_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);
const LATENCY_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface GatewayMetrics {
  readonly registry: client.Registry;
  observe(info: ResponseInfo): void;
  close(): void;
}

export function createMetrics(sources: { poolStats: () => PoolStats; poolUtilization: () => number; uwsNative: boolean }): GatewayMetrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: 'gateway_' });
  const requests = new client.Counter({
    name: 'gateway_http_requests_total',
    help: 'HTTP requests by route label, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const duration = new client.Histogram({
    name: 'gateway_http_request_duration_seconds',
    help: 'Server-side request latency by route label',
    labelNames: ['route'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  new client.Gauge({
    name: 'gateway_worker_pool_threads',
    help: 'Worker threads in the pool',
    registers: [registry],
    collect() {
      this.set(sources.poolStats().threads);
    },
  });
  new client.Gauge({
    name: 'gateway_worker_pool_queue_length',
    help: 'Tasks waiting for a worker',
    registers: [registry],
    collect() {
      this.set(sources.poolStats().queued);
    },
  });
  new client.Gauge({
    name: 'gateway_worker_pool_utilization',
    help: 'Approximate share of time the workers were busy (0-1)',
    registers: [registry],
    collect() {
      this.set(sources.poolUtilization());
    },
  });
  const loop: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  new client.Gauge({
    name: 'gateway_event_loop_delay_seconds',
    help: 'Event-loop delay since the previous scrape, by quantile',
    labelNames: ['quantile'] as const,
    registers: [registry],
    collect() {
      for (const q of [50, 90, 99]) this.set({ quantile: String(q / 100) }, loop.percentile(q) / 1e9);
      this.set({ quantile: '1' }, loop.max / 1e9);
      loop.reset();
    },
  });
  new client.Gauge({
    name: 'gateway_uws_native',
    help: '1 when the native uWebSockets.js addon serves, 0 on the slow pure-JS fallback',
    registers: [registry],
    collect() {
      this.set(sources.uwsNative ? 1 : 0);
    },
  });

  // Children cached per label set: prom-client hashes labels on every call otherwise.
  const counterChildren = new Map<string, client.Counter.Internal>();
  const histogramChildren = new Map<string, client.Histogram.Internal<'route'>>();
  return {
    registry,
    observe(info) {
      const method = KNOWN_METHODS.has(info.method) ? info.method : 'OTHER';
      const key = `${info.route}\u0000${method}\u0000${info.status}`;
      let c = counterChildren.get(key);
      if (c === undefined) {
        c = requests.labels(info.route, method, String(info.status));
        counterChildren.set(key, c);
      }
      c.inc();
      let h = histogramChildren.get(info.route);
      if (h === undefined) {
        h = duration.labels(info.route);
        histogramChildren.set(info.route, h);
      }
      h.observe(info.durationMs / 1000);
    },
    close() {
      loop.disable();
      registry.clear();
    },
  };
}
