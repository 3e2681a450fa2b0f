/**
 * GET /docs (CONTRACT.md §2): the try-it page over HTTP, then in a real headless Chromium (the
 * Debian package `chromium` driven by puppeteer-core, which never downloads a browser). Without a
 * browser the Chromium tests report themselves skipped with the reason.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { issueKeys } from './helpers/auth-fixture.ts';
import { startTestGateway, type TestGateway } from './helpers/gateway.ts';

/** CHROMIUM_PATH when set (only it), else the Debian binary. */
function findChromium(): string | null {
  const candidates = process.env.CHROMIUM_PATH ? [process.env.CHROMIUM_PATH] : ['/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((c) => existsSync(c)) ?? null;
}

const assetUrls = (html: string): string[] => [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);

describe('GET /docs over HTTP', () => {
  let gw: TestGateway;
  let key: string;
  before(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'gw-docs-'));
    const keysFile = path.join(dataDir, 'keys.json');
    key = issueKeys(keysFile, [{ tenant: 't', plan: 'free' }])[0]!.key;
    // Keys required: the page and its assets must still need none.
    gw = await startTestGateway({ env: { AUTH_MODE: 'required', RATE_LIMIT_RPS: '0', DATA_DIR: dataDir, API_KEYS_FILE: keysFile } });
  });
  after(() => gw.close());

  it('redirects GET / to /docs', async () => {
    const res = await fetch(`${gw.url}/`, { redirect: 'manual' });
    assert.equal(res.status, 302);
    assert.equal(res.headers.get('location'), '/docs');
  });

  it('serves the page without a key, revalidated, under a CSP that allows only this origin', async () => {
    for (const p of ['/docs', '/docs/']) {
      const res = await gw.get(p);
      assert.equal(res.status, 200, p);
      assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.equal(res.headers.get('cache-control'), 'no-cache');
      const csp = res.headers.get('content-security-policy') ?? '';
      assert.match(csp, /default-src 'self'/);
      assert.match(csp, /connect-src 'self'/);
      const html = await res.text();
      assert.match(html, /<div id="swagger-ui">/);
      // Every asset from the gateway itself: no absolute URL, so no CDN.
      const urls = assetUrls(html);
      assert.equal(urls.length, 4);
      for (const u of urls) assert.match(u, /^\/docs\/assets\/[\w.-]+\?v=[0-9a-f]{12}$/, u);
    }
  });

  it('serves every asset from swagger-ui-dist with its content type and a one-year immutable cache', async () => {
    const html = await (await gw.get('/docs')).text();
    const expected: Record<string, string> = {
      'swagger-ui.css': 'text/css; charset=utf-8',
      'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
      'init.js': 'text/javascript; charset=utf-8',
      'favicon-32x32.png': 'image/png',
    };
    for (const u of assetUrls(html)) {
      const name = u.slice('/docs/assets/'.length, u.indexOf('?'));
      const res = await gw.get(u);
      assert.equal(res.status, 200, u);
      assert.equal(res.headers.get('content-type'), expected[name], u);
      assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      const body = Buffer.from(await res.arrayBuffer());
      assert.ok(body.length > (name === 'init.js' ? 100 : 500), `${name}: ${body.length} bytes`);
    }
    const bundle = await (await gw.get('/docs/assets/swagger-ui-bundle.js')).text();
    assert.match(bundle, /SwaggerUIBundle/);
    const init = await (await gw.get('/docs/assets/init.js')).text();
    assert.match(init, /url: '\/v1\/openapi\.json'/);
    assert.match(init, /validatorUrl: null/, 'the validator badge would call validator.swagger.io');
  });

  it('does not count the page against the caller\'s quota', async () => {
    const usage = async () => ((await (await gw.get('/v1/usage', { authorization: `Bearer ${key}` })).json()) as { services: Record<string, { used: number }> }).services;
    const before = JSON.stringify(await usage());
    for (const p of ['/', '/docs', '/docs/assets/init.js']) await gw.get(p, { authorization: `Bearer ${key}` });
    assert.equal(JSON.stringify(await usage()), before);
  });

  it('answers 404 for an asset it does not serve and 405 for POST /docs', async () => {
    assert.equal((await gw.get('/docs/assets/swagger-ui.js.map')).status, 404);
    assert.equal((await gw.get('/docs/assets/../package.json')).status, 404);
    const post = await gw.post('/docs', {});
    assert.equal(post.status, 405);
  });
});

