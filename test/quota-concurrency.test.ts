import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { periodAt } from '../src/auth/period.ts';
import { encodeSnapshot } from '../src/auth/usage-snapshot.ts';
import { writeFileAtomic } from '../src/auth/keys-file.ts';
import { bearer, issueKeys, startAuthGateway } from './helpers/auth-fixture.ts';
import { meteredPath } from './helpers/metered-service.ts';

const statusCounts = (statuses: number[]): Record<number, number> => statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

describe('exact metering under concurrency (real HTTP)', () => {
  it('500 concurrent requests against a key with 100 left yield exactly 100 successes', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'gw-quota-'));
    const [k] = issueKeys(path.join(dataDir, 'keys.json'), [{ tenant: 'race', plan: 'free' }]);
    const gw = await startAuthGateway({ dataDir });
    try {
      const results = await Promise.all(
        Array.from({ length: 500 }, () => gw.post(meteredPath('API-138'), { delay_ms: 5 }, bearer(k!.key)).then(async (r) => ({ status: r.status, code: r.status === 200 ? null : ((await r.json()) as { error: { code: string } }).error.code }))),
      );
      assert.deepEqual(statusCounts(results.map((r) => r.status)), { 200: 100, 429: 400 });
      assert.ok(results.every((r) => r.code === null || r.code === 'QUOTA_EXCEEDED'));
      const usage = await (await gw.get('/v1/usage', bearer(k!.key))).json();
      assert.deepEqual(usage.services['API-138'], { included: false, used: 100, limit: 100, remaining: 0 });
    } finally {
      await gw.close();
    }
  });

  it('a pooled plan with 100 left grants exactly 100 of 500 requests spread over its services', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'gw-quota-'));
    const [k] = issueKeys(path.join(dataDir, 'keys.json'), [{ tenant: 'pool', plan: 'pack1' }]);
    const period = periodAt(Date.now()).id;
    writeFileAtomic(path.join(dataDir, 'usage.snapshot'), encodeSnapshot({ [period]: { [`key:${k!.id}`]: { plan: 9_900, 'svc:API-01': 9_900 } } }));
    const gw = await startAuthGateway({ dataDir });
    try {
      const services = ['API-01', 'API-05', 'API-09'] as const;
      const statuses = await Promise.all(Array.from({ length: 500 }, (_, i) => gw.post(meteredPath(services[i % 3]!), {}, bearer(k!.key)).then((r) => r.status)));
      assert.deepEqual(statusCounts(statuses), { 200: 100, 429: 400 });
      const usage = await (await gw.get('/v1/usage', bearer(k!.key))).json();
      assert.deepEqual([usage.plan_allowance.used, usage.plan_allowance.remaining], [10_000, 0]);
    } finally {
      await gw.close();
    }
  });
});
