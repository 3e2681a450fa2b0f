/**
 * pino, JSON, one line per request. Zero retention (CONTRACT.md §3): request bodies, prompts,
 * names, IBANs and PII never reach a log line. Request lines carry id, method, route label,
 * status, latency and sizes; unexpected errors log their name and stack frames, not their
 * message (a message can quote input, e.g. a JSON parse error).
 */
import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from '../config.ts';
import type { ResponseInfo } from '../server/http-server.ts';

export type { Logger };

export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const options = { level, base: { svc: 'gateway' }, timestamp: pino.stdTimeFunctions.isoTime };
  return destination ? pino(options, destination) : pino(options, pino.destination({ dest: 1, sync: false, minLength: 4096 }));
}

/** Stack frames of an error, without the first line (which holds the message). */
export function safeStack(err: unknown): { name: string; frames?: string } {
  if (!(err instanceof Error)) return { name: typeof err };
  const frames = err.stack?.split('\n').filter((l) => l.trimStart().startsWith('at ')).slice(0, 12).join('\n');
  return frames ? { name: err.name, frames } : { name: err.name };
}

export function logResponse(logger: Logger, info: ResponseInfo): void {
  if (info.internalError === undefined && !logger.isLevelEnabled('info')) return;
  const line = {
    reqId: info.requestId,
    method: info.method,
    route: info.route,
    status: info.status,
    ms: Math.round(info.durationMs * 1000) / 1000,
    bytesIn: info.bytesIn,
    bytesOut: info.bytesOut,
  };
  if (info.internalError !== undefined) {
    logger.error({ ...line, err: safeStack(info.internalError) }, 'request failed');
  } else if (info.aborted) {
    logger.info({ ...line, aborted: true }, 'request aborted');
  } else {
    logger.info(line, 'request');
  }
}
