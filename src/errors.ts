/**
 * The whole error catalogue of the gateway (CONTRACT.md §3). Every code appears once, with its
 * HTTP status and a default message; `test/errors.test.ts` checks that docs/api.md documents each one.
 *
 * Wire body, for every error on every route:
 *   {"success": false, "api"?: label, "error": {"code", "message", "details"?}, "latency_ms": n}
 */

export const ERROR_CATALOGUE = {
  INVALID_JSON: { status: 400, message: 'Request body is not a JSON object' },
  VALIDATION_FAILED: { status: 400, message: 'Request body failed validation' },
  UNAUTHORIZED: { status: 401, message: 'A valid API key is required' },
  FORBIDDEN: { status: 403, message: 'The plan of this key does not include this service and its free tier is used up' },
  NOT_FOUND: { status: 404, message: 'No such route' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'Method not allowed on this route' },
  REQUEST_TIMEOUT: { status: 408, message: 'The request body did not arrive in time' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'Request body exceeds the size limit' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Content-Type must be application/json' },
  URL_BLOCKED: { status: 422, message: 'The URL targets a refused address, port or carries credentials' },
  QUOTA_EXCEEDED: { status: 429, message: 'Monthly allowance used up' },
  RATE_LIMITED: { status: 429, message: 'Burst limit reached; retry later' },
  INTERNAL: { status: 500, message: 'Internal error' },
  UPSTREAM_FAILED: { status: 502, message: 'The page could not be fetched or is not HTML/text' },
  OVERLOADED: { status: 503, message: 'The server is overloaded; retry later' },
  UPSTREAM_TIMEOUT: { status: 504, message: 'The page took too long to fetch' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export interface ErrorDetail {
  path: string;
  message: string;
}

/** A coded error: cores throw it, the server turns it into the contract's error body. */
export class GatewayError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: ErrorDetail[] | undefined;
  /** Extra response headers (Retry-After, Allow, RateLimit-*). */
  readonly headers: Record<string, string> | undefined;

  constructor(code: ErrorCode, message?: string, options?: { details?: ErrorDetail[]; headers?: Record<string, string>; cause?: unknown }) {
    const entry = ERROR_CATALOGUE[code];
    super(message ?? entry.message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GatewayError';
    this.code = code;
    this.status = entry.status;
    this.details = options?.details;
    this.headers = options?.headers;
  }
}

/** Shorthand used by cores: `throw createError('VALIDATION_FAILED', 'bad iban', {details})`. */
export function createError(
  code: ErrorCode,
  message?: string,
  options?: { details?: ErrorDetail[]; headers?: Record<string, string>; cause?: unknown },
): GatewayError {
  return new GatewayError(code, message, options);
}

export function isGatewayError(err: unknown): err is GatewayError {
  return err instanceof GatewayError;
}

/** Plain-data form, used to carry a coded error across a worker boundary. */
export interface SerializedError {
  code: ErrorCode;
  message: string;
  details?: ErrorDetail[];
}

export function serializeError(err: GatewayError): SerializedError {
  return err.details ? { code: err.code, message: err.message, details: err.details } : { code: err.code, message: err.message };
}

export function deserializeError(data: SerializedError): GatewayError {
  const code = data.code in ERROR_CATALOGUE ? data.code : 'INTERNAL';
  return new GatewayError(code, data.message, data.details ? { details: data.details } : undefined);
}
