/** POST /v1/extract and /v1/api/01-web-to-markdown (CONTRACT.md §2, §5 API-01). */
import { createError } from '../../errors.ts';
import type { SafeFetcher } from '../../fetch/index.ts';
import { taskRef, type WorkerPool } from '../../pool/worker-pool.ts';
import type { RouteDef } from '../../server/types.ts';
import { withHtmlTokens, type ExtractedBody, type ExtractInput } from './core.ts';
import { ExtractRequest, ExtractResponse } from './schema.ts';
import { IdleEstimate } from './split-estimate.ts';

export const WEB_TO_MARKDOWN_LABEL = '[API-01] Web to Markdown';

export const EXTRACT_TASK = taskRef(new URL('../../../workers/web-to-markdown.ts', import.meta.url), 'extract');

export function webToMarkdownRoute(deps: { pool: WorkerPool; fetcher: SafeFetcher }): RouteDef {
  return {
    method: 'POST',
    paths: ['/v1/extract', '/v1/api/01-web-to-markdown'],
    api: WEB_TO_MARKDOWN_LABEL,
    service: 'API-01',
    summary: 'Fetch a web page (or take its HTML) and return its main content as Markdown',
    description:
      'Fetching refuses non-public addresses, other ports than 80/443/FETCH_ALLOWED_PORTS and URLs with credentials (422 URL_BLOCKED), ' +
      'follows at most 5 redirects (each checked again) and caps size (FETCH_MAX_BYTES) and time (FETCH_TIMEOUT_MS). ' +
      'With `html` nothing is fetched and `url` only resolves relative links.',
    body: ExtractRequest,
    response: ExtractResponse,
    errors: ['URL_BLOCKED', 'UPSTREAM_FAILED', 'UPSTREAM_TIMEOUT', 'OVERLOADED'],
    handler: async (ctx) => {
      const body = ctx.body as ExtractRequest;
      let url: URL;
      try {
        url = new URL(body.url);
      } catch {
        throw createError('VALIDATION_FAILED', 'Request body failed validation', { details: [{ path: '/url', message: 'Expected an absolute http(s) URL' }] });
      }
      const includeLinks = body.include_links ?? true;
      let input: ExtractInput;
      if (body.html !== undefined) {
        input = { html: body.html, url: url.href, includeLinks };
      } else {
        const page = await deps.fetcher.fetch(url, ctx.signal);
        input = { html: page.text, url: page.url, includeLinks, isHtml: page.isHtml };
      }
      // The worker extracts; the event loop meanwhile scans the page for the HTML token estimate
      // (split-estimate.ts: the worker scans what is left when it is done first).
      const estimate = new IdleEstimate(input.html);
      const running = deps.pool.run<ExtractedBody>(EXTRACT_TASK, { ...input, estimate: estimate.buffer }, ctx.signal);
      estimate.start();
      let extracted: ExtractedBody;
      try {
        extracted = await running;
      } finally {
        estimate.stop();
      }
      const result = withHtmlTokens(extracted, estimate.total());
      return {
        url: input.url,
        ...(result.title !== null ? { title: result.title } : {}),
        markdown: result.markdown,
        markdown_length: result.markdownLength,
        tokens_saved_estimate: result.tokensSaved,
      };
    },
  };
}
