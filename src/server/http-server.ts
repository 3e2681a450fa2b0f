/**
 * The uWebSockets.js adapter: routing, body reading, limits, request ids, CORS and the single
 * response writer. It imports no service: `main.ts` hands it the route table.
 *
 * A request's way through (see STYLE.md):
 *   uWS callback -> method/url/headers read synchronously (HttpRequest dies after the callback)
 *   -> onAborted registered -> route lookup (404/405) -> authenticate from headers (401)
 *   -> Content-Type (415) -> body read with limit + timeout (413/408) -> JSON (400) -> schema (400)
 *   -> admit (quota, 429/403) -> handler -> send(): status + headers + body in one cork.
 */
import type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from 'uWebSockets.js';
import { createError, isGatewayError } from '../errors.ts';
import { compileValidator, type Validator } from '../schema/validator.ts';
import { BodyTimeouts, parseJsonObject, readBody } from './body.ts';
import { CorsPolicy } from './cors.ts';
import { errorBody, statusLine, successBody, successPrefix } from './reply.ts';
import {
  OPEN_GATEKEEPER,
  PUBLIC_PRINCIPAL,
  RawReply,
  type Admission,
  type Gatekeeper,
  type HandlerResult,
  type Principal,
  type RequestContext,
  type AnyRoute,
  type RouteDef,
} from './types.ts';
import { loadUws, type UwsRuntime } from './uws.ts';

/** What the adapter reports for every finished exchange (logs and metrics subscribe in main.ts). */
export interface ResponseInfo {
  readonly requestId: string;
  readonly method: string;
  /** The route's canonical path, `unmatched` for 404: never the raw URL (it may carry user data). */
  readonly route: string;
  readonly status: number;
  readonly durationMs: number;
  readonly bytesIn: number;
  readonly bytesOut: number;
  readonly aborted: boolean;
  /** The error code for error responses. */
  readonly errorCode?: string;
  /** An unexpected error (status 500): logged by the observer, never sent to the client. */
  readonly internalError?: unknown;
}

export interface HttpServerOptions {
  readonly routes: readonly AnyRoute[];
  readonly maxBodyBytes: number;
  readonly bodyTimeoutMs: number;
  readonly corsOrigins: readonly string[] | '*';
  readonly trustProxy: boolean;
  readonly gatekeeper?: Gatekeeper;
  readonly onResponse?: (info: ResponseInfo) => void;
  readonly uws?: UwsRuntime;
}

export interface HttpServer {
  /** Resolves with the bound port (useful with port 0). */
  listen(host: string, port: number): Promise<number>;
  /** Stops accepting, waits for in-flight requests up to `timeoutMs`; resolves true when all finished. */
  close(timeoutMs: number): Promise<boolean>;
  readonly inFlight: number;
  readonly native: boolean;
}

/**
 * Request headers the adapter may capture; handlers see only these (lower-cased). Each request
 * reads just the ones its route needs (every getHeader crosses into C++ and makes a string):
 * x-request-id always; origin with CORS; the key headers (and x-forwarded-for behind a trusted
 * proxy) on metered routes; content-type/-length on body routes; the preflight pair on OPTIONS.
 */
const CAPTURED_HEADERS = [
  'content-type', 'content-length', 'x-request-id', 'authorization', 'x-api-key', 'origin',
  'access-control-request-method', 'access-control-request-headers', 'x-forwarded-for',
] as const;
type CapturedHeader = (typeof CAPTURED_HEADERS)[number];

/** Methods as uWS reports them (case-sensitive); anything else is upper-cased once. */
const KNOWN_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);

interface CompiledRoute {
  readonly def: RouteDef;
  /** Metrics/log label: the first path of the route. */
  readonly label: string;
  readonly prefix: string;
  readonly validate: Validator | null;
  /** Authenticated and admitted by the gatekeeper (a service route or one that requires a key). */
  readonly metered: boolean;
  /** The headers a request of this route reads (see CAPTURED_HEADERS). */
  readonly headers: readonly CapturedHeader[];
}

