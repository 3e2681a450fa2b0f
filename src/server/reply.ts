/**
 * Serialisation of the two wire bodies of CONTRACT.md §3. The success body is assembled as a
 * string around the handler's JSON so the envelope costs no extra object copy:
 *   {"success":true,"api":<label>, ...result fields..., "latency_ms":n}
 */
import type { GatewayError } from '../errors.ts';

const STATUS_TEXT: Record<number, string> = {
  200: 'OK', 204: 'No Content', 301: 'Moved Permanently', 302: 'Found', 304: 'Not Modified', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden',
  404: 'Not Found', 405: 'Method Not Allowed', 408: 'Request Timeout', 413: 'Payload Too Large',
  415: 'Unsupported Media Type', 422: 'Unprocessable Entity', 429: 'Too Many Requests', 500: 'Internal Server Error',
  502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout',
};
const STATUS_LINES = new Map<number, string>(Object.entries(STATUS_TEXT).map(([code, text]) => [Number(code), `${code} ${text}`]));

export function statusLine(status: number): string {
  return STATUS_LINES.get(status) ?? String(status);
}

/** Milliseconds with microsecond resolution, as a JSON number. */
export function latencyMs(start: number): number {
  return Math.round((performance.now() - start) * 1000) / 1000;
}

/** Precomputed per route: `{"success":true,"api":"[API-138] ..."` or `{"success":true`. */
export function successPrefix(api: string | undefined): string {
  return api === undefined ? '{"success":true' : `{"success":true,"api":${JSON.stringify(api)}`;
}

export function successBody(prefix: string, result: Record<string, unknown>, start: number): string {
  const json = JSON.stringify(result);
  const inner = json.length > 2 ? `,${json.slice(1, -1)}` : '';
  return `${prefix}${inner},"latency_ms":${latencyMs(start)}}`;
}

export function errorBody(api: string | undefined, err: GatewayError, start: number): string {
  const error = err.details === undefined ? { code: err.code, message: err.message } : { code: err.code, message: err.message, details: err.details };
  const apiPart = api === undefined ? '' : `"api":${JSON.stringify(api)},`;
  return `{"success":false,${apiPart}"error":${JSON.stringify(error)},"latency_ms":${latencyMs(start)}}`;
}
