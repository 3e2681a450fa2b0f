/**
 * Prometheus metrics (prom-client), one Registry per gateway so two gateways in one process do
 * not share counters. Labels are route labels (a route's canonical path), methods, status codes
 * and plan names: never user data, keys or tenant ids.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import client from 'prom-client';
import type { PoolStats } from '../pool/worker-pool.ts';
import type { ResponseInfo } from '../server/http-server.ts';
import { RequestMetrics } from './request-metrics.ts';


export interface GatewayMetrics {
  readonly registry: client.Registry;
  observe(info: ResponseInfo): void;
  close(): void;
}

export function createMetrics(sources: { poolStats: () => PoolStats; poolUtilization: () => number; uwsNative: boolean }): GatewayMetrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: 'gateway_' });
  const requests = new RequestMetrics();
  requests.register(registry);
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
  // The histogram samples a timer every RESOLUTION ms and records when it fired, so an idle loop
  // reads ~RESOLUTION: the gauge reports the delay beyond it.
  const RESOLUTION_MS = 10;
  const loop: IntervalHistogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  const beyond = (ns: number): number => Math.max(0, ns / 1e9 - RESOLUTION_MS / 1000);
  loop.enable();
  new client.Gauge({
    name: 'gateway_event_loop_delay_seconds',
    help: 'Event-loop delay since the previous scrape, by quantile',
    labelNames: ['quantile'] as const,
    registers: [registry],
    collect() {
      for (const q of [50, 90, 99]) this.set({ quantile: String(q / 100) }, beyond(loop.percentile(q)));
      this.set({ quantile: '1' }, beyond(loop.max));
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

  return {
    registry,
    observe(info) {
      requests.observe(info.route, info.method, info.status, info.durationMs / 1000);
    },
    close() {
      loop.disable();
      registry.clear();
    },
  };
}
