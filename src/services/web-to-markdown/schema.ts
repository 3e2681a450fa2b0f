/** API-01 request and response bodies (CONTRACT.md §5): the validator and the OpenAPI document. */
import { Type, type Static } from '@sinclair/typebox';

/** Longest `url` accepted (CONTRACT.md §5). */
export const MAX_URL_CHARS = 2048;
/**
 * Longest `html` accepted (characters): the largest FETCH_MAX_BYTES config allows. The route's body
 * limit (FETCH_MAX_BYTES + 64 KiB, CONTRACT.md §3) always binds first.
 */
export const MAX_HTML_CHARS = 1024 * 1024 * 1024;

export const ExtractRequest = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: MAX_URL_CHARS,
      // Scheme only; the rest is parsed by the WHATWG URL parser in the handler.
      pattern: '^[Hh][Tt][Tt][Pp][Ss]?://',
      description: 'http(s) URL of the page; with `html`, only the base for relative links',
    }),
    include_links: Type.Optional(Type.Boolean({ default: true, description: 'Keep link targets and images; false keeps link text only' })),
    html: Type.Optional(Type.String({ maxLength: MAX_HTML_CHARS, description: 'Extract from this HTML instead of fetching `url`' })),
  },
  {
    additionalProperties: true,
    // Examples carry `html` so that trying them fetches nothing.
    examples: [
      {
        url: 'https://example.org/blog/post',
        html: '<html><head><title>A post about examples</title></head><body><nav><a href="/">Home</a></nav><article><h1>Examples</h1><p>Examples make an API <em>easy</em> to try; see <a href="/docs">the docs</a>.</p></article></body></html>',
      },
      { url: 'https://example.org/', html: '<ul><li>One</li><li>Two <a href="/two">link</a></li></ul>', include_links: false },
    ],
  },
);
export type ExtractRequest = Static<typeof ExtractRequest>;

export const ExtractResponse = Type.Object({
  url: Type.String({ description: 'The page URL (after redirects when fetched)' }),
  title: Type.Optional(Type.String({ description: 'Page title (og:title, else <title>), when found' })),
  markdown: Type.String(),
  markdown_length: Type.Integer({ minimum: 0, description: 'Characters (Unicode code points) of `markdown`' }),
  tokens_saved_estimate: Type.Integer({
    minimum: 0,
    description: 'o200k_base tokens of the raw HTML (calibrated estimate) minus the exact tokens of `markdown`, never below 0',
  }),
});
export type ExtractResponse = Static<typeof ExtractResponse>;
