/**
 * A Redis failure seen by a service becomes 503 OVERLOADED (CONTRACT.md §3), never 500: the
 * request may be retried once the connection is back. Coded errors pass through unchanged.
 */
import { createError, isGatewayError, type GatewayError } from '../errors.ts';

export function stateUnavailable(err: unknown): GatewayError {
  if (isGatewayError(err)) return err;
  return createError('OVERLOADED', 'Shared state (Redis) is unavailable; retry later', { headers: { 'retry-after': '1' }, cause: err });
}