interface PathEntry {
  readonly byMethod: Map<string, CompiledRoute>;
  readonly allow: string;
  readonly methods: readonly string[];
}

/** One request in flight. */
class Exchange {
  aborted = false;
  done = false;
  status = 0;
  bytesIn = 0;
  route = 'unmatched';
  api: string | undefined = undefined;
  admission: Admission | null = null;
  cancelBody: (() => void) | null = null;
  /** The route's `early` value for this body (RouteDef.early). */
  early: unknown = undefined;
  #controller: AbortController | null = null;
  corsHeaders: Array<[string, string]> | null = null;

  constructor(
    readonly res: HttpResponse,
    readonly start: number,
    readonly method: string,
    readonly requestId: string,
    readonly headers: Record<string, string>,
    readonly query: string,
    readonly trustProxy: boolean,
  ) {}

  #clientIp: string | null = null;
  /** Computed on first use (only metered routes need it); the HttpResponse must still be alive. */
  get clientIp(): string {
    if (this.#clientIp === null) {
      const forwarded = this.headers['x-forwarded-for'];
      // Behind one trusted proxy the client is the hop that proxy appended: the LAST entry.
      // Earlier entries are whatever the client wrote and must not be trusted.
      if (this.trustProxy && forwarded) this.#clientIp = forwarded.slice(forwarded.lastIndexOf(',') + 1).trim();
      else this.#clientIp = this.done || this.aborted ? '' : Buffer.from(this.res.getRemoteAddressAsText()).toString();
    }
    return this.#clientIp;
  }

  get signal(): AbortSignal {
    this.#controller ??= new AbortController();
    if (this.aborted && !this.#controller.signal.aborted) this.#controller.abort();
    return this.#controller.signal;
  }

  abort(): void {
    this.aborted = true;
    this.#controller?.abort();
  }
}

/** What a handler sees (RequestContext); getters defer the abort signal and the client address. */
class Context {
  constructor(
    readonly ex: Exchange,
    readonly body: unknown,
    readonly principal: Principal,
  ) {}

  get requestId(): string {
    return this.ex.requestId;
  }

  get signal(): AbortSignal {
    return this.ex.signal;
  }

  get headers(): Readonly<Record<string, string>> {
    return this.ex.headers;
  }

  get clientIp(): string {
    return this.ex.clientIp;
  }

  get query(): string {
    return this.ex.query;
  }

