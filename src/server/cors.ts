/**
 * CORS (Fetch standard, "CORS protocol"): CORS_ORIGINS lists the origins allowed, `*` any.
 * Simple requests get Access-Control-Allow-Origin; preflights (OPTIONS with
 * Access-Control-Request-Method) get the methods of the route and the headers the gateway reads.
 */
export const CORS_ALLOWED_HEADERS = ['content-type', 'authorization', 'x-api-key', 'x-request-id'];
const EXPOSED = 'x-request-id, ratelimit-limit, ratelimit-remaining, ratelimit-reset, retry-after';
const MAX_AGE = '600';

export class CorsPolicy {
  readonly #any: boolean;
  readonly #origins: ReadonlySet<string>;

  constructor(origins: readonly string[] | '*') {
    this.#any = origins === '*';
    this.#origins = new Set(origins === '*' ? [] : origins);
  }

  get enabled(): boolean {
    return this.#any || this.#origins.size > 0;
  }

  #allowed(origin: string | undefined): string | null {
    if (origin === undefined || origin === '') return null;
    if (this.#any) return '*';
    return this.#origins.has(origin) ? origin : null;
  }

  /** Headers for an actual (non-preflight) response, or null. */
  responseHeaders(origin: string | undefined): Array<[string, string]> | null {
    const allow = this.#allowed(origin);
    if (allow === null) return null;
    const headers: Array<[string, string]> = [
      ['access-control-allow-origin', allow],
      ['access-control-expose-headers', EXPOSED],
    ];
    if (allow !== '*') headers.push(['vary', 'Origin']);
    return headers;
  }

  /** Headers for a preflight; null when the origin or method is not allowed (browser then fails). */
  preflightHeaders(origin: string | undefined, requestedMethod: string, methods: readonly string[], requestedHeaders: string | undefined): Array<[string, string]> | null {
    const allow = this.#allowed(origin);
    if (allow === null || !methods.includes(requestedMethod.toUpperCase())) return null;
    if (requestedHeaders) {
      for (const h of requestedHeaders.split(',')) {
        const name = h.trim().toLowerCase();
        if (name !== '' && !CORS_ALLOWED_HEADERS.includes(name)) return null;
      }
    }
    const headers: Array<[string, string]> = [
      ['access-control-allow-origin', allow],
      ['access-control-allow-methods', [...methods, 'OPTIONS'].join(', ')],
      ['access-control-allow-headers', CORS_ALLOWED_HEADERS.join(', ')],
      ['access-control-max-age', MAX_AGE],
      ['vary', 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers'],
    ];
    return headers;
  }
}
