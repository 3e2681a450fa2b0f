/**
 * GET /docs: an interactive API reference (Swagger UI) built from /v1/openapi.json, and GET / ->
 * 302 /docs. Every asset comes from the npm package `swagger-ui-dist` (installed by `npm ci`) and
 * is served by the gateway itself: no CDN, no network (docs/client-and-docs.md says why Swagger UI
 * and not Scalar).
 *
 * Cost: nothing at boot and nothing on other routes (a few more entries in the exact-path route
 * map). The files are read once, on the first request of any docs route, and kept in memory
 * (~2 MB). Asset URLs carry a content hash (`?v=`), so they are cached for a year; the page
 * itself is revalidated (`no-cache`). The routes are not API operations: no key, not counted,
 * left out of the OpenAPI document (`hidden`).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { RawReply, type RouteDef } from '../../server/types.ts';

const require = createRequire(import.meta.url);

export const DOCS_PATH = '/docs';
const ASSET_PREFIX = '/docs/assets/';

/** The page's only script besides the bundle: external, so the CSP needs no 'unsafe-inline' for scripts. */
const INIT_JS = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/v1/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    displayOperationId: true,
    displayRequestDuration: true,
    defaultModelsExpandDepth: 0,
    tryItOutEnabled: false,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout'
  });
});
`;

/**
 * Swagger UI sets inline styles and shows inline SVG/data: images; it talks only to this origin
 * (the document and try-it calls), so connect-src 'self' also guarantees no request leaves it.
 */
const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'self'";

interface Asset {
  readonly name: string;
  readonly contentType: string;
  readonly body: Uint8Array;
}

interface DocsBundle {
  readonly page: RawReply;
  readonly assets: ReadonlyMap<string, RawReply>;
}

function hash(body: Uint8Array): string {
  return createHash('sha256').update(body).digest('hex').slice(0, 12);
}

/** Reads swagger-ui-dist once; the page links each asset with its content hash. */
function loadBundle(): DocsBundle {
  const dist = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  const file = (name: string): Uint8Array => readFileSync(path.join(dist, name));
  const list: Asset[] = [
    { name: 'swagger-ui.css', contentType: 'text/css; charset=utf-8', body: file('swagger-ui.css') },
    { name: 'swagger-ui-bundle.js', contentType: 'text/javascript; charset=utf-8', body: file('swagger-ui-bundle.js') },
    { name: 'favicon-32x32.png', contentType: 'image/png', body: file('favicon-32x32.png') },
    { name: 'init.js', contentType: 'text/javascript; charset=utf-8', body: Buffer.from(INIT_JS) },
  ];
  const assets = new Map<string, RawReply>();
  const urls: Record<string, string> = {};
  for (const a of list) {
    urls[a.name] = `${ASSET_PREFIX}${a.name}?v=${hash(a.body)}`;
    assets.set(a.name, new RawReply(a.body, a.contentType, 200, { 'cache-control': 'public, max-age=31536000, immutable', 'x-content-type-options': 'nosniff' }));
  }
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>LLM &amp; payments gateway: API reference</title>
<link rel="icon" type="image/png" href="${urls['favicon-32x32.png']}">
<link rel="stylesheet" href="${urls['swagger-ui.css']}">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${urls['swagger-ui-bundle.js']}"></script>
<script src="${urls['init.js']}"></script>
</body>
</html>
`;
  const page = new RawReply(html, 'text/html; charset=utf-8', 200, {
    'cache-control': 'no-cache',
    'content-security-policy': CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  });
  return { page, assets };
}

/** GET /, GET /docs and GET /docs/assets/<file>. */
export function docsRoutes(): RouteDef[] {
  let bundle: DocsBundle | null = null;
  const get = (): DocsBundle => (bundle ??= loadBundle());
  const redirect = new RawReply('See /docs\n', 'text/plain; charset=utf-8', 302, { location: DOCS_PATH });
  const names = ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png', 'init.js'];
  return [
    { method: 'GET', paths: ['/'], hidden: true, summary: 'Redirect to /docs', produces: 'text/plain', handler: () => redirect },
    { method: 'GET', paths: [DOCS_PATH, `${DOCS_PATH}/`], hidden: true, summary: 'Interactive API reference', produces: 'text/html', handler: () => get().page },
    ...names.map(
      (name): RouteDef => ({
        method: 'GET',
        paths: [`${ASSET_PREFIX}${name}`],
        hidden: true,
        summary: `API reference asset ${name}`,
        handler: () => get().assets.get(name)!,
      }),
    ),
  ];
}
