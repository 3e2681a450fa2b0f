/**
 * The early start (RouteDef.early): the adapter hands a route the raw body before it parses it,
 * and API-01 uses that to let an idle worker parse a big body itself while the event loop
 * validates its own copy. The answer must be the one the normal path gives, whichever path ran,
 * and a body the gateway refuses must be refused as before.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import type { WorkerPool } from '../src/pool/worker-pool.ts';
import type { ServiceFactory } from '../src/services/types.ts';
import { extractMarkdown } from '../src/services/web-to-markdown/core.ts';
import { createWebToMarkdownService } from '../src/services/web-to-markdown/index.ts';
import { inputFromRawBody } from '../src/services/web-to-markdown/raw-input.ts';
import { EARLY_MIN_BYTES } from '../src/services/web-to-markdown/route.ts';
import { startTestGateway, type TestGateway } from './helpers/gateway.ts';

/** A page over EARLY_MIN_BYTES with two- and four-byte UTF-8 (curly quotes, accents, an emoji). */
function bigPage(): string {
  const paras = Array.from(
    { length: 60 },
    (_, i) => `<p>Paragraph ${i} – “quoted” café naïveté 🚀, with commas, clauses, and enough words to score as prose; see <a href="/n/${i}">note ${i}</a>.</p>`,
  ).join('\n');
  const script = `<script>var data = ${JSON.stringify('x'.repeat(40_000))};</script>`;
  return `<html><head><title>An early start — tested well</title>${script}</head><body><nav><a href="/">Home</a></nav><article><h1>Early</h1>${paras}</article></body></html>`;
}

const URL_ = 'https://example.test/a/b';

describe('RouteDef.early in the adapter', () => {
  let gw: TestGateway;
  const seen: string[] = [];
  const handled: unknown[] = [];
  const factory: ServiceFactory = () => ({
    routes: [
      {
        method: 'POST',
        paths: ['/test/early'],
        api: '[TEST] Early',
        summary: 'Records what the early hook saw',
        body: Type.Object({ n: Type.Integer() }),
        early: (raw) => {
          seen.push(Buffer.from(raw).toString('utf8'));
          return { marker: seen.length };
        },
        handler: (ctx) => {
          handled.push(ctx.early);
          return { early: ctx.early as Record<string, unknown> };
        },
      },
      {
        method: 'POST',
        paths: ['/test/plain'],
        api: '[TEST] Plain',
        summary: 'No early hook',
        handler: (ctx) => ({ early: ctx.early === undefined ? 'none' : 'some' }),
      },
    ],
  });
  before(async () => {
    gw = await startTestGateway({ gateway: { factories: [factory] } });
  });
  after(() => gw.close());

  it('hands the hook the exact raw body and the handler what the hook returned', async () => {
    const text = '{"n": 7, "pad": "é🚀"}';
    const res = await gw.post('/test/early', text);
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.deepEqual(body.early, { marker: seen.length });
    assert.equal(seen.at(-1), text);
  });

  it('calls the hook for a body that then fails to parse or validate, and answers with the error', async () => {
    const before = handled.length;
    const bad = await gw.post('/test/early', '{"n": ');
    assert.equal(bad.status, 400);
    assert.equal((await bad.json()).error.code, 'INVALID_JSON');
    assert.equal(seen.at(-1), '{"n": ');
    const invalid = await gw.post('/test/early', { n: 'seven' });
    assert.equal(invalid.status, 400);
    assert.equal((await invalid.json()).error.code, 'VALIDATION_FAILED');
    assert.equal(handled.length, before, 'the handler never ran');
  });

  it('leaves ctx.early undefined on routes without the hook', async () => {
    const res = await gw.post('/test/plain', { any: 1 });
    assert.deepEqual((await res.json()).early, 'none');
  });
});

