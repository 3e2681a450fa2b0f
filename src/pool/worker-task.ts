/**
 * Worker-side half of the pool protocol. A coded GatewayError thrown by a core inside a worker
 * would lose its code crossing the thread boundary (structured clone keeps only message/stack),
 * so worker entry points wrap their functions: coded errors come back as data and the main
 * thread re-throws them; anything else is a real crash and becomes 500 INTERNAL.
 *
 * @example
 *   // workers/extract.ts
 *   export const extract = workerTask((input: ExtractInput) => extractCore(input));
 */
import { isGatewayError, serializeError, type SerializedError } from '../errors.ts';

export const FAILURE_KEY = '__gatewayError';

export interface WorkerFailure {
  readonly [FAILURE_KEY]: SerializedError;
}

export function isWorkerFailure(value: unknown): value is WorkerFailure {
  return typeof value === 'object' && value !== null && FAILURE_KEY in value;
}

export function workerTask<A, R>(fn: (input: A) => R | Promise<R>): (input: A) => Promise<R | WorkerFailure> {
  return async (input) => {
    try {
      return await fn(input);
    } catch (err) {
      if (isGatewayError(err)) return { [FAILURE_KEY]: serializeError(err) };
      throw err;
    }
  };
}
