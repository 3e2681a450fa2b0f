/**
 * API-01 web to Markdown: SSRF-safe fetching (src/fetch) + main-content extraction on the worker
 * pool (workers/web-to-markdown.ts). See docs/api-01-web-to-markdown.md.
 */
import { SafeFetcher, type Resolver } from '../../fetch/index.ts';
import type { buildConnector } from 'undici';
import type { ServiceFactory } from '../types.ts';
import { BODY_ALLOWANCE_BYTES, EXTRACT_TASK, webToMarkdownRoute } from './route.ts';

export interface WebToMarkdownOptions {
  /** Host name resolver (tests map made-up names to addresses); default the system resolver. */
  readonly resolver?: Resolver;
  /** Low-level connector (tests record the pinned target without opening sockets). */
  readonly connector?: buildConnector.connector;
}

/** Builds the API-01 factory; options exist for tests, production uses `webToMarkdownService`. */
export function createWebToMarkdownService(options: WebToMarkdownOptions = {}): ServiceFactory {
  return (deps) => {
    const f = deps.config.fetch;
    const fetcher = new SafeFetcher({
      allowedPorts: f.allowedPorts,
      maxBytes: f.maxBytes,
      timeoutMs: f.timeoutMs,
      allowPrivate: f.allowPrivate,
      ...(options.resolver ? { resolver: options.resolver } : {}),
      ...(options.connector ? { connector: options.connector } : {}),
    });
    if (f.allowPrivate) deps.logger.warn('FETCH_ALLOW_PRIVATE is on: API-01 may fetch private and loopback addresses (tests and local use only)');
    return {
      id: 'API-01',
      routes: [webToMarkdownRoute({ pool: deps.pool, fetcher, maxBodyBytes: f.maxBytes + BODY_ALLOWANCE_BYTES })],
      health: () => 'up',
      // Every worker loads the extractor (htmlparser2, tokenizer tables) before the first request.
      warmup: () => deps.pool.warm(EXTRACT_TASK, { html: '<article><h1>t</h1><p>warm up</p></article>', url: 'https://example.com/', includeLinks: true }),
    };
  };
}

export const webToMarkdownService: ServiceFactory = createWebToMarkdownService();