  get early(): unknown {
    return this.ex.early;
  }
}

const REQUEST_ID_OK = /^[A-Za-z0-9._:@\/+=-]{1,128}$/;

export function createHttpServer(options: HttpServerOptions): HttpServer {
  const runtime = options.uws ?? loadUws();
  const app: TemplatedApp = runtime.uws.App();
  const gatekeeper = options.gatekeeper ?? OPEN_GATEKEEPER;
  const cors = new CorsPolicy(options.corsOrigins);
  const timeouts = new BodyTimeouts(options.bodyTimeoutMs);
  const table = buildTable(options.routes, { cors: cors.enabled, trustProxy: options.trustProxy });
  const plainHeaders: readonly CapturedHeader[] = cors.enabled ? ['x-request-id', 'origin'] : ['x-request-id'];
  const preflightHeaders: readonly CapturedHeader[] = [...plainHeaders, 'access-control-request-method', 'access-control-request-headers'];
  const onResponse = options.onResponse;
  let listenSocket: us_listen_socket | null = null;
  let inFlight = 0;
  let draining = false;
  let drained: (() => void) | null = null;

  function finish(ex: Exchange, bytesOut: number, errorCode?: string, internalError?: unknown): void {
    inFlight--;
    if (ex.admission?.settle) {
      try {
        ex.admission.settle(ex.status);
      } catch {
        // A failing settle must not break the response path; the gatekeeper logs its own faults.
      }
    }
    onResponse?.({
      requestId: ex.requestId,
      method: ex.method,
      route: ex.route,
      status: ex.status,
      durationMs: performance.now() - ex.start,
      bytesIn: ex.bytesIn,
      bytesOut,
      aborted: ex.aborted,
      errorCode,
      internalError,
    });
    if (draining && inFlight === 0) drained?.();
  }

  /** The one writer: status, headers and body corked together; nothing after an abort. */
  function send(
    ex: Exchange,
    status: number,
    body: string | Uint8Array,
    contentType: string,
    extra?: Readonly<Record<string, string>>,
    close = false,
    errorCode?: string,
    internalError?: unknown,
  ): void {
    if (ex.done) return;
    ex.done = true;
    ex.status = status;
    if (ex.aborted) {
      finish(ex, 0, errorCode, internalError);
      return;
    }
    const res = ex.res;
    res.cork(() => {
      res.writeStatus(statusLine(status));
      res.writeHeader('content-type', contentType);
      res.writeHeader('x-request-id', ex.requestId);
      if (ex.corsHeaders !== null) for (const [k, v] of ex.corsHeaders) res.writeHeader(k, v);
      const admitted = ex.admission?.headers;
      if (admitted) for (const k in admitted) res.writeHeader(k, admitted[k]!);
      if (extra) for (const k in extra) res.writeHeader(k, extra[k]!);
      res.end(body, close || draining);
    });
    finish(ex, typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength, errorCode, internalError);
  }

  function sendError(ex: Exchange, err: unknown): void {
    const known = isGatewayError(err);
    const gErr = known ? err : createError('INTERNAL');
    // After 413/408 the rest of the body is still on the wire: close the connection.
    const close = gErr.code === 'PAYLOAD_TOO_LARGE' || gErr.code === 'REQUEST_TIMEOUT';
    send(ex, gErr.status, errorBody(ex.api, gErr, ex.start), 'application/json; charset=utf-8', gErr.headers, close, gErr.code, known ? undefined : err);
  }

  function sendResult(ex: Exchange, route: CompiledRoute, result: HandlerResult): void {
    if (result instanceof RawReply) {
      send(ex, result.status, result.body, result.contentType, result.headers);
    } else {
      send(ex, 200, successBody(route.prefix, result, ex.start), 'application/json; charset=utf-8');
    }
  }

  async function handleBodyRoute(ex: Exchange, route: CompiledRoute, principal: Principal, declared: number): Promise<void> {
    let body: Record<string, unknown> | undefined;
    const reading = readBody(ex.res, declared, route.def.maxBodyBytes ?? options.maxBodyBytes, timeouts);
    ex.cancelBody = reading.cancel;
    try {
      const raw = await reading.body;
      ex.cancelBody = null;
      ex.bytesIn = raw.length;
      if (ex.aborted) return;
      if (route.def.early !== undefined) ex.early = route.def.early(raw);
      body = parseJsonObject(raw);
      route.validate?.(body);
    } catch (err) {
      sendError(ex, err);
      return;
    }
    runHandler(ex, route, principal, body);
  }

  /** Admission (metered routes), then the handler; synchronous all the way when both are. */
  function runHandler(ex: Exchange, route: CompiledRoute, principal: Principal, body: unknown): void {
    if (route.metered) {
      let admission: Admission | Promise<Admission>;
      try {
        admission = gatekeeper.admit(principal, route.def);
      } catch (err) {
        fail(ex, err);
        return;
      }
      if (admission instanceof Promise) {
        admission.then(
          (a) => {
            ex.admission = a;
            if (ex.aborted) send(ex, 499, '', 'text/plain');
            else invoke(ex, route, principal, body);
          },
          (err: unknown) => fail(ex, err),
        );
        return;
      }
      ex.admission = admission;
    }
    invoke(ex, route, principal, body);
  }

  function invoke(ex: Exchange, route: CompiledRoute, principal: Principal, body: unknown): void {
    let out: HandlerResult | Promise<HandlerResult>;
    try {
      out = route.def.handler(new Context(ex, body, principal) as unknown as RequestContext<never>);
    } catch (err) {
      fail(ex, err);
      return;
    }
    if (out instanceof Promise) {
      out.then(
        (result) => {
          if (ex.aborted) send(ex, 499, '', 'text/plain');
          else sendResult(ex, route, result);
        },
        (err: unknown) => fail(ex, err),
      );
      return;
    }
    sendResult(ex, route, out);
  }

  /** A failure after the route was found: 499 when the client has gone, else the error body. */
  function fail(ex: Exchange, err: unknown): void {
    if (ex.aborted) send(ex, 499, '', 'text/plain');
    else sendError(ex, err);
  }

  function onRequest(res: HttpResponse, req: HttpRequest): void {
    const start = performance.now();
    const raw = req.getCaseSensitiveMethod();
    const method = KNOWN_METHODS.has(raw) ? raw : raw.toUpperCase();
    const entry = table.get(req.getUrl());
    const route = entry?.byMethod.get(method);
    // Only the headers this exchange can use are read (see CAPTURED_HEADERS).
    const wanted = route !== undefined ? route.headers : method === 'OPTIONS' ? preflightHeaders : plainHeaders;
    const headers: Record<string, string> = {};
    for (let i = 0; i < wanted.length; i++) {
      const name = wanted[i]!;
      const v = req.getHeader(name);
      if (v !== '') headers[name] = v;
    }
    const query = req.getQuery() ?? '';
    const given = headers['x-request-id'];
    const requestId = given !== undefined && REQUEST_ID_OK.test(given) ? given : crypto.randomUUID();
    const ex = new Exchange(res, start, method, requestId, headers, query, options.trustProxy);
    inFlight++;
    res.onAborted(() => {
      ex.abort();
      ex.cancelBody?.();
      if (!ex.done) send(ex, 499, '', 'text/plain');
    });

    if (cors.enabled) ex.corsHeaders = cors.responseHeaders(headers.origin);
    if (entry === undefined) {
      sendError(ex, createError('NOT_FOUND', 'No such route'));
      return;
    }
    if (route === undefined) {
      const other = [...entry.byMethod.values()][0]!;
      ex.route = other.label;
      if (method === 'OPTIONS') {
        const preflight = headers['access-control-request-method'];
        const allowHeaders: Record<string, string> = { allow: `${entry.allow}, OPTIONS` };
        if (preflight !== undefined && cors.enabled) {
          ex.corsHeaders = cors.preflightHeaders(headers.origin, preflight, entry.methods, headers['access-control-request-headers']);
        }
        send(ex, 204, '', 'text/plain', allowHeaders);
        return;
      }
      ex.api = other.def.api;
      sendError(ex, createError('METHOD_NOT_ALLOWED', `Method ${method} is not allowed on this route; use ${entry.allow}`, { headers: { allow: entry.allow } }));
      return;
    }
    ex.route = route.label;
    ex.api = route.def.api;

    let principal: Principal = PUBLIC_PRINCIPAL;
    if (route.metered) {
      try {
        principal = gatekeeper.authenticate({
          headers,
          get clientIp() {
            return ex.clientIp;
          },
          route: route.def,
        });
      } catch (err) {
        sendError(ex, err);
        return;
      }
    }

    if (route.def.method === 'GET') {
      runHandler(ex, route, principal, undefined);
      return;
    }
    const contentType = headers['content-type'];
    if (contentType === undefined || !isJsonContentType(contentType)) {
      sendError(ex, createError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json', { headers: { accept: 'application/json' } }));
      return;
    }
    let declared = -1;
    const cl = headers['content-length'];
    if (cl !== undefined) {
      declared = /^\d{1,15}$/.test(cl) ? Number(cl) : Number.NaN;
      if (Number.isNaN(declared)) {
        sendError(ex, createError('INVALID_JSON', 'Content-Length is not a number'));
        return;
      }
      const limit = route.def.maxBodyBytes ?? options.maxBodyBytes;
      if (declared > limit) {
        sendError(ex, createError('PAYLOAD_TOO_LARGE', `Request body exceeds ${limit} bytes`));
        return;
      }
    }
    void handleBodyRoute(ex, route, principal, declared);
  }

  app.any('/*', onRequest);

  return {
    get inFlight() {
      return inFlight;
    },
    native: runtime.native,
    listen(host, port) {
      return new Promise((resolve, reject) => {
        app.listen(host, port, (socket) => {
          if (!socket) {
            reject(new Error(`Cannot listen on ${host}:${port}`));
            return;
          }
          listenSocket = socket;
          resolve(runtime.uws.us_socket_local_port(socket));
        });
      });
    },
    close(timeoutMs) {
      draining = true;
      if (listenSocket !== null) {
        runtime.uws.us_listen_socket_close(listenSocket);
        listenSocket = null;
      }
      const finishClose = (all: boolean): boolean => {
        timeouts.close();
        // Close idle keep-alive connections too, when this uWS build supports it.
        (app as TemplatedApp & { close?: () => void }).close?.();
        return all;
      };
      if (inFlight === 0) return Promise.resolve(finishClose(true));
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(finishClose(false)), timeoutMs);
        drained = () => {
          clearTimeout(timer);
          resolve(finishClose(true));
        };
      });
    },
  };
}

