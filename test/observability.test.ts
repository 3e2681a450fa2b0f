import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestGateway, type TestGateway } from './helpers/gateway.ts';
import { echoFactory } from './helpers/test-routes.ts';

describe('logs, metrics and health', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ gateway: { factories: [echoFactory] } });
  });
  after(() => gw.close());

  it('never writes request content to a log line, on success, on errors and on a crash', async () => {
    const marker = `MARKER${Math.random().toString(36).slice(2)}`;
    await gw.post('/test/echo', { text: marker });
    await gw.post('/test/echo', { text: marker.repeat(10) }); // validation error (too long)
    await gw.post('/test/echo', `{"text": "${marker}`); // invalid JSON
    await gw.get(`/v1/${marker}`); // 404 with the marker in the path
    await gw.get(`/test/boom?${marker}`); // 500 whose error message quotes the marker
    await gw.post('/test/echo', { text: 'x' }, { 'x-api-key': marker, authorization: `Bearer ${marker}` });
    await new Promise((r) => setTimeout(r, 50));
    assert.ok(gw.logs.length >= 6);
    for (const line of gw.logs) assert.equal(line.includes(marker), false, `log line leaks the marker: ${line}`);
  });

  it('writes one JSON line per request with id, route label, status, latency and sizes', async () => {
    const before = gw.logs.length;
    const res = await gw.post('/test/echo-alias', { text: 'sizes' }, { 'x-request-id': 'log-line-check' });
    await res.text();
    await new Promise((r) => setTimeout(r, 20));
    const lines = gw.logs.slice(before).map((l) => JSON.parse(l));
    const line = lines.find((l) => l.reqId === 'log-line-check');
    assert.ok(line);
    assert.equal(line.route, '/test/echo');
    assert.equal(line.status, 200);
    assert.equal(line.method, 'POST');
    assert.equal(typeof line.ms, 'number');
    assert.equal(line.bytesIn, JSON.stringify({ text: 'sizes' }).length);
    assert.ok(line.bytesOut > 0);
  });

  it('answers a crash with 500 INTERNAL without stack or input', async () => {
    const res = await gw.get('/test/boom?secret-input');
    assert.equal(res.status, 500);
    const text = await res.text();
    assert.equal(text.includes('secret-input'), false);
    assert.equal(text.includes(' at '), false);
    assert.equal(JSON.parse(text).error.code, 'INTERNAL');
  });

  it('exposes Prometheus metrics by route label and status, pool and event-loop gauges, and no user data', async () => {
    const marker = `METRIC${Math.random().toString(36).slice(2)}`;
    await gw.get(`/v1/${marker}`);
    await fetch(`${gw.url}/test/echo`, { method: marker.toUpperCase() }).catch(() => undefined);
    const res = await gw.get('/metrics');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/plain/);
    const text = await res.text();
    assert.match(text, /gateway_http_requests_total\{route="\/test\/echo",method="POST",status="200"\} \d+/);
    assert.match(text, /gateway_http_requests_total\{route="unmatched",method="GET",status="404"\} \d+/);
    assert.match(text, /gateway_http_request_duration_seconds_bucket\{le="0\.001",route="\/test\/echo"\}/);
    assert.match(text, /gateway_worker_pool_threads 1/);
    assert.match(text, /gateway_worker_pool_queue_length 0/);
    assert.match(text, /gateway_worker_pool_utilization /);
    assert.match(text, /gateway_event_loop_delay_seconds\{quantile="0.99"\}/);
    assert.match(text, /gateway_uws_native 1/);
    assert.equal(text.includes(marker), false);
    assert.equal(text.toLowerCase().includes(marker.toLowerCase()), false);
  });

  it('reports health exactly as CONTRACT.md §6 describes', async () => {
    const res = await gw.get('/v1/health');
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.success, true);
    assert.equal(body.api, '[GATEWAY] Health');
    assert.ok(body.status === 'ok' || body.status === 'degraded');
    assert.equal(body.version, '1.0.0');
    assert.equal(typeof body.uptime_s, 'number');
    assert.deepEqual(Object.keys(body.services).sort(), ['API-01', 'API-05', 'API-08', 'API-09', 'API-138', 'API-21']);
    assert.deepEqual(body.workers, { threads: 1, queued: 0 });
    assert.deepEqual(body.compliance, { zero_retention: true, pii_in_logs: false, dora_article_30: true, fetch_allow_private: false });
    assert.equal(body.server.native, true);
    // Only the echo test service is registered here, so the six contract services are down.
    assert.equal(body.status, 'degraded');
    assert.equal(body.services['API-01'], 'down');
  });

  it('reports FETCH_ALLOW_PRIVATE in health', async () => {
    const other = await startTestGateway({ env: { FETCH_ALLOW_PRIVATE: '1' }, gateway: { factories: [] } });
    try {
      const body = await (await other.get('/v1/health')).json();
      assert.equal(body.compliance.fetch_allow_private, true);
    } finally {
      await other.close();
    }
  });
});

describe('request log lines', () => {
  const info = { requestId: 'req-1', method: 'POST', route: '/v1/echo', status: 200, durationMs: 1.23456, bytesIn: 12, bytesOut: 345, aborted: false };

  async function capture(level: 'info' | 'warn', write: (logger: import('pino').Logger) => void): Promise<Record<string, unknown>[]> {
    const { Writable } = await import('node:stream');
    const { createLogger } = await import('../src/observability/logger.ts');
    const lines: string[] = [];
    const dest = new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        cb();
      },
    });
    write(createLogger(level, dest));
    await new Promise((r) => setImmediate(r));
    return lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  }

  it('writes the hand-built line with the same fields pino writes for the same request', async () => {
    const { createRequestLog, logResponse } = await import('../src/observability/logger.ts');
    const [fast] = await capture('info', (logger) => createRequestLog(logger)(info));
    const [slow] = await capture('info', (logger) => logResponse(logger, info));
    assert.ok(fast && slow);
    assert.match(String(fast.time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.deepEqual(Object.keys(fast), Object.keys(slow));
    assert.deepEqual({ ...fast, time: 0 }, { ...slow, time: 0 });
    assert.deepEqual({ reqId: fast.reqId, ms: fast.ms, msg: fast.msg }, { reqId: 'req-1', ms: 1.235, msg: 'request' });
  });

  it('writes nothing below its level, and still logs aborted and failed requests through pino', async () => {
    const { createRequestLog } = await import('../src/observability/logger.ts');
    assert.deepEqual(await capture('warn', (logger) => createRequestLog(logger)(info)), []);
    const lines = await capture('info', (logger) => {
      const log = createRequestLog(logger);
      log({ ...info, aborted: true, status: 499 });
      log({ ...info, status: 500, internalError: new Error('boom') });
    });
    assert.deepEqual(lines.map((l) => [l.msg, l.status, l.aborted]), [['request aborted', 499, true], ['request failed', 500, undefined]]);
  });
});
