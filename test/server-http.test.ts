import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestGateway, type TestGateway } from './helpers/gateway.ts';
import { echoFactory } from './helpers/test-routes.ts';

describe('HTTP behaviour of the adapter', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ gateway: { factories: [echoFactory] } });
  });
  after(() => gw.close());

  it('returns 404 NOT_FOUND with the error body for an unknown route', async () => {
    const res = await gw.get('/v1/nope');
    assert.equal(res.status, 404);
    const body = await res.json();
    assert.deepEqual(Object.keys(body), ['success', 'error', 'latency_ms']);
    assert.equal(body.error.code, 'NOT_FOUND');
  });

  it('returns 405 METHOD_NOT_ALLOWED with an Allow header and the service label', async () => {
    const res = await gw.get('/test/echo');
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'POST');
    const body = await res.json();
    assert.equal(body.error.code, 'METHOD_NOT_ALLOWED');
    assert.equal(body.api, '[TEST] Echo');
  });

  it('runs the same handler on every alias path and gives the same body', async () => {
    const a = await (await gw.post('/test/echo', { text: 'same' })).json();
    const b = await (await gw.post('/test/echo-alias', { text: 'same' })).json();
    delete a.latency_ms;
    delete b.latency_ms;
    assert.deepEqual(a, b);
    assert.equal(a.text, 'same');
  });

  it('wraps a success as {success, api, ...fields, latency_ms} with sub-millisecond precision', async () => {
    const res = await gw.post('/test/echo', { text: 'x' });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const body = await res.json();
    assert.equal(body.success, true);
    assert.equal(body.api, '[TEST] Echo');
    assert.equal(typeof body.latency_ms, 'number');
    assert.ok(body.latency_ms >= 0 && body.latency_ms < 1000);
    assert.ok(Object.keys(body).at(-1) === 'latency_ms');
  });

  it('lists every failing field in VALIDATION_FAILED details', async () => {
    const res = await gw.post('/test/echo', { text: 'y'.repeat(65), delay_ms: -1, count: 'three' });
    assert.equal(res.status, 400);
    const body = await res.json();
    assert.equal(body.error.code, 'VALIDATION_FAILED');
    const paths = body.error.details.map((d: { path: string }) => d.path).sort();
    assert.deepEqual(paths, ['/count', '/delay_ms', '/text']);
    for (const d of body.error.details) assert.equal(typeof d.message, 'string');
  });

  it('ignores unknown request fields', async () => {
    const res = await gw.post('/test/echo', { text: 'z', unknown_field: { deep: [1, 2] } });
    assert.equal(res.status, 200);
  });

  const ids: Array<[string, string | undefined, boolean]> = [
    ['a sane client id is echoed', 'req-123_abc.DEF:9', true],
    ['an id with spaces is replaced', 'has space', false],
    ['an overlong id is replaced', 'x'.repeat(129), false],
    ['an id with a quote is replaced', 'a"b', false],
    ['a missing id gets a fresh one', undefined, false],
  ];
  for (const [name, given, echoed] of ids) {
    it(`sets x-request-id: ${name}`, async () => {
      const res = await gw.get('/v1/health', given === undefined ? {} : { 'x-request-id': given });
      const id = res.headers.get('x-request-id');
      assert.ok(id);
      if (echoed) assert.equal(id, given);
      else {
        assert.notEqual(id, given);
        assert.match(id, /^[0-9a-f-]{36}$/);
      }
    });
  }

  it('answers OPTIONS without CORS configured with 204 and Allow, and no CORS headers', async () => {
    const res = await fetch(`${gw.url}/test/echo`, { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
    assert.equal(res.status, 204);
    assert.equal(res.headers.get('allow'), 'POST, OPTIONS');
    assert.equal(res.headers.get('access-control-allow-origin'), null);
  });
});

describe('CORS with CORS_ORIGINS set', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ env: { CORS_ORIGINS: 'https://app.example.com' }, gateway: { factories: [echoFactory] } });
  });
  after(() => gw.close());

  it('answers a preflight from an allowed origin with methods, headers and max-age', async () => {
    const res = await fetch(`${gw.url}/test/echo`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-api-key' },
    });
    assert.equal(res.status, 204);
    assert.equal(res.headers.get('access-control-allow-origin'), 'https://app.example.com');
    assert.equal(res.headers.get('access-control-allow-methods'), 'POST, OPTIONS');
    assert.match(res.headers.get('access-control-allow-headers') ?? '', /x-api-key/);
    assert.equal(res.headers.get('access-control-max-age'), '600');
    assert.match(res.headers.get('vary') ?? '', /Origin/);
  });

  it('gives no CORS headers to a preflight from another origin or for another method', async () => {
    for (const [origin, method] of [['https://evil.example', 'POST'], ['https://app.example.com', 'DELETE']] as const) {
      const res = await fetch(`${gw.url}/test/echo`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': method } });
      assert.equal(res.status, 204);
      assert.equal(res.headers.get('access-control-allow-origin'), null);
    }
  });

  it('adds Access-Control-Allow-Origin and exposes x-request-id on actual responses, errors included', async () => {
    const ok = await gw.post('/test/echo', { text: 'c' }, { origin: 'https://app.example.com' });
    assert.equal(ok.headers.get('access-control-allow-origin'), 'https://app.example.com');
    assert.match(ok.headers.get('access-control-expose-headers') ?? '', /x-request-id/);
    const err = await gw.post('/test/echo', '[]', { origin: 'https://app.example.com' });
    assert.equal(err.status, 400);
    assert.equal(err.headers.get('access-control-allow-origin'), 'https://app.example.com');
    const other = await gw.post('/test/echo', { text: 'c' }, { origin: 'https://evil.example' });
    assert.equal(other.headers.get('access-control-allow-origin'), null);
  });
});

describe('client address', () => {
  it('is the socket peer unless TRUST_PROXY is set, then the last X-Forwarded-For hop', async () => {
    const plain = await startTestGateway({ gateway: { factories: [echoFactory] } });
    const proxied = await startTestGateway({ env: { TRUST_PROXY: '1' }, gateway: { factories: [echoFactory] } });
    try {
      const xff = { 'x-forwarded-for': '203.0.113.9, 198.51.100.7' };
      assert.match((await (await plain.post('/test/echo', {}, xff)).json()).client_ip, /127\.0\.0\.1/);
      assert.equal((await (await proxied.post('/test/echo', {}, xff)).json()).client_ip, '198.51.100.7');
    } finally {
      await plain.close();
      await proxied.close();
    }
  });
});
