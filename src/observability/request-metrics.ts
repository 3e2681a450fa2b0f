/**
 * Per-request metrics without per-request allocation. prom-client's labelled children hash their
 * label set on every inc()/observe() (~7% of the health route's throughput in a wrk run); here the
 * hot path is two Map lookups, an integer key and a few array writes, and the Prometheus series
 * are built only when /metrics is scraped.
 *
 *   routes: Map<route label, RouteSeries>
 *     RouteSeries
 *       counts:  Map<status * 16 + methodIndex, n>      -> gateway_http_requests_total{route,method,status}
 *       buckets: Float64Array(LATENCY_BUCKETS.length)    non-cumulative; made cumulative at scrape
 *       sum, count                                       -> gateway_http_request_duration_seconds_{sum,count}
 *
 * Route labels come from the route table (or `unmatched`), methods from a fixed list (others are
 * OTHER), statuses are integers: a client can never mint a label value.
 */
import type client from 'prom-client';

export const LATENCY_BUCKETS: readonly number[] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'OTHER'] as const;
const METHOD_INDEX = new Map<string, number>(METHODS.map((m, i) => [m, i]));
const OTHER = METHODS.length - 1;

class RouteSeries {
  readonly counts = new Map<number, number>();
  readonly buckets = new Float64Array(LATENCY_BUCKETS.length);
  sum = 0;
  count = 0;
}

interface MetricValue {
  value: number;
  labels: Record<string, string | number>;
  metricName?: string;
}

export class RequestMetrics {
  readonly #routes = new Map<string, RouteSeries>();

  /** Records one finished request: `seconds` of server time. */
  observe(route: string, method: string, status: number, seconds: number): void {
    let series = this.#routes.get(route);
    if (series === undefined) {
      series = new RouteSeries();
      this.#routes.set(route, series);
    }
    const key = status * 16 + (METHOD_INDEX.get(method) ?? OTHER);
    series.counts.set(key, (series.counts.get(key) ?? 0) + 1);
    let i = 0;
    while (i < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[i]!) i++;
    if (i < LATENCY_BUCKETS.length) series.buckets[i]!++;
    series.sum += seconds;
    series.count++;
  }

  /** Registers the two metrics in `registry` (prom-client calls `get()` on every scrape). */
  register(registry: client.Registry): void {
    const routes = this.#routes;
    const counter = {
      name: 'gateway_http_requests_total',
      help: 'HTTP requests by route label, method and status',
      type: 'counter',
      aggregator: 'sum',
      get: async () => {
        const values: MetricValue[] = [];
        for (const [route, s] of routes) {
          for (const [key, n] of s.counts) values.push({ value: n, labels: { route, method: METHODS[key % 16]!, status: Math.floor(key / 16) } });
        }
        return { name: counter.name, help: counter.help, type: counter.type, aggregator: counter.aggregator, values };
      },
      reset: () => routes.clear(),
    };
    const histogram = {
      name: 'gateway_http_request_duration_seconds',
      help: 'Server-side request latency by route label',
      type: 'histogram',
      aggregator: 'sum',
      get: async () => {
        const values: MetricValue[] = [];
        for (const [route, s] of routes) {
          let cumulative = 0;
          LATENCY_BUCKETS.forEach((le, i) => {
            cumulative += s.buckets[i]!;
            values.push({ value: cumulative, labels: { le, route }, metricName: `${histogram.name}_bucket` });
          });
          values.push({ value: s.count, labels: { le: '+Inf', route }, metricName: `${histogram.name}_bucket` });
          values.push({ value: s.sum, labels: { route }, metricName: `${histogram.name}_sum` });
          values.push({ value: s.count, labels: { route }, metricName: `${histogram.name}_count` });
        }
        return { name: histogram.name, help: histogram.help, type: histogram.type, aggregator: histogram.aggregator, values };
      },
      reset: () => routes.clear(),
    };
    // prom-client accepts any object with name/help/type/get() as a metric (its own collectors do the same).
    registry.registerMetric(counter as unknown as client.Metric);
    registry.registerMetric(histogram as unknown as client.Metric);
  }
}
