/**
 * Request body reading for the uWS adapter: the limit is enforced chunk by chunk (nothing past the
 * limit is buffered), each chunk is copied (uWS neuters the ArrayBuffer after the callback), and a
 * single sweeper enforces BODY_TIMEOUT_MS for every body in flight (one timer per server, not one
 * per request).
 */
import type { HttpResponse } from 'uWebSockets.js';
import { createError, type GatewayError } from '../errors.ts';

interface PendingBody {
  deadline: number;
  fail(err: GatewayError): void;
}

export class BodyTimeouts {
  readonly #pending = new Set<PendingBody>();
  readonly #timeoutMs: number;
  #timer: NodeJS.Timeout | undefined;

  constructor(timeoutMs: number) {
    if (!Number.isInteger(timeoutMs) || timeoutMs < 1) throw new RangeError('timeoutMs must be a positive integer');
    this.#timeoutMs = timeoutMs;
  }

  add(entry: Omit<PendingBody, 'deadline'>): PendingBody {
    const pending: PendingBody = { deadline: performance.now() + this.#timeoutMs, fail: entry.fail };
    this.#pending.add(pending);
    if (this.#timer === undefined) {
      const tick = Math.min(250, Math.max(5, Math.floor(this.#timeoutMs / 8)));
      this.#timer = setInterval(() => this.#sweep(), tick);
      this.#timer.unref();
    }
    return pending;
  }

  delete(pending: PendingBody): void {
    this.#pending.delete(pending);
    if (this.#pending.size === 0 && this.#timer !== undefined) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  #sweep(): void {
    const now = performance.now();
    for (const p of this.#pending) {
      if (p.deadline <= now) {
        this.delete(p);
        p.fail(createError('REQUEST_TIMEOUT', `The request body did not arrive within ${this.#timeoutMs} ms`));
      }
    }
  }

  close(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#pending.clear();
  }
}

/**
 * Reads the whole body of `res`, rejecting with PAYLOAD_TOO_LARGE as soon as `limit` is crossed
 * (also when Content-Length lies or the body is chunked) and with REQUEST_TIMEOUT on a slow body.
 * `declaredLength` is the Content-Length header, or -1 when absent.
 */
export function readBody(
  res: HttpResponse,
  declaredLength: number,
  limit: number,
  timeouts: BodyTimeouts,
): { body: Promise<Buffer>; cancel: () => void } {
  let cancel = (): void => {};
  const body = new Promise<Buffer>((resolve, reject) => {
    let settled = false;
    // Content-Length known and within the limit: one allocation, chunks copied into place.
    let buffer: Buffer | null = declaredLength >= 0 ? Buffer.allocUnsafe(declaredLength) : null;
    const chunks: Buffer[] = [];
    let size = 0;
    const pending = timeouts.add({
      fail(err) {
        if (settled) return;
        settled = true;
        reject(err);
      },
    });
    res.onData((chunk, isLast) => {
      if (settled) return;
      const n = chunk.byteLength;
      size += n;
      if (size > limit || (buffer !== null && size > buffer.length)) {
        settled = true;
        timeouts.delete(pending);
        reject(createError('PAYLOAD_TOO_LARGE', `Request body exceeds ${limit} bytes`));
        return;
      }
      if (buffer !== null) buffer.set(new Uint8Array(chunk), size - n);
      else chunks.push(Buffer.from(new Uint8Array(chunk))); // Buffer.from(Uint8Array) copies
      if (isLast) {
        settled = true;
        timeouts.delete(pending);
        if (buffer !== null) resolve(size === buffer.length ? buffer : buffer.subarray(0, size));
        else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
      }
    });
    // The adapter calls this when the client aborts: stop the timer, ignore later chunks.
    cancel = () => {
      settled = true;
      timeouts.delete(pending);
    };
  });
  return { body, cancel: () => cancel() };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
/** Deepest JSON nesting accepted; deeper documents are refused before any code walks them. */
export const MAX_JSON_DEPTH = 128;

/** Parses a request body that must be one JSON object (CONTRACT.md §3: otherwise INVALID_JSON). */
export function parseJsonObject(body: Buffer): Record<string, unknown> {
  if (body.length === 0) throw createError('INVALID_JSON', 'Request body is empty; expected a JSON object');
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    throw createError('INVALID_JSON', 'Request body is not valid UTF-8');
  }
  if (body.length > MAX_JSON_DEPTH * 2 && jsonDepthExceeds(body, MAX_JSON_DEPTH)) {
    throw createError('INVALID_JSON', `JSON nesting is deeper than ${MAX_JSON_DEPTH} levels`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw createError('INVALID_JSON', 'Request body is not valid JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw createError('INVALID_JSON', 'Request body must be a JSON object');
  }
  return value as Record<string, unknown>;
}

/**
 * Linear scan of the raw bytes: bracket depth outside strings. Strings are skipped by a byte loop
 * for up to STRING_STEP bytes at a time and then by a native search for the next quote (escaped
 * when an odd run of backslashes precedes it): a 200 KB body that is mostly one string (a page's
 * HTML) scans in ~0.1 ms instead of ~0.4, and a string of nothing but escapes costs no more than a
 * byte loop (the search resumes the loop after each escaped quote).
 */
function jsonDepthExceeds(body: Buffer, max: number): boolean {
  let depth = 0;
  const n = body.length;
  for (let i = 0; i < n; i++) {
    const c = body[i]!;
    if (c === 0x22) {
      i = stringEnd(body, i + 1);
      if (i < 0) return false; // unterminated: JSON.parse refuses it
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

const STRING_STEP = 64;

/** Index of the quote that closes the string whose contents start at `j`, or -1 (also API-01's raw parse). */
export function stringEnd(body: Buffer, j: number): number {
  const n = body.length;
  for (;;) {
    const step = Math.min(n, j + STRING_STEP);
    while (j < step) {
      const d = body[j]!;
      if (d === 0x22) return j;
      if (d === 0x5c) j++;
      j++;
    }
    if (j >= n) return -1;
    const q = body.indexOf(0x22, j);
    if (q < 0) return -1;
    let b = q - 1;
    while (body[b] === 0x5c) b--; // stops at the opening quote at the latest
    if (((q - 1 - b) & 1) === 0) return q;
    j = q + 1;
  }
}
