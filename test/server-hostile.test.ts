import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { post, rawRequest, type RawOptions, type RawResponse } from './helpers/raw-http.ts';
import { startTestGateway, type TestGateway } from './helpers/gateway.ts';
import { echoFactory } from './helpers/test-routes.ts';

const MIB = 1024 * 1024;

function chunked(path: string, chunks: ReadonlyArray<Buffer | number>, headers: Record<string, string> = {}): RawOptions['parts'] {
  const head = [`POST ${path} HTTP/1.1`, 'Host: 127.0.0.1', 'content-type: application/json', 'transfer-encoding: chunked', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)].join('\r\n');
  const parts: Array<string | Buffer | number> = [`${head}\r\n\r\n`];
  for (const c of chunks) {
    if (typeof c === 'number') parts.push(c);
    else parts.push(Buffer.concat([Buffer.from(`${c.length.toString(16)}\r\n`), c, Buffer.from('\r\n')]));
  }
  parts.push('0\r\n\r\n');
  return parts;
}

const deepObject = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
const deepArray = `{"x":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
const manyKeys = `{${Array.from({ length: 100_000 }, (_, i) => `"k${i}":0`).join(',')},"text":"many"}`;
const megabyte = Buffer.alloc(MIB, 0x20);

interface Case {
  readonly name: string;
  readonly request: RawOptions;
  readonly status: number | null;
  readonly code?: string;
  readonly closed?: boolean;
  readonly check?: (res: RawResponse) => void;
}

const CASES: Case[] = [
  { name: 'truncated JSON', request: { parts: [post('/test/echo', '{"text": "abc')] }, status: 400, code: 'INVALID_JSON' },
  { name: 'a JSON array', request: { parts: [post('/test/echo', '[1,2,3]')] }, status: 400, code: 'INVALID_JSON' },
  { name: 'a JSON string', request: { parts: [post('/test/echo', '"text"')] }, status: 400, code: 'INVALID_JSON' },
  { name: 'a JSON number', request: { parts: [post('/test/echo', '42')] }, status: 400, code: 'INVALID_JSON' },
  { name: 'JSON null', request: { parts: [post('/test/echo', 'null')] }, status: 400, code: 'INVALID_JSON' },
  { name: 'an empty body', request: { parts: [post('/test/echo', '')] }, status: 400, code: 'INVALID_JSON' },
  { name: '10,000-deep object nesting', request: { parts: [post('/test/echo', deepObject)] }, status: 400, code: 'INVALID_JSON' },
  { name: '10,000-deep array nesting in a field', request: { parts: [post('/test/echo', deepArray)] }, status: 400, code: 'INVALID_JSON' },
  { name: 'invalid UTF-8', request: { parts: [post('/test/echo', Buffer.from([0x7b, 0x22, 0x74, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]))] }, status: 400, code: 'INVALID_JSON' },
  {
    name: 'a declared 50 MB body (refused before reading)',
    request: { parts: [post('/test/echo', '', { 'content-length': String(50 * MIB) }), megabyte] },
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    closed: true,
  },
  {
    name: 'a 50 MB chunked body (refused as soon as the limit is crossed)',
    request: { parts: chunked('/test/echo', Array.from({ length: 50 }, () => [megabyte, 20]).flat()) },
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    closed: true,
  },
  {
    name: 'a Content-Length that understates the body',
    request: { parts: [post('/test/echo', '{"text":"abcdefgh"}', { 'content-length': '9' })] },
    status: 400,
    code: 'INVALID_JSON',
  },
  {
    name: 'a slow body (one byte every 100 ms) past BODY_TIMEOUT_MS',
    request: { parts: [post('/test/echo', '', { 'content-length': '40' }), ...Array.from({ length: 30 }, (_, i) => [100, '{"text":"slow-body-test-payload-xxxxxx"}'[i]!]).flat()] },
    status: 408,
    code: 'REQUEST_TIMEOUT',
    closed: true,
  },
  { name: 'a body with 100,000 keys', request: { parts: [post('/test/echo', manyKeys)] }, status: 200, check: (r) => assert.equal(JSON.parse(r.body).keys, 100_001) },
  { name: 'duplicate keys (last wins)', request: { parts: [post('/test/echo', '{"text":"first","text":"second"}')] }, status: 200, check: (r) => assert.equal(JSON.parse(r.body).text, 'second') },
  {
    name: '__proto__ and constructor keys',
    request: { parts: [post('/test/echo', '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"text":"p"}')] },
    status: 200,
    check: (r) => {
      assert.equal(JSON.parse(r.body).own_proto, true);
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
    },
  },
  { name: 'a wrong content type', request: { parts: [post('/test/echo', '{"text":"a"}', { 'content-type': 'text/plain' })] }, status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
  { name: 'a missing content type', request: { parts: [post('/test/echo', '{"text":"a"}', { 'content-type': '' })] }, status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
  { name: 'a non-UTF-8 charset', request: { parts: [post('/test/echo', '{"text":"a"}', { 'content-type': 'application/json; charset=latin1' })] }, status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
  { name: 'a utf-8 charset parameter', request: { parts: [post('/test/echo', '{"text":"a"}', { 'content-type': 'Application/JSON; charset=UTF-8' })] }, status: 200 },
  { name: 'a wrong field type', request: { parts: [post('/test/echo', '{"text":42}')] }, status: 400, code: 'VALIDATION_FAILED' },
  { name: 'a client that aborts mid-body', request: { parts: [post('/test/echo', '', { 'content-length': '100' }), '{"text":"par', 50], abortAfterParts: true }, status: null },
];

describe('hostile input over real sockets', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ env: { MAX_BODY_BYTES: String(2 * MIB), BODY_TIMEOUT_MS: '1000' }, gateway: { factories: [echoFactory] } });
  });
  after(() => gw.close());

  for (const c of CASES) {
    it(`answers ${c.status ?? 'nothing'}${c.code ? ` ${c.code}` : ''} to ${c.name}, then serves a normal request`, async () => {
      const started = performance.now();
      const res = await rawRequest(gw.port, c.request);
      if (c.status === null) {
        assert.equal(res, null);
      } else {
        assert.ok(res, 'a response was expected');
        assert.equal(res.status, c.status, res.body);
        const body = JSON.parse(res.body);
        assert.equal(typeof body.latency_ms, 'number');
        assert.ok(res.headers['x-request-id']);
        if (c.code) {
          assert.equal(body.success, false);
          assert.equal(body.error.code, c.code);
          assert.equal(body.api, '[TEST] Echo');
        }
        if (c.closed) assert.equal(res.closed, true, 'the connection must be closed after this answer');
        c.check?.(res);
      }
      if (c.code === 'REQUEST_TIMEOUT') assert.ok(performance.now() - started < 3000, 'the timeout must fire near BODY_TIMEOUT_MS');
      const next = await gw.post('/test/echo', { text: 'next' });
      assert.equal(next.status, 200);
      assert.equal((await next.json()).text, 'next');
    });
  }

  it('logs an aborted request and writes nothing after the abort', async () => {
    const before = gw.logs.length;
    const res = await rawRequest(gw.port, { parts: [post('/test/echo', '{"text":"late","delay_ms":200}'), 20], abortAfterParts: true });
    assert.equal(res, null);
    await new Promise((r) => setTimeout(r, 400));
    const lines = gw.logs.slice(before).map((l) => JSON.parse(l));
    assert.ok(lines.some((l) => l.aborted === true && l.status === 499), 'an aborted line was logged');
    assert.ok(!lines.some((l) => l.level >= 50), 'no error was logged');
    assert.equal((await gw.post('/test/echo', { text: 'after' })).status, 200);
  });
});
