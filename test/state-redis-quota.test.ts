/**
 * Quotas on Redis: the shared UsageStore suite (unchanged) against RedisUsageStore, the GCRA burst
 * limiter, and two gateways sharing one Redis granting exactly the units left. Runs when REDIS_URL
 * is set; skipped (with the reason) otherwise.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import type { UsageStore } from '../src/auth/usage-store.ts';
import { RedisConnection } from '../src/state/redis-connection.ts';
import { RedisRateLimiter } from '../src/state/redis-rate-limiter.ts';
import { RedisUsageStore, usageExpiry } from '../src/state/redis-usage-store.ts';
import { bearer, issueKeys } from './helpers/auth-fixture.ts';
import { startTestGateway, type TestGateway } from './helpers/gateway.ts';
import { meteredFactory, meteredPath } from './helpers/metered-service.ts';
import { deleteKeys, REDIS_SKIP, REDIS_URL, uniquePrefix } from './helpers/redis.ts';
import { usageStoreSuite } from './helpers/usage-store-suite.ts';

const prefixes: string[] = [];
after(async () => {
  if (REDIS_URL !== null) for (const p of prefixes) await deleteKeys(REDIS_URL, p);
});

async function connect(label: string): Promise<RedisConnection> {
  const keyPrefix = uniquePrefix(label);
  prefixes.push(keyPrefix);
  return RedisConnection.connect({ url: REDIS_URL!, keyPrefix });
}

usageStoreSuite(
  'redis',
  async (): Promise<UsageStore> => {
    const conn = await connect('usage');
    const store = new RedisUsageStore(conn);
    return { take: (c) => store.take(c), refund: (c) => store.refund(c), read: (p, s) => store.read(p, s), close: () => conn.close() };
  },
  { skip: REDIS_SKIP },
);

describe('usage counters on Redis', () => {
  it('expire 35 days after the end of their month', () => {
    assert.equal(usageExpiry('2026-11'), Date.UTC(2026, 11, 1) / 1000 + 35 * 86400);
    assert.equal(usageExpiry('2026-12'), Date.UTC(2027, 0, 1) / 1000 + 35 * 86400);
    assert.throws(() => usageExpiry('2026-13-01'), RangeError);
  });

  it('set that expiry on the month hash', { skip: REDIS_SKIP }, async () => {
    const conn = await connect('expiry');
    try {
      await new RedisUsageStore(conn).take({ period: '2026-11', subject: 'key:e', bucket: 'plan', limit: 5 });
      assert.equal(await conn.command(['EXPIRETIME', `${conn.keyPrefix}u:2026-11:key:e`]), usageExpiry('2026-11'));
    } finally {
      await conn.close();
    }
  });
});

describe('burst limiter on Redis (GCRA)', { skip: REDIS_SKIP }, () => {
  it('allows a burst of rps requests, then refuses with Retry-After, then refills', async () => {
    const conn = await connect('gcra');
    try {
      const limiter = new RedisRateLimiter(conn);
      const first = await Promise.all(Array.from({ length: 12 }, () => limiter.take('key:b', 10)));
      assert.equal(first.filter((d) => d.allowed).length, 10);
      assert.ok(first.filter((d) => !d.allowed).every((d) => d.retryAfterS === 1));
      await new Promise((r) => setTimeout(r, 250));
      const later = await Promise.all(Array.from({ length: 5 }, () => limiter.take('key:b', 10)));
      // 250 ms at 10/s refill 2 tokens (2.5, rounded down by the bucket).
      assert.equal(later.filter((d) => d.allowed).length, 2);
      assert.deepEqual(await limiter.take('key:other', 10), { allowed: true, retryAfterS: 0 });
      assert.deepEqual(await limiter.take('key:b', 0), { allowed: true, retryAfterS: 0 }, 'rps 0 is unlimited');
    } finally {
      await conn.close();
    }
  });

  it('is shared: two limiters on one Redis hand out one burst between them', async () => {
    const a = await connect('gcra2');
    const conn2 = await RedisConnection.connect({ url: REDIS_URL!, keyPrefix: a.keyPrefix });
    try {
      const la = new RedisRateLimiter(a);
      const lb = new RedisRateLimiter(conn2);
      const all = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? la : lb).take('key:s', 20)));
      assert.equal(all.filter((d) => d.allowed).length, 20);
    } finally {
      await a.close();
      await conn2.close();
    }
  });
});

describe('burst limit and usage take in one script (takeWithBurst)', { skip: REDIS_SKIP }, () => {
  const charge = { period: '2026-11', subject: 'key:f', bucket: 'plan', limit: 3, tally: 'svc:API-138' };

  it('takes nothing when the burst limit refuses, and shares its GCRA state with RedisRateLimiter', async () => {
    const conn = await connect('fused');
    try {
      const store = new RedisUsageStore(conn);
      // Two of the burst of 2 are spent through the stand-alone limiter ...
      const limiter = new RedisRateLimiter(conn);
      assert.ok((await limiter.take('key:f', 2)).allowed);
      assert.ok((await limiter.take('key:f', 2)).allowed);
      // ... so the fused script refuses and leaves the counters alone.
      assert.deepEqual(await store.takeWithBurst(charge, 2), { rateLimited: true, retryAfterS: 1, take: null });
      assert.deepEqual(await store.read('2026-11', 'key:f'), {});
      const other = { ...charge, subject: 'key:g' };
      const granted = await Promise.all(Array.from({ length: 5 }, () => store.takeWithBurst(other, 100)));
      assert.deepEqual(
        granted.map((r) => r.take?.granted),
        [true, true, true, false, false],
        'the limit of 3 holds inside the fused script',
      );
      assert.deepEqual(await store.read('2026-11', 'key:g'), { plan: 3, 'svc:API-138': 3 });
    } finally {
      await conn.close();
    }
  });

  it('makes one Redis round trip per metered request through the gatekeeper', async () => {
    const conn = await connect('fused-gk');
    try {
      const store = new RedisUsageStore(conn);
      let evals = 0;
      const realEval = conn.eval.bind(conn);
      conn.eval = ((...args: Parameters<typeof conn.eval>) => {
        evals++;
        return realEval(...args);
      }) as typeof conn.eval;
      const { QuotaGatekeeper } = await import('../src/auth/gatekeeper.ts');
      const { parseRateLimit } = await import('../src/config.ts');
      const gk = new QuotaGatekeeper({
        mode: 'optional',
        keys: { lookup: () => null },
        usage: store,
        limiter: { take: () => assert.fail('the stand-alone limiter must not be called when the store meters bursts') },
        rateLimit: parseRateLimit('1'),
        trustProxy: false,
        failMode: 'closed',
      });
      const route = { method: 'POST', paths: ['/x'], service: 'API-138', summary: 'x', handler: () => ({}) } as const;
      const principal = gk.authenticate({ headers: {}, clientIp: '192.0.2.7', route: route as never });
      await gk.admit(principal, route as never);
      assert.equal(evals, 1);
      await assert.rejects(Promise.resolve(gk.admit(principal, route as never)), (err: { code?: string }) => err.code === 'RATE_LIMITED');
      assert.equal(evals, 2);
    } finally {
      await conn.close();
    }
  });
});

describe('two gateways on one Redis', { skip: REDIS_SKIP }, () => {
  const statusCounts = (statuses: number[]): Record<number, number> => statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

  async function twoGateways(env: Record<string, string> = {}): Promise<{ a: TestGateway; b: TestGateway; key: string; prefix: string }> {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'gw-redis-'));
    const keysFile = path.join(dataDir, 'keys.json');
    const [k] = issueKeys(keysFile, [{ tenant: 'race', plan: 'free' }]);
    const prefix = uniquePrefix('gw');
    prefixes.push(prefix);
    const start = (): Promise<TestGateway> =>
      startTestGateway({
        env: { AUTH_MODE: 'required', RATE_LIMIT_RPS: '0', DATA_DIR: dataDir, API_KEYS_FILE: keysFile, STATE_BACKEND: 'redis', REDIS_URL: REDIS_URL!, ...env },
        gateway: { factories: [meteredFactory()], state: { keyPrefix: prefix } },
      });
    const a = await start();
    const b = await start();
    return { a, b, key: k!.key, prefix };
  }

  it('500 concurrent requests spread over both against a key with 100 left yield exactly 100 successes', async () => {
    const { a, b, key } = await twoGateways();
    try {
      assert.notEqual(a.port, b.port);
      const results = await Promise.all(
        Array.from({ length: 500 }, (_, i) =>
          (i % 2 === 0 ? a : b).post(meteredPath('API-138'), { delay_ms: 5 }, bearer(key)).then(async (r) => ({ status: r.status, code: r.status === 200 ? null : ((await r.json()) as { error: { code: string } }).error.code })),
        ),
      );
      assert.deepEqual(statusCounts(results.map((r) => r.status)), { 200: 100, 429: 400 });
      assert.ok(results.every((r) => r.code === null || r.code === 'QUOTA_EXCEEDED'));
      for (const gw of [a, b]) {
        const usage = await (await gw.get('/v1/usage', bearer(key))).json();
        assert.deepEqual(usage.services['API-138'], { included: false, used: 100, limit: 100, remaining: 0 });
      }
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('refunds a caller error on one gateway so the other sees the unit back', async () => {
    const { a, b, key } = await twoGateways();
    try {
      assert.equal((await a.post(meteredPath('API-138'), { fail: 'client' }, bearer(key))).status, 400);
      assert.equal((await a.post(meteredPath('API-138'), {}, bearer(key))).status, 200);
      const usage = await (await b.get('/v1/usage', bearer(key))).json();
      assert.equal(usage.services['API-138'].used, 1);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('shares the burst limit: 2 rps per key over both gateways', async () => {
    const { a, b, key } = await twoGateways({ RATE_LIMIT_RPS: '2' });
    try {
      const statuses = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? a : b).post(meteredPath('API-138'), {}, bearer(key)).then((r) => r.status)));
      assert.deepEqual(statusCounts(statuses), { 200: 2, 429: 4 });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe('boot with STATE_BACKEND=redis', () => {
  it('fails clearly when Redis is unreachable', async () => {
    const { freePort } = await import('./helpers/redis.ts');
    const port = await freePort();
    await assert.rejects(
      startTestGateway({ env: { STATE_BACKEND: 'redis', REDIS_URL: `redis://:secret@127.0.0.1:${port}` } }),
      (err: Error) => {
        assert.equal(err.name, 'RedisUnavailableError');
        assert.match(err.message, new RegExp(`STATE_BACKEND=redis but Redis at redis://:\\*\\*\\*@127\\.0\\.0\\.1:${port}/? is unreachable \\(.*ECONNREFUSED\\)`));
        assert.doesNotMatch(err.message, /secret/);
        return true;
      },
    );
  });
});
