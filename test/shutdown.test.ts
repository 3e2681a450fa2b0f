import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { freePort } from '../bench/lib/http.ts';
import { startTestGateway, type TestGateway } from './helpers/gateway.ts';
import { echoFactory } from './helpers/test-routes.ts';

/** Waits until the server holds a request (a fixed sleep loses the race on a loaded machine). */
async function untilInFlight(gw: TestGateway): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (gw.gateway.server.inFlight === 0) {
    if (Date.now() > deadline) throw new Error('the request never reached the server');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('graceful shutdown', () => {
  it('lets in-flight requests finish, then refuses new connections', async () => {
    const gw = await startTestGateway({ gateway: { factories: [echoFactory] } });
    const inflight = gw.post('/test/echo', { text: 'drain', delay_ms: 300 });
    await untilInFlight(gw);
    const closing = gw.close();
    const res = await inflight;
    assert.equal(res.status, 200);
    assert.equal((await res.json()).text, 'drain');
    await closing;
    await assert.rejects(fetch(`${gw.url}/v1/health`));
  });

  it('gives up on requests that outlive SHUTDOWN_TIMEOUT_MS', async () => {
    const gw = await startTestGateway({ env: { SHUTDOWN_TIMEOUT_MS: '100' }, gateway: { factories: [echoFactory] } });
    const slow = gw.post('/test/echo', { text: 'slow', delay_ms: 2000 }).catch(() => null);
    await untilInFlight(gw);
    const started = performance.now();
    await gw.close();
    assert.ok(performance.now() - started < 1500, 'close must not wait for the slow request');
    await slow;
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`exits 0 on ${signal} after serving`, async () => {
      const port = await freePort();
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        env: { ...process.env, PORT: String(port), LOG_LEVEL: 'info', WORKER_THREADS: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      const deadline = Date.now() + 30_000;
      let ok = false;
      while (Date.now() < deadline && !ok) {
        ok = await fetch(`http://127.0.0.1:${port}/v1/health`).then((r) => r.status === 200, () => false);
        if (!ok) await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(ok, 'gateway became healthy');
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill(signal);
      assert.equal(await exited, 0);
      assert.match(out, /listening on http:\/\/127\.0\.0\.1:\d+/);
      assert.match(out, /shutting down/);
    });
  }

  it('stops at boot with exit code 2 and names the bad variable', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { ...process.env, PORT: 'eighty', AUTH_MODE: 'sometimes' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    assert.equal(code, 2);
    assert.match(err, /PORT="eighty" is invalid: expected an integer from 0 to 65535/);
    assert.match(err, /AUTH_MODE="sometimes" is invalid: expected one of off, optional, required/);
  });
});
