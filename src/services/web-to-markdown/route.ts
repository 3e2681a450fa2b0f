/** POST /v1/extract and /v1/api/01-web-to-markdown (CONTRACT.md §2, §5 API-01). */
import type { SafeFetcher } from '../../fetch/index.ts';
import { taskRef, type WorkerPool } from '../../pool/worker-pool.ts';
import type { RouteDef } from '../../server/types.ts';
import { withHtmlTokens, type ExtractedBody, type ExtractInput } from './core.ts';
import { htmlInput, requestUrl } from './raw-input.ts';
import { ExtractRequest, ExtractResponse } from './schema.ts';
import { IdleEstimate } from './split-estimate.ts';

export const WEB_TO_MARKDOWN_LABEL = '[API-01] Web to Markdown';

export const EXTRACT_TASK = taskRef(new URL('../../../workers/web-to-markdown.ts', import.meta.url), 'extract');
/** The early start: the raw body, parsed on the worker (workers/web-to-markdown.ts). */
export const EXTRACT_RAW_TASK = taskRef(new URL('../../../workers/web-to-markdown.ts', import.meta.url), 'extractRaw');

/**
 * Bodies from this size on start early on an idle worker (RouteDef.early). Below it the event
 * loop parses a body in ~0.05 ms and hands the page over in less: the early start gains nothing.
 */
export const EARLY_MIN_BYTES = 32 * 1024;

/** Room for the JSON around a posted page: `url`, `include_links`, quotes and escapes (CONTRACT.md §3). */
export const BODY_ALLOWANCE_BYTES = 64 * 1024;

/**
 * `maxBodyBytes`: the route's body limit, FETCH_MAX_BYTES + BODY_ALLOWANCE_BYTES, so that a page
 * the gateway would fetch can also be posted as `html`.
 */
export function webToMarkdownRoute(deps: { pool: WorkerPool; fetcher: SafeFetcher; maxBodyBytes: number }): RouteDef {
  return {
    method: 'POST',
    paths: ['/v1/extract', '/v1/api/01-web-to-markdown'],
    api: WEB_TO_MARKDOWN_LABEL,
    service: 'API-01',
    summary: 'Fetch a web page (or take its HTML) and return its main content as Markdown',
    description:
      'Accepts bodies up to FETCH_MAX_BYTES + 64 KiB (other routes: MAX_BODY_BYTES). Fetching refuses non-public addresses and special-use names (localhost, .local, .internal, .home.arpa, .onion), other ports than 80/443/FETCH_ALLOWED_PORTS and URLs with credentials (422 URL_BLOCKED), ' +
      'follows at most 5 redirects (each checked again) and caps size (FETCH_MAX_BYTES) and time (FETCH_TIMEOUT_MS). ' +
      'With `html` nothing is fetched and `url` only resolves relative links.',
    body: ExtractRequest,
    response: ExtractResponse,
    errors: ['URL_BLOCKED', 'UPSTREAM_FAILED', 'UPSTREAM_TIMEOUT', 'OVERLOADED'],
    maxBodyBytes: deps.maxBodyBytes,
    early: (raw) => {
      // Big bodies only (a fetch request is never this big), and only when a worker would start
      // it at once: busy workers are better used for requests that passed validation.
      if (raw.byteLength < EARLY_MIN_BYTES || !deps.pool.hasIdleThread()) return undefined;
      // Structured clone copies a view's whole ArrayBuffer: hand over exactly the body.
      const own = raw.byteOffset === 0 && raw.byteLength === raw.buffer.byteLength ? raw : Uint8Array.prototype.slice.call(raw);
      const running = deps.pool.run<ExtractedBody | null>(EXTRACT_RAW_TASK, own);
      running.catch(() => {}); // a refused request drops it; the handler awaits it otherwise
      return running;
    },
    handler: async (ctx) => {
      const body = ctx.body as ExtractRequest;
      const url = requestUrl(body);
      let input: ExtractInput;
      if (body.html !== undefined) {
        input = htmlInput(body as ExtractRequest & { html: string }, url);
      } else {
        const page = await deps.fetcher.fetch(url, ctx.signal);
        input = { html: page.text, url: page.url, includeLinks: body.include_links ?? true, isHtml: page.isHtml };
      }
      // The worker extracts; the event loop meanwhile scans the page for the HTML token estimate
      // (split-estimate.ts: the worker scans what is left when it is done first). Started early,
      // the worker has been parsing the raw body since it arrived and leaves the estimate here.
      const estimate = new IdleEstimate(input.html);
      const early = body.html !== undefined ? (ctx.early as Promise<ExtractedBody | null> | undefined) : undefined;
      const normal = (): Promise<ExtractedBody> => deps.pool.run<ExtractedBody>(EXTRACT_TASK, { ...input, estimate: estimate.buffer }, ctx.signal);
      const running = early === undefined ? normal() : early.then((r) => r ?? normal());
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
