/**
 * SSRF-safe page fetching with undici (CONTRACT.md §5 API-01).
 *
 *   url --checkTarget--> (address checked) --Client(connect pinned to that address)--> response
 *        ^                                                                               |
 *        +-------------- 3xx Location, at most `maxRedirects`, each checked again <------+
 *
 * - The name is resolved once per hop and the socket connects to the very address that was
 *   checked (a custom undici `connect`), so a second DNS answer cannot rebind the request.
 * - One deadline (`timeoutMs`) covers resolution, every redirect and the body.
 * - The body is streamed and capped at `maxBytes` after decompression (gzip/deflate/br bombs).
 * - Only HTML and text/* are accepted; anything else is UPSTREAM_FAILED.
 */
import { lookup } from 'node:dns/promises';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { buildConnector, Client } from 'undici';
import { createError, isGatewayError } from '../errors.ts';
import { decodeBody } from './charset.ts';
import { charsetFromContentType } from './charset.ts';
import { checkTarget, type CheckedTarget, type Resolver, type TargetPolicy } from './target.ts';

export interface SafeFetchOptions {
  readonly allowedPorts?: readonly number[];
  readonly maxBytes: number;
  readonly timeoutMs: number;
  readonly allowPrivate: boolean;
  readonly maxRedirects?: number;
  /** Host name -> addresses; default the system resolver (dns.lookup, all addresses). */
  readonly resolver?: Resolver;
  /**
   * Low-level connector (undici `buildConnector` shape). Tests pass one that records the pinned
   * target and fails without opening a socket; default a real TCP/TLS connector.
   */
  readonly connector?: buildConnector.connector;
  readonly userAgent?: string;
}