describe('GET /docs in headless Chromium', () => {
  const chromium = findChromium();
  let gw: TestGateway;
  before(async () => {
    if (chromium) gw = await startTestGateway();
  });
  after(() => gw?.close());

  it('lists every operation and makes a try-it call of POST /v1/sepa/vop that shows SUCCESS_VERIFIED', { timeout: 120_000 }, async (t) => {
    if (!chromium) {
      t.skip(`no Chromium at ${process.env.CHROMIUM_PATH || '/usr/bin/chromium'} (apt-get install chromium, or set CHROMIUM_PATH)`);
      return;
    }
    const puppeteer = (await import('puppeteer-core')).default;
    const doc = (await (await gw.get('/v1/openapi.json')).json()) as { paths: Record<string, Record<string, { operationId: string }>> };
    const operationIds = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    const browser = await puppeteer.launch({
      executablePath: chromium,
      headless: true,
      // --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
    try {
      const page = await browser.newPage();
      await page.setViewport({ width: 1280, height: 900 });
      const foreign: string[] = [];
      const failed: string[] = [];
      page.on('request', (req) => {
        if (!req.url().startsWith(`${gw.url}/`) && !req.url().startsWith('data:')) foreign.push(req.url());
      });
      page.on('requestfailed', (req) => failed.push(req.url()));
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(String(err)));

      // GET / redirects to the page.
      const response = await page.goto(`${gw.url}/`, { waitUntil: 'networkidle0' });
      assert.equal(new URL(page.url()).pathname, '/docs');
      assert.equal(response?.status(), 200);
      await page.waitForSelector('.opblock', { timeout: 30_000 });

      const shown = await page.$$eval('.opblock-summary-operation-id', (els) => els.map((e) => e.textContent?.trim() ?? ''));
      assert.deepEqual([...shown].sort(), [...operationIds].sort(), 'every operation of /v1/openapi.json, by its operationId');

      // Open POST /v1/sepa/vop, "Try it out", check the example body, "Execute".
      const handle = await page.evaluateHandle(() =>
        [...document.querySelectorAll('.opblock')].find((b) => b.querySelector('.opblock-summary-operation-id')?.textContent?.trim() === 'sepaVoP'),
      );
      const block = handle.asElement() as import('puppeteer-core').ElementHandle<Element> | null;
      assert.ok(block, 'no operation block for sepaVoP');
      const summary = await block.$('.opblock-summary-control');
      await summary!.click();
      const tryOut = await block.waitForSelector('.try-out__btn');
      await tryOut!.click();
      const textarea = await block.waitForSelector('textarea.body-param__text');
      const requestBody = JSON.parse((await textarea!.evaluate((el) => (el as HTMLTextAreaElement).value)) as string) as Record<string, string>;
      assert.deepEqual(requestBody, { iban: 'DE89 3704 0044 0532 0130 00', beneficiary_name: 'Max Mustermann' });
      const execute = await block.waitForSelector('.execute');
      await execute!.click();
      const live = await block.waitForSelector('.live-responses-table .response', { timeout: 30_000 });
      const liveText = (await live!.evaluate((el) => el.textContent ?? '')) as string;
      assert.match(liveText, /SUCCESS_VERIFIED/);
      assert.match(liveText, /^\s*200/);
      await live!.scrollIntoView();

      const dir = mkdtempSync(path.join(tmpdir(), 'docs-browser-'));
      const shot = path.join(dir, 'docs-try-it.png');
      await page.screenshot({ path: shot });
      assert.ok(statSync(shot).size > 10_000);
      t.diagnostic(`screenshot: ${shot}`);

      assert.deepEqual(foreign, [], 'the page requested something from another origin');
      assert.deepEqual(failed, [], 'a request of the page failed');
      assert.deepEqual(errors, [], 'the page threw');
    } finally {
      await browser.close();
    }
  });
});
