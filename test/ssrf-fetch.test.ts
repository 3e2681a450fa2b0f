/**
 * Real fetching against a local server on 127.0.0.1 only, with allowPrivate on (the switch
 * FETCH_ALLOW_PRIVATE=1 sets): content types, charsets, compression, size and time caps.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { isGatewayError } from '../src/errors.ts';
import { SafeFetcher, decodeBody } from '../src/fetch/index.ts';

const ROUTES: Record<string, (res: http.ServerResponse) => void> = {
  '/utf8': (res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<p>naïve café – 東京</p>');
  },
  '/cp1251-header': (res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=windows-1251' });
    res.end(Buffer.from([0x3c, 0x70, 0x3e, 0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2, 0x3c, 0x2f, 0x70, 0x3e])); // <p>Привет</p>
  },
  '/sjis-meta': (res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    // <meta charset="shift_jis"><p>日本</p>
    res.end(Buffer.concat([Buffer.from('<meta charset="shift_jis"><p>'), Buffer.from([0x93, 0xfa, 0x96, 0x7b]), Buffer.from('</p>')]));
  },
  '/latin1-undeclared': (res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(Buffer.from('<p>caf\xe9</p>', 'latin1'));
  },
  '/gzip': (res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
    res.end(gzipSync('<p>zipped</p>'));
  },
  '/br': (res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'br' });
    res.end(brotliCompressSync(Buffer.from('<p>brotli</p>')));
  },
  '/bomb': (res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
    res.end(gzipSync(Buffer.alloc(2_000_000, 0x20)));
  },
  '/big-declared': (res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'content-length': '200000' });
    res.end(Buffer.alloc(200_000, 0x61));
  },
  '/big-chunked': (res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    for (let i = 0; i < 40; i++) res.write(Buffer.alloc(10_000, 0x61));
    res.end();
  },
  '/png': (res) => {
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  },
  '/json': (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  },
  '/untyped-binary': (res) => {
    res.end(Buffer.from([0, 1, 2, 3, 0, 0]));
  },
  '/text': (res) => {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('plain words');
  },
  '/missing': (res) => {
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end('<p>nope</p>');
  },
  '/slow-headers': () => undefined,
  '/slow-body': (res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.write('<p>start');
  },
  '/relative-redirect': (res) => {
    res.writeHead(307, { location: 'utf8' });
    res.end();
  },
  '/no-location': (res) => {
    res.writeHead(302);
    res.end();
  },
};

describe('fetching from a local server (allowPrivate)', () => {
  let server: http.Server;
  let base = '';
  let fetcher: SafeFetcher;

  before(async () => {
    server = http.createServer((req, res) => (ROUTES[req.url ?? ''] ?? ROUTES['/missing']!)(res));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
    fetcher = new SafeFetcher({ allowPrivate: true, allowedPorts: [port], maxBytes: 100_000, timeoutMs: 400 });
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  const ok: readonly [string, RegExp, string][] = [
    ['/utf8', /naïve café – 東京/, 'utf-8'],
    ['/cp1251-header', /Привет/, 'windows-1251'],
    ['/sjis-meta', /日本/, 'shift_jis'],
    ['/latin1-undeclared', /café/, 'windows-1252'],
    ['/gzip', /zipped/, 'utf-8'],
    ['/br', /brotli/, 'utf-8'],
    ['/text', /plain words/, 'utf-8'],
    ['/relative-redirect', /naïve/, 'utf-8'],
  ];
  for (const [path, text, charset] of ok) {
    it(`decodes ${path} as ${charset}`, async () => {
      const page = await fetcher.fetch(new URL(base + path));
      assert.match(page.text, text);
      assert.equal(page.charset, charset);
    });
  }

  it('reports text/plain pages as not HTML and the final URL after a redirect', async () => {
    assert.equal((await fetcher.fetch(new URL(base + '/text'))).isHtml, false);
    assert.equal((await fetcher.fetch(new URL(base + '/relative-redirect'))).url, base + '/utf8');
  });

  const failures: readonly [string, string, RegExp][] = [
    ['/png', 'UPSTREAM_FAILED', /image\/png/],
    ['/json', 'UPSTREAM_FAILED', /not HTML/],
    ['/untyped-binary', 'UPSTREAM_FAILED', /not HTML/],
    ['/missing', 'UPSTREAM_FAILED', /404/],
    ['/big-declared', 'UPSTREAM_FAILED', /larger than/],
    ['/big-chunked', 'UPSTREAM_FAILED', /larger than/],
    ['/bomb', 'UPSTREAM_FAILED', /larger than/],
    ['/no-location', 'UPSTREAM_FAILED', /Location/],
    ['/slow-headers', 'UPSTREAM_TIMEOUT', /longer than 400 ms/],
    ['/slow-body', 'UPSTREAM_TIMEOUT', /longer than 400 ms/],
  ];
  for (const [path, code, message] of failures) {
    it(`answers ${code} for ${path}`, async () => {
      await assert.rejects(fetcher.fetch(new URL(base + path)), (e: unknown) => isGatewayError(e) && e.code === code && message.test(e.message));
    });
  }

  it('still refuses ports outside the allowed list when private targets are allowed', async () => {
    const strictPorts = new SafeFetcher({ allowPrivate: true, maxBytes: 1000, timeoutMs: 400 });
    await assert.rejects(strictPorts.fetch(new URL(base + '/utf8')), (e: unknown) => isGatewayError(e) && e.code === 'URL_BLOCKED');
  });

  it('answers UPSTREAM_FAILED when nothing listens', async () => {
    const probe = http.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const f = new SafeFetcher({ allowPrivate: true, allowedPorts: [port], maxBytes: 1000, timeoutMs: 1000 });
    await assert.rejects(f.fetch(new URL(`http://127.0.0.1:${port}/`)), (e: unknown) => isGatewayError(e) && e.code === 'UPSTREAM_FAILED' && /ECONNREFUSED/.test(e.message));
  });

  it('validates its options', () => {
    assert.throws(() => new SafeFetcher({ allowPrivate: false, maxBytes: 0, timeoutMs: 1 }), RangeError);
    assert.throws(() => new SafeFetcher({ allowPrivate: false, maxBytes: 1, timeoutMs: 0 }), RangeError);
    assert.throws(() => new SafeFetcher({ allowPrivate: false, maxBytes: 1, timeoutMs: 1, maxRedirects: -1 }), RangeError);
  });
});

describe('decodeBody', () => {
  it('prefers the byte order mark over every declaration', () => {
    const bytes = new Uint8Array([0xff, 0xfe, 0x68, 0x00, 0x69, 0x00]);
    assert.deepEqual(decodeBody(bytes, 'iso-8859-1', true), { text: 'hi', charset: 'utf-16le' });
  });
  it('reads http-equiv content-type declarations', () => {
    const bytes = Buffer.concat([Buffer.from('<meta http-equiv="Content-Type" content="text/html; charset=koi8-r"><p>'), Buffer.from([0xf0, 0xd2, 0xc9])]);
    assert.match(decodeBody(bytes, null, true).text, /При/);
  });
  it('ignores an unknown charset label and falls back to UTF-8', () => {
    assert.deepEqual(decodeBody(Buffer.from('é'), 'x-unknown-9', true), { text: 'é', charset: 'utf-8' });
  });
});