export interface FetchedPage {
  /** URL of the last hop (after redirects). */
  readonly url: string;
  readonly status: number;
  /** Media type without parameters, lower-case (`text/html`). */
  readonly mediaType: string;
  readonly isHtml: boolean;
  readonly charset: string;
  readonly text: string;
  readonly bytes: number;
  readonly redirects: number;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const DEFAULT_UA = 'Mozilla/5.0 (compatible; llm-gateway-web-to-markdown/1.0)';

export const systemResolver: Resolver = async (hostname) => {
  const all = await lookup(hostname, { all: true, verbatim: true });
  return all.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

export class SafeFetcher {
  readonly #policy: TargetPolicy;
  readonly #maxBytes: number;
  readonly #timeoutMs: number;
  readonly #maxRedirects: number;
  readonly #resolver: Resolver;
  readonly #connector: buildConnector.connector;
  readonly #userAgent: string;

  constructor(options: SafeFetchOptions) {
    if (!Number.isInteger(options.maxBytes) || options.maxBytes < 1) throw new RangeError('maxBytes must be a positive integer');
    if (!Number.isInteger(options.timeoutMs) || options.timeoutMs < 1) throw new RangeError('timeoutMs must be a positive integer');
    const maxRedirects = options.maxRedirects ?? 5;
    if (!Number.isInteger(maxRedirects) || maxRedirects < 0) throw new RangeError('maxRedirects must be an integer >= 0');
    this.#policy = { allowedPorts: new Set(options.allowedPorts ?? []), allowPrivate: options.allowPrivate };
    this.#maxBytes = options.maxBytes;
    this.#timeoutMs = options.timeoutMs;
    this.#maxRedirects = maxRedirects;
    this.#resolver = options.resolver ?? systemResolver;
    this.#connector = options.connector ?? buildConnector({ timeout: options.timeoutMs });
    this.#userAgent = options.userAgent ?? DEFAULT_UA;
  }

  /**
   * Fetches `url` (already parsed; scheme checked by the caller's schema) under the SSRF policy.
   * Throws URL_BLOCKED, UPSTREAM_FAILED or UPSTREAM_TIMEOUT.
   */
  async fetch(url: URL, signal?: AbortSignal): Promise<FetchedPage> {
    const deadline = AbortSignal.timeout(this.#timeoutMs);
    const combined = signal ? AbortSignal.any([signal, deadline]) : deadline;
    try {
      return await this.#run(url, combined);
    } catch (err) {
      if (deadline.aborted) throw createError('UPSTREAM_TIMEOUT', `The page took longer than ${this.#timeoutMs} ms`);
      if (isGatewayError(err)) throw err;
      if (signal?.aborted) throw createError('UPSTREAM_FAILED', 'The request was cancelled', { cause: err });
      throw createError('UPSTREAM_FAILED', describeNetworkError(err), { cause: err });
    }
  }

  async #run(start: URL, signal: AbortSignal): Promise<FetchedPage> {
    let url = start;
    for (let redirects = 0; ; redirects++) {
      const target = await abortable(checkTarget(url, this.#policy, this.#resolver), signal);
      const res = await this.#request(target, signal);
      try {
        if (REDIRECT_STATUSES.has(res.statusCode)) {
          const location = header(res.headers, 'location');
          if (location === undefined) throw createError('UPSTREAM_FAILED', `Upstream answered ${res.statusCode} without a Location`);
          if (redirects >= this.#maxRedirects) throw createError('UPSTREAM_FAILED', `More than ${this.#maxRedirects} redirects`);
          let next: URL;
          try {
            next = new URL(location, url);
          } catch {
            throw createError('UPSTREAM_FAILED', 'Upstream redirected to an invalid URL');
          }
          if (next.protocol !== 'http:' && next.protocol !== 'https:') throw createError('URL_BLOCKED', 'A redirect leads to a scheme other than http(s)');
          url = next;
          continue;
        }
        if (res.statusCode < 200 || res.statusCode > 299) throw createError('UPSTREAM_FAILED', `Upstream answered HTTP ${res.statusCode}`);
        const contentType = header(res.headers, 'content-type') ?? '';
        const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
        const isHtml = HTML_TYPES.has(mediaType) || mediaType === '';
        if (!isHtml && !mediaType.startsWith('text/')) throw createError('UPSTREAM_FAILED', `Upstream content is ${mediaType}, not HTML or text`);
        const declared = Number(header(res.headers, 'content-length'));
        if (Number.isFinite(declared) && declared > this.#maxBytes) throw tooLarge(this.#maxBytes);
        const body = await this.#readBody(res.body, header(res.headers, 'content-encoding'));
        if (mediaType === '' && looksBinary(body)) throw createError('UPSTREAM_FAILED', 'Upstream content is not HTML or text');
        const decoded = decodeBody(body, charsetFromContentType(contentType), isHtml);
        return { url: url.href, status: res.statusCode, mediaType: mediaType || 'text/html', isHtml, charset: decoded.charset, text: decoded.text, bytes: body.byteLength, redirects };
      } finally {
        res.body.destroy();
        void res.client.destroy().catch(() => undefined);
      }
    }
  }

  async #request(target: CheckedTarget, signal: AbortSignal) {
    const base = this.#connector;
    // Pin: whatever host undici was going to resolve, connect to the checked address instead.
    const pinned: buildConnector.connector = (opts, callback) =>
      base({ ...opts, hostname: target.address, servername: target.servername ?? undefined, port: String(target.port) }, callback);
    const client = new Client(target.url.origin, { connect: pinned, pipelining: 0, headersTimeout: this.#timeoutMs, bodyTimeout: this.#timeoutMs });
    try {
      const res = await client.request({
        method: 'GET',
        path: target.url.pathname + target.url.search,
        signal,
        headers: {
          'user-agent': this.#userAgent,
          accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,text/*;q=0.8',
          'accept-encoding': 'gzip, deflate, br',
        },
      });
      const body = res.body as unknown as Readable;
      // Destroying an unread body (redirects, refusals) emits an abort error nobody needs.
      body.on('error', () => undefined);
      return { statusCode: res.statusCode, headers: res.headers, body, client };
    } catch (err) {
      void client.destroy().catch(() => undefined);
      throw err;
    }
  }

  async #readBody(raw: Readable, encoding: string | undefined): Promise<Uint8Array> {
    const stream = decoderStream(raw, encoding);
    const chunks: Buffer[] = [];
    let total = 0;
    try {
      for await (const chunk of stream) {
        const buf = chunk as Buffer;
        total += buf.byteLength;
        if (total > this.#maxBytes) throw tooLarge(this.#maxBytes);
        chunks.push(buf);
      }
    } finally {
      if (stream !== raw) stream.destroy();
    }
    return Buffer.concat(chunks, total);
  }
}

function decoderStream(raw: Readable, encoding: string | undefined): Readable {
  const enc = (encoding ?? '').trim().toLowerCase();
  if (enc === '' || enc === 'identity') return raw;
  const dec = enc === 'gzip' || enc === 'x-gzip' ? createGunzip() : enc === 'deflate' ? createInflate() : enc === 'br' ? createBrotliDecompress() : null;
  if (dec === null) throw createError('UPSTREAM_FAILED', 'Upstream used an unsupported content encoding');
  raw.on('error', (err) => dec.destroy(err));
  raw.pipe(dec);
  return dec;
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function tooLarge(max: number) {
  return createError('UPSTREAM_FAILED', `The page is larger than ${max} bytes`);
}

function looksBinary(body: Uint8Array): boolean {
  const n = Math.min(body.byteLength, 1024);
  for (let i = 0; i < n; i++) if (body[i] === 0) return true;
  return false;
}

function abortable<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/** A short, input-free description of a network failure (the code only). */
function describeNetworkError(err: unknown): string {
  let e: unknown = err;
  for (let i = 0; i < 4 && e && typeof e === 'object'; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z_]+$/.test(code)) return `The page could not be fetched (${code})`;
    e = (e as { cause?: unknown }).cause;
  }
  return 'The page could not be fetched';
}
