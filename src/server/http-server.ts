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

/** Request headers the adapter captures; handlers see only these (lower-cased). */
const CAPTURED_HEADERS = [
  'content-type', 'content-length', 'x-request-id', 'authorization', 'x-api-key', 'origin',
  'access-control-request-method', 'access-control-request-headers', 'x-forwarded-for', 'user-agent',
] as const;

interface CompiledRoute {
  readonly def: RouteDef;
  /** Metrics/log label: the first path of the route. */
  readonly label: string;
  readonly prefix: string;
  readonly validate: Validator | null;
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

const REQUEST_ID_OK = /^[A-Za-z0-9._:@\/+=-]{1,128}$/;

export function createHttpServer(options: HttpServerOptions): HttpServer {
  const runtime = options.uws ?? loadUws();
  const app: TemplatedApp = runtime.uws.App();
  const gatekeeper = options.gatekeeper ?? OPEN_GATEKEEPER;
  const cors = new CorsPolicy(options.corsOrigins);
  const timeouts = new BodyTimeouts(options.bodyTimeoutMs);
  const table = buildTable(options.routes);
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
    const reading = readBody(ex.res, declared, options.maxBodyBytes, timeouts);
    ex.cancelBody = reading.cancel;
    try {
      const raw = await reading.body;
      ex.cancelBody = null;
      ex.bytesIn = raw.length;
      if (ex.aborted) return;
      body = parseJsonObject(raw);
      route.validate?.(body);
    } catch (err) {
      sendError(ex, err);
      return;
    }
    await runHandler(ex, route, principal, body);
  }

  async function runHandler(ex: Exchange, route: CompiledRoute, principal: Principal, body: unknown): Promise<void> {
    try {
      if (route.def.service !== undefined || route.def.requiresKey) {
        const admission = gatekeeper.admit(principal, route.def);
        ex.admission = admission instanceof Promise ? await admission : admission;
        if (ex.aborted) {
          send(ex, 499, '', 'text/plain');
          return;
        }
      }
      const ctx: RequestContext = {
        body,
        requestId: ex.requestId,
        principal,
        get signal() {
          return ex.signal;
        },
        headers: ex.headers,
        get clientIp() {
          return ex.clientIp;
        },
        query: ex.query,
      };
      const out = route.def.handler(ctx as RequestContext<never>);
      const result = out instanceof Promise ? await out : out;
      if (ex.aborted) {
        send(ex, 499, '', 'text/plain');
        return;
      }
      sendResult(ex, route, result);
    } catch (err) {
      if (ex.aborted) send(ex, 499, '', 'text/plain');
      else sendError(ex, err);
    }
  }

  function onRequest(res: HttpResponse, req: HttpRequest): void {
    const start = performance.now();
    const method = req.getMethod().toUpperCase();
    const url = req.getUrl();
    const headers: Record<string, string> = {};
    for (const name of CAPTURED_HEADERS) {
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

    const entry = table.get(url);
    if (cors.enabled) ex.corsHeaders = cors.responseHeaders(headers.origin);
    if (entry === undefined) {
      sendError(ex, createError('NOT_FOUND', 'No such route'));
      return;
    }
    if (method === 'OPTIONS') {
      ex.route = entry.methods.length > 0 ? [...entry.byMethod.values()][0]!.label : 'unmatched';
      const preflight = headers['access-control-request-method'];
      const allowHeaders: Record<string, string> = { allow: `${entry.allow}, OPTIONS` };
      if (preflight !== undefined && cors.enabled) {
        ex.corsHeaders = cors.preflightHeaders(headers.origin, preflight, entry.methods, headers['access-control-request-headers']);
      }
      send(ex, 204, '', 'text/plain', allowHeaders);
      return;
    }
    const route = entry.byMethod.get(method);
    if (route === undefined) {
      const other = [...entry.byMethod.values()][0]!;
      ex.route = other.label;
      ex.api = other.def.api;
      sendError(ex, createError('METHOD_NOT_ALLOWED', `Method ${method} is not allowed on this route; use ${entry.allow}`, { headers: { allow: entry.allow } }));
      return;
    }
    ex.route = route.label;
    ex.api = route.def.api;

    let principal: Principal;
    try {
      principal = route.def.service !== undefined || route.def.requiresKey ? gatekeeper.authenticate({
            headers,
            get clientIp() {
              return ex.clientIp;
            },
            route: route.def,
          }) : PUBLIC_PRINCIPAL;
    } catch (err) {
      sendError(ex, err);
      return;
    }

    if (route.def.method === 'GET') {
      void runHandler(ex, route, principal, undefined);
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
      if (declared > options.maxBodyBytes) {
        sendError(ex, createError('PAYLOAD_TOO_LARGE', `Request body exceeds ${options.maxBodyBytes} bytes`));
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

function buildTable(routes: readonly AnyRoute[]): Map<string, PathEntry> {
  const table = new Map<string, PathEntry>();
  for (const def of routes) {
    if (def.paths.length === 0) throw new TypeError('a route needs at least one path');
    const compiled: CompiledRoute = {
      def,
      label: def.paths[0]!,
      prefix: successPrefix(def.api),
      validate: def.body ? compileValidator(def.body) : null,
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
