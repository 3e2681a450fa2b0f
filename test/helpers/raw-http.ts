/**
 * Raw HTTP/1.1 over a socket, for tests that fetch() cannot express: lying Content-Length,
 * chunked bodies, slow senders, aborts mid-body, invalid bytes.
 */
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
  /** true when the server closed the connection after the response. */
  readonly closed: boolean;
}

export function parseResponse(raw: Buffer): { res: RawResponse | null; consumed: number } {
  const headEnd = raw.indexOf('\r\n\r\n');
  if (headEnd === -1) return { res: null, consumed: 0 };
  const head = raw.subarray(0, headEnd).toString('latin1').split('\r\n');
  const status = Number(head[0]!.split(' ')[1]);
  const headers: Record<string, string> = {};
  for (const line of head.slice(1)) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  if (raw.length < headEnd + 4 + length) return { res: null, consumed: 0 };
  const body = raw.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8');
  return { res: { status, headers, body, closed: false }, consumed: headEnd + 4 + length };
}

export interface RawOptions {
  /** Parts written in order; a number is a pause in ms. */
  readonly parts: ReadonlyArray<string | Buffer | number>;
  /** Destroy the socket after writing the parts (client abort). */
  readonly abortAfterParts?: boolean;
  readonly timeoutMs?: number;
}

/** Sends the parts and resolves with the first response (or null when the server sent none). */
export function rawRequest(port: number, options: RawOptions): Promise<RawResponse | null> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    let result: RawResponse | null = null;
    let settled = false;
    const done = (closed: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result ? { ...result, closed } : null);
    };
    const timer = setTimeout(() => done(false), options.timeoutMs ?? 15_000);
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      const { res } = parseResponse(received);
      if (res && !result) {
        result = res;
        // Give the server a moment to close the connection, which some answers must do.
        setTimeout(() => done(socket.destroyed || socket.readableEnded), 100);
      }
    });
    socket.on('end', () => done(true));
    socket.on('close', () => done(true));
    socket.on('error', (err) => {
      if ((err as NodeJS.ErrnoException).code === 'ECONNRESET' || (err as NodeJS.ErrnoException).code === 'EPIPE') done(true);
      else if (!settled) {
        settled = true;
        clearTimeout(timer);
        reject(err);
      }
    });
    socket.once('connect', async () => {
      for (const part of options.parts) {
        // Like a careful client, stop sending once the server has answered (an early 413).
        if (socket.destroyed || result !== null) return;
        if (typeof part === 'number') await new Promise((r) => setTimeout(r, part));
        // Respect backpressure like a real client, so the server's early answer can be read.
        else if (!socket.write(part)) await new Promise((r) => socket.once('drain', r).once('close', r));
      }
      if (options.abortAfterParts) {
        socket.destroy();
        done(true);
      }
    });
  });
}

export function post(path: string, body: string | Buffer, headers: Record<string, string> = {}): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const lines = [`POST ${path} HTTP/1.1`, 'Host: 127.0.0.1', ...Object.entries({ 'content-type': 'application/json', 'content-length': String(bytes.length), ...headers }).filter(([, v]) => v !== '').map(([k, v]) => `${k}: ${v}`)];
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), bytes]);
}
