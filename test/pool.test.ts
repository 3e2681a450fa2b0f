import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import { GatewayError } from '../src/errors.ts';
import { taskRef, WorkerPool, workerExecArgv } from '../src/pool/worker-pool.ts';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ServiceFactory } from '../src/services/types.ts';
import { startTestGateway } from './helpers/gateway.ts';

const WORKER = new URL('./fixtures/test-worker.ts', import.meta.url);
const echo = taskRef(WORKER, 'echo');
const sleep = taskRef(WORKER, 'sleep');

describe('WorkerPool', () => {
  const pool = new WorkerPool({ threads: 1, maxQueue: 2 });
  after(() => pool.close());

  it('runs a TypeScript worker function and returns its result', async () => {
    assert.deepEqual(await pool.run(echo, { value: [1, 'a'] }), { value: [1, 'a'], threadEcho: true });
  });

  it('keeps the error code of a GatewayError thrown in a worker', async () => {
    await assert.rejects(pool.run(taskRef(WORKER, 'coded'), {}), (err: unknown) => {
      assert.ok(err instanceof GatewayError);
      assert.equal(err.code, 'VALIDATION_FAILED');
      assert.deepEqual(err.details, [{ path: '/x', message: 'bad' }]);
      return true;
    });
  });

  it('rejects with a plain error when a worker throws, and keeps serving', async () => {
    await assert.rejects(pool.run(taskRef(WORKER, 'plain'), {}), (err: unknown) => !(err instanceof GatewayError));
    assert.deepEqual(await pool.run(echo, { value: 1 }), { value: 1, threadEcho: true });
  });

  it('survives a worker that dies and serves the next task', async () => {
    await assert.rejects(pool.run(taskRef(WORKER, 'crash'), {}));
    assert.deepEqual(await pool.run(echo, { value: 2 }), { value: 2, threadEcho: true });
  });

  it('answers OVERLOADED with Retry-After when the queue is full', async () => {
    const running = [pool.run(sleep, { ms: 300 }), pool.run(sleep, { ms: 10 }), pool.run(sleep, { ms: 10 })];
    await assert.rejects(pool.run(sleep, { ms: 10 }), (err: unknown) => {
      assert.ok(err instanceof GatewayError);
      assert.equal(err.code, 'OVERLOADED');
      assert.equal(err.headers?.['retry-after'], '1');
      return true;
    });
    await Promise.all(running);
  });

  it('cancels a queued task when its signal aborts', async () => {
    const busy = pool.run(sleep, { ms: 200 });
    const ac = new AbortController();
    const queued = pool.run(sleep, { ms: 10 }, ac.signal);
    ac.abort();
    await assert.rejects(queued, (err: unknown) => err instanceof Error && /abort/i.test(err.name + err.message));
    await busy;
    assert.equal(pool.stats().queued, 0);
  });

  it('validates its options', () => {
    assert.throws(() => new WorkerPool({ threads: 0, maxQueue: 1 }), RangeError);
    assert.throws(() => new WorkerPool({ threads: 1, maxQueue: -1 }), RangeError);
  });
});

describe('worker pool behind HTTP', () => {
  const factory: ServiceFactory = ({ pool }) => ({
    routes: [
      {
        method: 'POST',
        paths: ['/test/pool'],
        summary: 'pool test route',
        body: Type.Object({ fn: Type.String(), ms: Type.Optional(Type.Integer()) }),
        handler: async (ctx) => pool.run<Record<string, unknown>>(taskRef(WORKER, ctx.body.fn), { ms: ctx.body.ms ?? 0, value: 'x' }, ctx.signal),
      },
    ],
  });

  it('maps a full queue to 503 OVERLOADED, a worker crash to 500 INTERNAL, and keeps serving', async () => {
    const gw = await startTestGateway({ env: { WORKER_THREADS: '1', WORKER_QUEUE_MAX: '1' }, gateway: { factories: [factory] } });
    try {
      assert.equal((await gw.post('/test/pool', { fn: 'echo' })).status, 200); // worker up and warm
      const slow = [gw.post('/test/pool', { fn: 'sleep', ms: 400 }), gw.post('/test/pool', { fn: 'sleep', ms: 10 })];
      await new Promise((r) => setTimeout(r, 50));
      const overloaded = await gw.post('/test/pool', { fn: 'sleep', ms: 10 });
      assert.equal(overloaded.status, 503);
      assert.equal(overloaded.headers.get('retry-after'), '1');
      assert.equal((await overloaded.json()).error.code, 'OVERLOADED');
      for (const r of await Promise.all(slow)) assert.equal(r.status, 200);

      const crashed = await gw.post('/test/pool', { fn: 'crash' });
      assert.equal(crashed.status, 500);
      const body = await crashed.json();
      assert.equal(body.error.code, 'INTERNAL');
      assert.equal(JSON.stringify(body).includes('stack'), false);

      const thrown = await gw.post('/test/pool', { fn: 'plain' });
      assert.equal(thrown.status, 500);
      assert.equal((await thrown.json()).error.message, 'Internal error');

      const ok = await gw.post('/test/pool', { fn: 'echo' });
      assert.equal(ok.status, 200);
      assert.equal((await ok.json()).threadEcho, true);
    } finally {
      await gw.close();
    }
  });
});

describe('worker flags', () => {
  it('keeps per-thread options (loaders, warnings) and drops process-wide V8 flags with their values', () => {
    assert.deepEqual(
      workerExecArgv(['--expose-gc', '--import', 'tsx', '--max-semi-space-size', '64', '--no-warnings', '--max-old-space-size=512', '--require=./x.cjs', '--experimental-vm-modules']),
      ['--import', 'tsx', '--no-warnings', '--require=./x.cjs', '--experimental-vm-modules'],
    );
  });

  it('a process started with --expose-gc still runs pool tasks (Node rejects that flag in a worker)', () => {
    const script = `import { taskRef, WorkerPool } from './src/pool/worker-pool.ts';
const pool = new WorkerPool({ threads: 1, maxQueue: 1 });
const r = await pool.run(taskRef(new URL('./test/fixtures/test-worker.ts', 'file://' + process.cwd() + '/'), 'echo'), { value: 7 });
console.log(JSON.stringify(r)); await pool.close();`;
    const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script], { cwd: fileURLToPath(new URL('..', import.meta.url)), encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout.trim()), { value: 7, threadEcho: true });
  });
});
