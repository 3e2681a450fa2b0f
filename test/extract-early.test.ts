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
import { parseJsonObject } from '../src/server/body.ts';
import { inputFromRawBody, oneByteJson, parsePageShaped, parseRequestBody } from '../src/services/web-to-markdown/raw-input.ts';
import { EARLY_MIN_BYTES } from '../src/services/web-to-markdown/route.ts';
import { startTestGateway, type TestGateway } from './helpers/gateway.ts';
import { seededText } from './helpers/rng.ts';

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

describe('parseRequestBody (the worker\'s short way for page-shaped bodies)', () => {
  const buf = (text: string) => Buffer.from(text);
  /** A page of `n` characters: ASCII markup with the given characters sprinkled in (seeded). */
  const page = (n: number, extra: readonly string[], seed = 1) =>
    seededText(seed, n, ['<p class="a">', 'text ', '\n', '\t', '"', '\\', '/', '</p>', ...extra]);
  const widths = ['é', '\u00a0', 'ÿ', 'ő', 'ж', 'ا', '€', '–', '数', '🚀', '\ud800', '\udfff', '\u2028', '\u0001', '\u007f', '\ufeff'];

  it('gives the gateway\'s object the short way for the usual shapes and characters', () => {
    const pages = [
      page(5000, []), // ASCII only
      page(5000, ['é', 'ÿ', '\u00a0']), // Latin-1 only: a one-byte page
      page(40_000, widths), // every width, across many probes
      'x'.repeat(3000) + '🚀' + 'y'.repeat(3000) + '€', // characters on probe edges
      page(20_000, ['数数数数数数数数', '中文']), // dense: the plain UTF-8 decode inside the short way
      '',
    ];
    for (const [k, html] of pages.entries()) {
      const bodies = [
        JSON.stringify({ url: URL_, html }),
        JSON.stringify({ html, url: URL_ }),
        JSON.stringify({ url: URL_, html, include_links: false, n: -1.5e3, z: null, s: 'plain' }),
        JSON.stringify({ url: URL_, html, include_links: true }, null, 2),
        ` \r\n\t${JSON.stringify({ a: { html: 'nested' }, b: [1, { c: 'x\\"y' }], url: URL_, html })}\n`,
      ];
      for (const [j, body] of bodies.entries()) {
        const raw = buf(body);
        const want = parseJsonObject(raw);
        assert.deepEqual(parsePageShaped(raw), want, `page ${k}, body ${j}: short way`);
        assert.deepEqual(parseRequestBody(raw), want, `page ${k}, body ${j}`);
      }
    }
  });

  it('leaves every other shape to the gateway\'s parse, with the same object', () => {
    const html = page(3000, widths);
    const bodies = [
      JSON.stringify({ url: URL_, html, note: 'has a \\ backslash' }), // a later string with escapes
      JSON.stringify({ url: URL_, html, more: { deep: [1] } }), // a later member that nests
      `{"url":"${URL_}","html":${JSON.stringify(html)},"html":"later"}`, // a later html member wins
      `{"url":"${URL_}","html":${JSON.stringify(html)},"html":0}`,
      `{"url":"${URL_}","ht\\u006dl":${JSON.stringify(html)}}`, // the key written with an escape
      `{"url":"${URL_}","html":"an earlier one","html":${JSON.stringify(html)}}`, // only the first is looked at
      `\ufeff${JSON.stringify({ url: URL_, html })}`, // a byte order mark (the decoder drops it)
      JSON.stringify({ url: URL_, html: 42 }),
      JSON.stringify({ url: URL_ }),
    ];
    for (const [j, body] of bodies.entries()) {
      const raw = buf(body);
      assert.equal(parsePageShaped(raw), undefined, `body ${j}`);
      assert.deepEqual(parseRequestBody(raw), parseJsonObject(raw), `body ${j}`);
    }
  });

  it('agrees with the gateway on seeded random bodies around the page shape, and the worker\'s input too', () => {
    const alphabet = ['a', 'Z', 'é', '数', '🚀', '"', '\\', '\\"', '\\\\', '\\u00e9', '\\ud83d\\ude80', '\\ud800', '\\n', '\n', ' ', '{', '}', '[', ']', ':', ',', '"html":', '0', 'true', '\u2028', '\x01'];
    let accepted = 0;
    for (let seed = 1; seed <= 3000; seed++) {
      const junk = (n: number) => seededText(seed * 7 + n, n, alphabet);
      const html = junk(seed % 300);
      const page = JSON.stringify(junk(seed % 500));
      const shapes = [
        `{"url":"${URL_}","html":"${html}"}`,
        `{"url":"${URL_}"${junk(seed % 7)},"html":"${html}"${junk(seed % 5)}}`,
        `{"html":${page}, "url" : "${URL_}" , "include_links":false } `,
        `{"url":"${URL_}","html":${page}${junk(seed % 4)}}`,
        `{"url":"${URL_}","html":${page}}`,
      ];
      const raw = buf(shapes[seed % shapes.length]!);
      if (seed % 5 === 0) raw[(seed * 31) % raw.length] = (seed * 17) % 256; // a corrupted byte
      let want: Record<string, unknown> | undefined;
      try {
        want = parseJsonObject(raw);
      } catch {
        inputFromRawBody(raw); // refused by the gateway: anything but a hang or a crash
        continue;
      }
      accepted++;
      assert.deepEqual(parseRequestBody(raw), want, `seed ${seed}`);
    }
    assert.ok(accepted > 500, `${accepted} accepted bodies`);
  });

  it('gives null for page-shaped bodies the gateway refuses', () => {
    // Sparse non-ASCII: the one-byte text, whose UTF-8 checks are the short way's own.
    const ok = JSON.stringify({ url: URL_, html: ['é', '🚀', '€'].map((c, i) => page(3000, [], i) + c).join('') });
    const broken = (at: number, bytes: number[]) => {
      const raw = buf(ok);
      const i = raw.indexOf('</p>', at);
      return new Uint8Array(Buffer.concat([raw.subarray(0, i), Buffer.from(bytes), raw.subarray(i)]));
    };
    const bad = [
      broken(2000, [0xff]), // not UTF-8
      broken(2000, [0xc3]), // a cut sequence
      broken(2000, [0xed, 0xa0, 0x80]), // a surrogate in UTF-8
      broken(2000, [0xe0, 0x81, 0x81]), // overlong 'A'
      broken(2000, [0xc1, 0x81]),
      broken(2000, [0xf0, 0x80, 0x81, 0x81]),
      broken(2000, [0xf4, 0x90, 0x80, 0x80]), // past U+10FFFF
      broken(2000, [0x80]), // a stray continuation byte
      broken(2000, [0x01]), // a raw control character in a string
      broken(2000, [0x5c, 0x78]), // \x: no such escape
      broken(2000, [0x5c, 0x75, 0x31, 0x32]), // \u12 followed by markup
      broken(2000, [0x22]), // an unescaped quote
      new Uint8Array(buf(`{"x":${'['.repeat(200)}${']'.repeat(200)},"url":"${URL_}","html":"<p>x</p>"}`)), // too deep
      new Uint8Array(buf(ok.slice(0, -2))), // cut
    ];
    for (const [j, raw] of bad.entries()) {
      assert.throws(() => parseJsonObject(Buffer.from(raw)), `body ${j} is refused by the gateway`);
      assert.equal(inputFromRawBody(raw), null, `body ${j}`);
    }
  });

  it('parses a page-shaped body on the worker without a two-byte copy of the whole body', () => {
    const html = widths.map((c, i) => page(3000, [], i) + c).join('');
    const raw = new Uint8Array(buf(JSON.stringify({ url: URL_, html, include_links: false })));
    const parse = JSON.parse;
    const texts: string[] = [];
    JSON.parse = (text: string, reviver?: Parameters<typeof parse>[1]) => {
      texts.push(text);
      return parse(text, reviver);
    };
    let input: ReturnType<typeof inputFromRawBody>;
    try {
      input = inputFromRawBody(raw);
    } finally {
      JSON.parse = parse;
    }
    assert.deepEqual(input, { html, url: URL_, includeLinks: false });
    assert.ok(texts.length > 0 && texts.every((t) => !/[^\u0000-\u00ff]/.test(t)), 'every text JSON.parse saw is one-byte');
    assert.ok(texts.some((t) => t.length > html.length), 'the page went through JSON.parse in one piece');
  });

  it('stays linear on hostile bodies of 1 MiB', () => {
    const n = 1 << 20;
    const bodies = [
      '['.repeat(n),
      `{"x":${'['.repeat(n / 2 - 8)}${']'.repeat(n / 2 - 8)},"html":"x"}`,
      `{"html":"x"${',"a":"b"'.repeat(n / 8 - 2)}}`,
      `{"html":"x"${',"a":1'.repeat(n / 6 - 2)}}`,
      `{"html":"${'\\"'.repeat(n / 2 - 8)}"}`,
      `{"html":"${'a'.repeat(n - 16)}}`,
      `{"url":"${URL_}","html":"${'数'.repeat(n / 3 - 20)}"}`,
      `{"url":"${URL_}","html":"${('a'.repeat(60) + '🚀').repeat(n / 64 - 2)}"}`,
    ];
    for (const [j, body] of bodies.entries()) {
      const raw = new Uint8Array(buf(body));
      const t0 = performance.now();
      inputFromRawBody(raw);
      // ~1-20 ms here; a quadratic scan or a JSON.parse of deep nesting would take far longer.
      assert.ok(performance.now() - t0 < 400, `body ${j} took ${(performance.now() - t0).toFixed(0)} ms`);
    }
  });

  it('turns a page into a one-byte JSON text that parses to the same string', () => {
    const sparse = widths.map((c, i) => page(3000, [], i) + c).join('');
    const latin1 = ['é', 'ÿ', '\u00a0'].map((c, i) => page(3000, [], i) + c).join('');
    for (const [k, html] of [sparse, latin1, 'plain ascii'].entries()) {
      const raw = buf(JSON.stringify(html));
      const text = oneByteJson(raw, 0, raw.length)!;
      assert.ok(text !== null, `page ${k}`);
      for (let i = 0; i < text.length; i++) assert.ok(text.charCodeAt(i) <= 0xff, `page ${k}: one-byte at ${i}`);
      assert.equal(JSON.parse(text), html, `page ${k}`);
    }
    const dense = buf(JSON.stringify('数'.repeat(5000)));
    assert.equal(oneByteJson(dense, 0, dense.length), null, 'dense non-ASCII: left to the UTF-8 decode');
  });
});
