import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import client from 'prom-client';
import { RequestMetrics } from '../src/observability/request-metrics.ts';

describe('request metrics', () => {
  it('exposes counters per route/method/status and cumulative latency buckets with sum and count', async () => {
    const registry = new client.Registry();
    const m = new RequestMetrics();
    m.register(registry);
    m.observe('/v1/a', 'POST', 200, 0.0002);
    m.observe('/v1/a', 'POST', 200, 0.003);
    m.observe('/v1/a', 'POST', 400, 20);
    m.observe('unmatched', 'BREW', 404, 0.00005);
    const text = await registry.metrics();
    assert.match(text, /gateway_http_requests_total\{route="\/v1\/a",method="POST",status="200"\} 2/);
    assert.match(text, /gateway_http_requests_total\{route="\/v1\/a",method="POST",status="400"\} 1/);
    assert.match(text, /gateway_http_requests_total\{route="unmatched",method="OTHER",status="404"\} 1/);
    assert.equal(text.includes('BREW'), false, 'unknown methods never become label values');
    assert.match(text, /gateway_http_request_duration_seconds_bucket\{le="0.0001",route="\/v1\/a"\} 0/);
    assert.match(text, /gateway_http_request_duration_seconds_bucket\{le="0.00025",route="\/v1\/a"\} 1/);
    assert.match(text, /gateway_http_request_duration_seconds_bucket\{le="0.005",route="\/v1\/a"\} 2/);
    assert.match(text, /gateway_http_request_duration_seconds_bucket\{le="10",route="\/v1\/a"\} 2/);
    assert.match(text, /gateway_http_request_duration_seconds_bucket\{le="\+Inf",route="\/v1\/a"\} 3/);
    assert.match(text, /gateway_http_request_duration_seconds_count\{route="\/v1\/a"\} 3/);
    assert.match(text, /gateway_http_request_duration_seconds_sum\{route="\/v1\/a"\} 20\.0032/);
  });
});
