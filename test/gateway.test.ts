import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { taskRef } from '../src/pool/worker-pool.ts';
import type { ServiceFactory } from '../src/services/types.ts';
import { startTestGateway } from './helpers/gateway.ts';
import { echoFactory } from './helpers/test-routes.ts';

describe('gateway composition', () => {
  it('runs every service warm-up before it listens, and skips them when asked', async () => {
    const calls: string[] = [];
    const factory: ServiceFactory = ({ pool }) => ({
      routes: [],
      warmup: async () => {
        await pool.warm(taskRef(new URL('./fixtures/test-worker.ts', import.meta.url), 'echo'), { value: 1 });
        calls.push('warm');
      },
    });
    const warmed = await startTestGateway({ gateway: { factories: [factory], warmup: true } });
    assert.deepEqual(calls, ['warm']);
    assert.ok(warmed.gateway.pool.stats().completed >= 1);
    await warmed.close();
    const cold = await startTestGateway({ gateway: { factories: [factory] } });
    assert.deepEqual(calls, ['warm']);
    await cold.close();
  });

  it('builds two independent gateways in one process', async () => {
    const a = await startTestGateway({ gateway: { factories: [echoFactory] } });
    const b = await startTestGateway({ gateway: { factories: [] } });
    try {
      assert.notEqual(a.port, b.port);
      assert.equal((await a.post('/test/echo', { text: 'a' })).status, 200);
      assert.equal((await b.post('/test/echo', { text: 'b' })).status, 404);
      const metricsB = await (await b.get('/metrics')).text();
      assert.equal(metricsB.includes('/test/echo'), false, 'metrics are per gateway');
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('stops the boot with the factory error and leaves nothing running', async () => {
    const failing: ServiceFactory = () => {
      throw new Error('payee directory line 3: malformed');
    };
    await assert.rejects(startTestGateway({ gateway: { factories: [echoFactory, failing] } }), /line 3: malformed/);
  });
});