describe('API-01 early start', () => {
  let gw: TestGateway;
  const tasks: string[] = [];
  let idle = true;
  let rawAnswersNull = false;
  let realPool: WorkerPool | null = null;
  /** A refused request answers before its early task ends: wait until that task is done. */
  const settled = async () => {
    for (let i = 0; i < 500 && !realPool!.hasIdleThread(); i++) await new Promise((r) => setTimeout(r, 2));
  };
  const factory: ServiceFactory = (deps) => {
    const real = deps.pool;
    realPool = real;
    // The real pool, with the task names recorded and idleness and the raw task's answer steerable.
    const pool = {
      threads: real.threads,
      hasIdleThread: () => idle && real.hasIdleThread(),
      warm: real.warm.bind(real),
      stats: real.stats.bind(real),
      run: (task: { name: string }, payload: unknown, signal?: AbortSignal) => {
        tasks.push(task.name);
        if (task.name === 'extractRaw' && rawAnswersNull) return Promise.resolve(null);
        return real.run(task as never, payload, signal);
      },
    } as unknown as WorkerPool;
    return createWebToMarkdownService()({ ...deps, pool });
  };
  before(async () => {
    gw = await startTestGateway({ gateway: { factories: [factory] } });
  });
  after(() => gw.close());

  const expected = (html: string, includeLinks = true) => {
    const r = extractMarkdown({ html, url: URL_, includeLinks });
    return { url: URL_, title: r.title ?? undefined, markdown: r.markdown, markdown_length: r.markdownLength, tokens_saved_estimate: r.tokensSaved };
  };
  const fields = (b: Record<string, unknown>) => ({ url: b.url, title: b.title, markdown: b.markdown, markdown_length: b.markdown_length, tokens_saved_estimate: b.tokens_saved_estimate });

  it('parses a big body on an idle worker and answers exactly what the normal path answers', async () => {
    const html = bigPage();
    assert.ok(Buffer.byteLength(html) > EARLY_MIN_BYTES);
    for (const includeLinks of [true, false]) {
      tasks.length = 0;
      const res = await gw.post('/v1/extract', { url: URL_, html, include_links: includeLinks });
      assert.equal(res.status, 200);
      const body = await res.json();
      assert.deepEqual(tasks, ['extractRaw']);
      assert.deepEqual(fields(body), expected(html, includeLinks));
      assert.match(body.markdown, /café naïveté 🚀/);
      assert.doesNotMatch(body.markdown, /xxxxxxxx/);
    }
  });

  it('takes the normal path when no worker is idle or the body is small, with the same answer', async () => {
    const html = bigPage();
    idle = false;
    try {
      tasks.length = 0;
      const res = await gw.post('/v1/extract', { url: URL_, html });
      assert.deepEqual(tasks, ['extract']);
      assert.deepEqual(fields(await res.json()), expected(html));
    } finally {
      idle = true;
    }
    const small = '<article><h1>Small</h1><p>A small page, well under the early start size, with a sentence or two.</p></article>';
    tasks.length = 0;
    const res = await gw.post('/v1/extract', { url: URL_, html: small });
    assert.deepEqual(tasks, ['extract']);
    assert.deepEqual(fields(await res.json()), expected(small));
  });

  it('falls back to the normal task when the worker declines the raw body', async () => {
    const html = bigPage();
    rawAnswersNull = true;
    try {
      tasks.length = 0;
      const res = await gw.post('/v1/extract', { url: URL_, html });
      assert.deepEqual(tasks, ['extractRaw', 'extract']);
      assert.deepEqual(fields(await res.json()), expected(html));
    } finally {
      rawAnswersNull = false;
    }
  });

  it('refuses a big body the gateway refuses, with the gateway\'s error, and stays usable', async () => {
    const html = bigPage();
    const cases: Array<[unknown, string]> = [
      [{ url: 'http://[not-a-host', html }, 'VALIDATION_FAILED'],
      [{ url: 'ftp://example.test/', html }, 'VALIDATION_FAILED'],
      [{ url: URL_, html, include_links: 'yes' }, 'VALIDATION_FAILED'],
      [JSON.stringify({ url: URL_, html }).slice(0, -2), 'INVALID_JSON'],
    ];
    for (const [body, code] of cases) {
      await settled();
      tasks.length = 0;
      const res = await gw.post('/v1/extract', body);
      assert.equal(res.status, 400, code);
      assert.equal((await res.json()).error.code, code);
      assert.deepEqual(tasks, ['extractRaw'], 'started early, then dropped');
    }
    await settled();
    const ok = await gw.post('/v1/extract', { url: URL_, html });
    assert.equal(ok.status, 200);
  });
});

describe('inputFromRawBody (the worker side)', () => {
  const raw = (v: unknown) => new Uint8Array(Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)));

  it('gives the handler\'s input for a valid body', () => {
    assert.deepEqual(inputFromRawBody(raw({ url: 'https://Example.test/x?y#z', html: '<p>é🚀</p>', include_links: false })), {
      html: '<p>é🚀</p>',
      url: 'https://example.test/x?y#z',
      includeLinks: false,
    });
    assert.equal(inputFromRawBody(raw({ url: URL_, html: '<p>x</p>' }))!.includeLinks, true);
  });

  it('gives null for every body the gateway refuses, and for a body with nothing to extract', () => {
    const bad = [
      raw('{"url": "https://x.test/", "html": "<p>'),
      raw('[1, 2]'),
      raw({ url: 'https://x.test/' }),
      raw({ url: 'notaurl', html: '<p>x</p>' }),
      raw({ url: 'https://[x/', html: '<p>x</p>' }),
      raw({ url: 'https://x.test/', html: 42 }),
      new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]), // {"\xff":1}: not UTF-8
      raw('['.repeat(200) + ']'.repeat(200)),
    ];
    for (const b of bad) assert.equal(inputFromRawBody(b), null);
  });

  it('reads only its view of a larger buffer', () => {
    const whole = Buffer.from('xxxx{"url":"https://x.test/","html":"<p>in</p>"}yyyy');
    const view = new Uint8Array(whole.buffer, whole.byteOffset + 4, whole.length - 8);
    assert.equal(inputFromRawBody(view)!.html, '<p>in</p>');
  });
});
