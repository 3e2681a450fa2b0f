/**
 * Test helper: a real gateway on 127.0.0.1 port 0, with its log lines captured in memory.
 *
 *   const gw = await startTestGateway({ env: { AUTH_MODE: 'required' } });
 *   const res = await gw.post('/v1/sepa/vop', { iban: '...', beneficiary_name: '...' });
 *   await gw.close();
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config.ts';
import { startGateway, type Gateway, type GatewayOptions } from '../../src/gateway.ts';

export interface TestGateway {
  readonly gateway: Gateway;
  readonly url: string;
  readonly port: number;
  /** Every log line written so far (raw JSON text). */
  readonly logs: string[];
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

export async function startTestGateway(options: { env?: Record<string, string>; gateway?: Omit<GatewayOptions, 'logDestination'> } = {}): Promise<TestGateway> {
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const line of chunk.toString('utf8').split('\n')) if (line !== '') logs.push(line);
      cb();
    },
  });
  const config = loadConfig({ HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', WORKER_THREADS: '1', DATA_DIR: mkdtempSync(path.join(tmpdir(), 'gw-test-')), ...options.env });
  const gateway = await startGateway(config, { warmup: false, ...options.gateway, logDestination: sink });
  const url = `http://127.0.0.1:${gateway.port}`;
  return {
    gateway,
    url,
    port: gateway.port,
    logs,
    post: (path, body, headers = {}) =>
      fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) }),
    get: (path, headers = {}) => fetch(url + path, { headers }),
    close: () => gateway.close(),
  };
}
