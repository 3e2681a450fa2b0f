/**
 * API-01 over real sockets. Fetching goes only to a local server on 127.0.0.1 (FETCH_ALLOW_PRIVATE=1
 * and its port in FETCH_ALLOWED_PORTS); blocking is tested on a default gateway whose injected
 * resolver answers made-up names, and the local server proves no connection was made.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { extractMarkdown } from '../src/services/web-to-markdown/core.ts';
import { sepaVopFactory } from '../src/services/sepa-vop/index.ts';
import { createWebToMarkdownService } from '../src/services/web-to-markdown/index.ts';
import { startTestGateway, type TestGateway } from './helpers/gateway.ts';

const LABEL = '[API-01] Web to Markdown';
const SECRET = 'ZERO_RETENTION_MARKER_93731';
const ARTICLE = `<html><head><title>Local article about testing things well</title></head><body><nav><a href="/">Home</a></nav>
<article><h1>Testing</h1><p>${SECRET} Tests should never reach the internet, and this page proves the fetcher works against a local server, with links like <a href="/next">the next page</a>.</p>
<p>Another paragraph gives the scorer enough text to pick this article, with commas, clauses, and a full stop.</p></article></body></html>`;

const resolver = async (host: string) => {
  const table: Record<string, string> = { 'rebind.test': '10.0.0.1', 'local.test': '127.0.0.1' };
  const address = table[host];
  if (address === undefined) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  return [{ address, family: 4 as const }];
};

describe('API-01 over HTTP', () => {
  let upstream: http.Server;
  let port = 0;
  let upstreamHits = 0;
  let open: TestGateway; // FETCH_ALLOW_PRIVATE=1
  let strict: TestGateway; // defaults

  before(async () => {
    upstream = http.createServer((req, res) => {
      upstreamHits++;
      if (req.url === '/article') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(ARTICLE);
      } else if (req.url === '/moved') {
        res.writeHead(301, { location: '/article' });
        res.end();
      } else if (req.url === '/image') {
        res.writeHead(200, { 'content-type': 'image/jpeg' });
        res.end('xx');
      } else if (req.url === '/text') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('just text');
      } else if (req.url === '/slow') {
        // never answers
      } else {
        res.writeHead(500);
        res.end();
      }
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    port = (upstream.address() as AddressInfo).port;
    const factories = [createWebToMarkdownService({ resolver })];
    open = await startTestGateway({ env: { FETCH_ALLOW_PRIVATE: '1', FETCH_ALLOWED_PORTS: String(port), FETCH_TIMEOUT_MS: '500' }, gateway: { factories } });
    strict = await startTestGateway({ env: { FETCH_ALLOWED_PORTS: String(port) }, gateway: { factories: [...factories, sepaVopFactory] } });
  });
  after(async () => {
    await Promise.all([open.close(), strict.close()]);
    upstream.closeAllConnections();
    upstream.close();
  });

  it('extracts from the html field on both paths with the same body', async () => {
    const bodies = [];
    for (const path of ['/v1/extract', '/v1/api/01-web-to-markdown']) {
      const res = await strict.post(path, { url: 'https://example.org/dir/page', html: ARTICLE });
      assert.equal(res.status, 200);
      const body = (await res.json()) as Record<string, unknown>;
      assert.equal(body.success, true);
      assert.equal(body.api, LABEL);
      assert.equal(typeof body.latency_ms, 'number');
      delete body.latency_ms;
      bodies.push(body);
    }
    assert.deepEqual(bodies[0], bodies[1]);
    const b = bodies[0]!;
    assert.equal(b.url, 'https://example.org/dir/page');
    assert.equal(b.title, 'Local article about testing things well');
    assert.match(String(b.markdown), /^# Testing/);
    assert.match(String(b.markdown), /\[the next page\]\(https:\/\/example\.org\/next\)/);
    assert.equal(b.markdown_length, [...String(b.markdown)].length);
    assert.ok(Number(b.tokens_saved_estimate) > 0);
  });

  it('gives the in-process numbers for a page whose token estimate the event loop and the worker share', async () => {
    // ~200 KB: a dozen chunks of split-estimate.ts, with script, markup, prose and digits.
    const filler = Array.from({ length: 1400 }, (_, i) => `<div class="c${i}"><p>Paragraph ${i}, with words, numbers like ${i * 37} and <a href="/p/${i}">a link</a>.</p></div>`).join('\n');
    const html = ARTICLE.replace('</article>', `${filler}</article><script>var data = ${JSON.stringify(Array.from({ length: 6000 }, (_, i) => i.toString(36)))};</script>`);
    assert.ok(html.length > 150_000);
    // Mostly one long script: the worker (which skips it with one search) is done long before the
    // event loop has scanned a few chunks, and scans the rest itself.
    const script = `<script>${Array.from({ length: 40_000 }, (_, i) => `f(${i}, "k${i.toString(36)}");`).join('\n')}</script>`;
    for (const page of [html, ARTICLE.replace('</body>', `${script}</body>`)]) {
      const want = extractMarkdown({ html: page, url: 'https://example.org/x', includeLinks: true });
      for (let round = 0; round < 3; round++) {
        const res = await strict.post('/v1/extract', { url: 'https://example.org/x', html: page });
        assert.equal(res.status, 200);
        const body = (await res.json()) as { markdown: string; markdown_length: number; tokens_saved_estimate: number };
        assert.equal(body.markdown, want.markdown);
        assert.equal(body.markdown_length, want.markdownLength);
        assert.equal(body.tokens_saved_estimate, want.tokensSaved);
      }
    }
  });

  it('keeps link text only when include_links is false', async () => {
    const res = await strict.post('/v1/extract', { url: 'https://example.org/', html: ARTICLE, include_links: false });
    const body = (await res.json()) as { markdown: string };
    assert.match(body.markdown, /links like the next page\./);
  });

  const invalid: readonly [string, unknown, string][] = [
    ['a non-http scheme', { url: 'ftp://example.org/' }, '/url'],
    ['a javascript: URL', { url: 'javascript:alert(1)' }, '/url'],
    ['a missing url', { html: '<p>x</p>' }, '/url'],
    ['a url over 2048 chars', { url: 'https://example.org/' + 'a'.repeat(2048) }, '/url'],
    ['an unparsable url', { url: 'http://[::1' }, '/url'],
    ['include_links of the wrong type', { url: 'https://example.org/', include_links: 'yes' }, '/include_links'],
    ['html of the wrong type', { url: 'https://example.org/', html: 42 }, '/html'],
  ];
  for (const [name, body, path] of invalid) {
    it(`answers 400 VALIDATION_FAILED for ${name}`, async () => {
      const res = await strict.post('/v1/extract', body);
      assert.equal(res.status, 400);
      const json = (await res.json()) as { api: string; error: { code: string; details: { path: string }[] } };
      assert.equal(json.api, LABEL);
      assert.equal(json.error.code, 'VALIDATION_FAILED');
      assert.ok(json.error.details.some((d) => d.path === path), JSON.stringify(json.error.details));
    });
  }

  const blocked: readonly [string, string][] = [
    ['loopback literal on an allowed port', 'http://127.0.0.1:PORT/article'],
    ['a name resolving to loopback', 'http://local.test:PORT/article'],
    ['a name resolving to RFC 1918', 'http://rebind.test/'],
    ['decimal loopback', 'http://2130706433/'],
    ['IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]/'],
    ['credentials', 'https://user:pw@example.org/'],
    ['a refused port', 'http://example.org:25/'],
    // Special-use names: refused by name (the resolver does not know them: a lookup would be 502).
    ['localhost with a trailing dot', 'http://localhost./'],
    ['a .localhost name', 'http://app.localhost/'],
    ['a .local name', 'http://printer.local/'],
    ['a .internal name', 'http://metadata.google.internal/'],
    ['a .home.arpa name', 'http://router.home.arpa./'],
    ['an .onion name', 'http://example.onion/'],
  ];
  for (const [name, url] of blocked) {
    it(`answers 422 URL_BLOCKED for ${name} without connecting`, async () => {
      const hits = upstreamHits;
      const res = await strict.post('/v1/extract', { url: url.replace('PORT', String(port)) });
      const json = (await res.clone().json()) as { error: { message: string } };
      if (url.includes('PORT')) assert.match(json.error.message, /non-public address/);
      assert.equal(res.status, 422);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'URL_BLOCKED');
      assert.equal(upstreamHits, hits);
    });
  }

  /** A JSON body of exactly `bytes` bytes posting an article padded with paragraphs. */
  const bigBody = (bytes: number): string => {
    const para = '<p>' + 'A long page keeps its text, sentence after sentence, so the body is big. '.repeat(20) + '</p> ';
    const head = '{"url":"https://example.org/big","html":"<html><body><article><h1>Big</h1>';
    const tail = '</article></body></html>"}';
    let html = para.repeat(Math.floor((bytes - head.length - tail.length) / para.length));
    html += 'x'.repeat(bytes - head.length - tail.length - html.length);
    return head + html + tail;
  };
  const postRaw = (gw: TestGateway, path: string, body: string) => fetch(gw.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  it('accepts a 3 MB page posted as html (the API-01 limit is FETCH_MAX_BYTES + 64 KiB)', async () => {
    const res = await postRaw(strict, '/v1/extract', bigBody(3_000_000));
    assert.equal(res.status, 200);
    const json = (await res.json()) as { markdown: string };
    assert.ok(json.markdown.length > 2_000_000, String(json.markdown.length));
  });

  it('answers 413 for an API-01 body one byte over FETCH_MAX_BYTES + 64 KiB, and other routes keep MAX_BODY_BYTES', async () => {
    const limit = 5 * 1024 * 1024 + 64 * 1024;
    const over = await postRaw(strict, '/v1/extract', bigBody(limit + 1));
    assert.equal(over.status, 413);
    assert.equal(((await over.json()) as { error: { code: string } }).error.code, 'PAYLOAD_TOO_LARGE');
    const atLimit = await postRaw(strict, '/v1/extract', bigBody(limit));
    assert.equal(atLimit.status, 200);
    await atLimit.arrayBuffer();
    // Another route: 1 MiB + 1 is refused, as before (no Content-Length trick: the body is read chunk by chunk).
    const other = await postRaw(strict, '/v1/sepa/vop', JSON.stringify({ iban: 'DE89370400440532013000', beneficiary_name: 'x'.repeat(1024 * 1024) }));
    assert.equal(other.status, 413);
  });

  it('fetches a local page when FETCH_ALLOW_PRIVATE=1, following redirects', async () => {
    const res = await open.post('/v1/extract', { url: `http://local.test:${port}/moved` });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { url: string; markdown: string; title: string };
    assert.equal(body.url, `http://local.test:${port}/article`);
    assert.match(body.markdown, /\[the next page\]\(http:\/\/local\.test:\d+\/next\)/);
    assert.equal(body.title, 'Local article about testing things well');
  });

  it('passes text/plain pages through', async () => {
    const res = await open.post('/v1/extract', { url: `http://127.0.0.1:${port}/text` });
    assert.equal(((await res.json()) as { markdown: string }).markdown, 'just text');
  });

  const upstreamErrors: readonly [string, string, number, string][] = [
    ['non-HTML content', '/image', 502, 'UPSTREAM_FAILED'],
    ['an upstream 500', '/error', 502, 'UPSTREAM_FAILED'],
    ['a page slower than FETCH_TIMEOUT_MS', '/slow', 504, 'UPSTREAM_TIMEOUT'],
  ];
  for (const [name, path, status, code] of upstreamErrors) {
    it(`answers ${status} ${code} for ${name}`, async () => {
      const res = await open.post('/v1/extract', { url: `http://127.0.0.1:${port}${path}` });
      assert.equal(res.status, status);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, code);
    });
  }

  it('answers 503 OVERLOADED with Retry-After when the worker queue is full', async () => {
    const busy = await startTestGateway({ env: { WORKER_THREADS: '1', WORKER_QUEUE_MAX: '0' }, gateway: { factories: [createWebToMarkdownService({ resolver })] } });
    try {
      const big = ARTICLE.replace('</article>', `${'<p>More words, more commas, more work for the parser.</p>'.repeat(4000)}</article>`);
      const responses = await Promise.all(Array.from({ length: 6 }, () => busy.post('/v1/extract', { url: 'https://example.org/', html: big })));
      const statuses = responses.map((r) => r.status);
      assert.ok(statuses.includes(200), statuses.join());
      const refused = responses.find((r) => r.status === 503);
      assert.ok(refused, statuses.join());
      assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'OVERLOADED');
      assert.ok(refused.headers.get('retry-after'));
    } finally {
      await busy.close();
    }
  });

  it('reports fetch_allow_private in health and never logs page content', async () => {
    const h1 = (await (await open.get('/v1/health')).json()) as { compliance: { fetch_allow_private: boolean }; services: Record<string, string> };
    const h2 = (await (await strict.get('/v1/health')).json()) as { compliance: { fetch_allow_private: boolean } };
    assert.equal(h1.compliance.fetch_allow_private, true);
    assert.equal(h2.compliance.fetch_allow_private, false);
    assert.equal(h1.services['API-01'], 'up');
    for (const line of [...open.logs, ...strict.logs]) assert.ok(!line.includes(SECRET), 'page content in a log line');
  });
});
