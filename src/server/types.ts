/**
 * What the HTTP adapter knows about routes. Services describe their routes with these types and
 * never see uWS objects; `main.ts` hands the route table to `createHttpServer`.
 */
import type { Static, TSchema } from '@sinclair/typebox';
import type { PlanName } from '../config.ts';
import type { ErrorCode } from '../errors.ts';

export type HttpMethod = 'GET' | 'POST';

/** Service ids of CONTRACT.md §2 (the metered units of §4). */
export const SERVICE_IDS = ['API-01', 'API-05', 'API-08', 'API-09', 'API-21', 'API-138'] as const;
export type ServiceId = (typeof SERVICE_IDS)[number];

/** Who is calling. With AUTH_MODE=off every caller is the anonymous public tenant. */
export interface Principal {
  readonly tenantId: string;
  /** The key's plan; null for anonymous callers (they get the free tier). */
  readonly plan: PlanName | null;
  /** Stable id of the key (hash prefix), null for anonymous callers. Never the key itself. */
  readonly keyId: string | null;
  readonly anonymous: boolean;
}

export const PUBLIC_PRINCIPAL: Principal = Object.freeze({ tenantId: 'public', plan: null, keyId: null, anonymous: true });

export interface RequestContext<B = unknown> {
  readonly body: B;
  readonly requestId: string;
  readonly principal: Principal;
  /** Aborted when the client goes away; pass it to worker-pool tasks. */
  readonly signal: AbortSignal;
  /** Lower-cased request headers the adapter captured (see CAPTURED_HEADERS). */
  readonly headers: Readonly<Record<string, string>>;
  /** Client address (the last X-Forwarded-For hop, appended by the trusted proxy, when TRUST_PROXY is set). */
  readonly clientIp: string;
  readonly query: string;
  /**
   * What the route's `early` hook returned for this request's raw body (undefined without the
   * hook, or when it declined).
   */
  readonly early: unknown;
}

/** A non-JSON (or pre-serialised) reply: /metrics, /v1/openapi.json. */
export class RawReply {
  constructor(
    readonly body: string | Uint8Array,
    readonly contentType: string,
    readonly status = 200,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}
}

export type HandlerResult = Record<string, unknown> | RawReply;

export interface RouteDef<S extends TSchema = TSchema> {
  readonly method: HttpMethod;
  /** Every path that runs this handler (CONTRACT.md §2 lists aliases). */
  readonly paths: readonly string[];
  /** The `api` label of CONTRACT.md §2, e.g. `[API-138] SEPA Verification of Payee`. */
  readonly api?: string;
  /** Metered service; routes without one are not subject to keys or quotas. */
  readonly service?: ServiceId;
  /** `/v1/usage` needs a key even when it is not a service. */
  readonly requiresKey?: boolean;
  readonly summary: string;
  readonly description?: string;
  readonly tags?: readonly string[];
  /** Request body schema (POST routes). The single source of the validator and the OpenAPI document. */
  readonly body?: S;
  /** Success body fields (the adapter adds `success`, `api` and `latency_ms`). */
  readonly response?: TSchema;
  /** Error codes this route can answer besides the common ones (documented in OpenAPI). */
  readonly errors?: readonly ErrorCode[];
  /** Not an API operation (the /docs page and its assets): left out of the OpenAPI document. */
  readonly hidden?: boolean;
  /** For RawReply routes: content type documented in OpenAPI. */
  readonly produces?: string;
  /**
   * Called with the raw body as soon as it has arrived, before the gateway decodes, parses and
   * validates it, to start work that needs no event loop: API-01 hands a big body to an idle worker,
   * which parses it itself while the event loop validates (the two run at once). The value reaches
   * the handler as `ctx.early`. When the request fails before the handler (bad JSON, validation,
   * quota) the value is dropped, so it must hold nothing that needs releasing and a promise in it
   * must already handle its own rejection. `raw` must not be kept or modified after the call.
   */
  readonly early?: (raw: Uint8Array) => unknown;
  /**
   * Body limit of this route in bytes, enforced while reading like the server's; default the
   * server's `maxBodyBytes` (MAX_BODY_BYTES). API-01 takes a whole page as `html` (CONTRACT.md §3).
   */
  readonly maxBodyBytes?: number;
  readonly handler: (ctx: RequestContext<Static<S>>) => HandlerResult | Promise<HandlerResult>;
}

/** A route of any body type, as held in route tables. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRoute = RouteDef<any>;

/** Infers the body type of a route from its schema: `defineRoute({ body: Type.Object(...), handler: (ctx) => ctx.body.x })`. */
export function defineRoute<S extends TSchema>(def: RouteDef<S>): AnyRoute {
  return def;
}

/**
 * Keys, plans and quotas plug in here (CONTRACT.md §4). The adapter calls `authenticate` from
 * the headers before reading any body, and `admit` after validation, right before the handler.
 */
export interface Gatekeeper {
  /** Throws GatewayError UNAUTHORIZED; never reads the body. */
  authenticate(input: { headers: Readonly<Record<string, string>>; clientIp: string; route: RouteDef }): Principal;
  /**
   * Reserves one unit for a metered route (throws QUOTA_EXCEEDED / FORBIDDEN / RATE_LIMITED /
   * OVERLOADED); returns headers for the response and a `settle` callback that the adapter calls
   * once with the final status (a 4xx refunds the unit).
   */
  admit(principal: Principal, route: RouteDef): Admission | Promise<Admission>;
}

export interface Admission {
  readonly headers?: Readonly<Record<string, string>>;
  settle?(status: number): void;
}

/** AUTH_MODE=off: everyone is the public tenant, nothing is counted. */
export const OPEN_GATEKEEPER: Gatekeeper = {
  authenticate: () => PUBLIC_PRINCIPAL,
  admit: () => NO_ADMISSION,
};
const NO_ADMISSION: Admission = Object.freeze({});