/** `application/json`, optionally with parameters (`; charset=utf-8`), case-insensitive. */
function isJsonContentType(value: string): boolean {
  const semi = value.indexOf(';');
  const type = (semi === -1 ? value : value.slice(0, semi)).trim().toLowerCase();
  if (type !== 'application/json') return false;
  if (semi === -1) return true;
  const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(value.slice(semi));
  return charset === null || charset[1]!.toLowerCase() === 'utf-8' || charset[1]!.toLowerCase() === 'utf8';
}

function buildTable(routes: readonly AnyRoute[], opts: { cors: boolean; trustProxy: boolean }): Map<string, PathEntry> {
  const table = new Map<string, PathEntry>();
  for (const def of routes) {
    if (def.paths.length === 0) throw new TypeError('a route needs at least one path');
    if (def.maxBodyBytes !== undefined && !(Number.isSafeInteger(def.maxBodyBytes) && def.maxBodyBytes > 0)) throw new RangeError(`maxBodyBytes of ${def.paths[0]} must be a positive integer`);
    const metered = def.service !== undefined || def.requiresKey === true;
    const headers: CapturedHeader[] = ['x-request-id'];
    if (opts.cors) headers.push('origin');
    if (def.method !== 'GET') headers.push('content-type', 'content-length');
    if (metered) headers.push('authorization', 'x-api-key');
    // The client address (ctx.clientIp, anonymous quotas) comes from it behind a trusted proxy.
    if (opts.trustProxy) headers.push('x-forwarded-for');
    const compiled: CompiledRoute = {
      def,
      label: def.paths[0]!,
      prefix: successPrefix(def.api),
      validate: def.body ? compileValidator(def.body) : null,
      metered,
      headers,
    };
    for (const path of def.paths) {
      let entry = table.get(path);
      if (!entry) {
        entry = { byMethod: new Map(), allow: '', methods: [] };
        table.set(path, entry);
      }
      if (entry.byMethod.has(def.method)) throw new TypeError(`duplicate route ${def.method} ${path}`);
      entry.byMethod.set(def.method, compiled);
      const methods = [...entry.byMethod.keys()].sort();
      table.set(path, { byMethod: entry.byMethod, allow: methods.join(', '), methods });
    }
  }
  return table;
}
