import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bearer, issueKeys, startAuthGateway, type IssuedKey } from './helpers/auth-fixture.ts';
import { startTestGateway, type TestGateway } from './helpers/gateway.ts';
import { meteredFactory, meteredPath } from './helpers/metered-service.ts';

const IBAN_ROUTE = meteredPath('API-138');
const EXTRACT_ROUTE = meteredPath('API-01');

interface ErrorBody {
  success: false;
  api?: string;
  error: { code: string; message: string };
}

describe('AUTH_MODE=off', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ env: { AUTH_MODE: 'off' }, gateway: { factories: [meteredFactory()] } });
  });
  after(() => gw.close());

  it('serves everyone as the public tenant, uncounted and without RateLimit headers', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await gw.post(IBAN_ROUTE, {}, { authorization: 'Bearer whatever' });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('ratelimit-limit'), null);
      assert.equal((await res.json()).tenant, 'public');
    }
  });

  it('answers /v1/usage with 401: there are no keys', async () => {
    const res = await gw.get('/v1/usage');
    assert.equal(res.status, 401);
    assert.equal(((await res.json()) as ErrorBody).error.code, 'UNAUTHORIZED');
  });
});

describe('AUTH_MODE=required', () => {
  let gw: Awaited<ReturnType<typeof startAuthGateway>>;
  let pack1: IssuedKey;
  let free: IssuedKey;
  const now = Date.parse('2026-11-30T23:00:00Z');
  before(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'gw-auth-'));
    [pack1, free] = issueKeys(path.join(dataDir, 'keys.json'), [
      { tenant: 'acme', plan: 'pack1' },
      { tenant: 'solo', plan: 'free' },
    ]) as [IssuedKey, IssuedKey];
    gw = await startAuthGateway({ dataDir, auth: { now: () => now } });
  });
  after(() => gw.close());

  const refusals: Array<[string, Record<string, string>]> = [
    ['no key', {}],
    ['an unknown key', { authorization: 'Bearer gwk_notakeynotakeynotakeynotakeynotakeynotake' }],
    ['an unknown X-API-Key', { 'x-api-key': 'nope' }],
    ['a non-Bearer Authorization', { authorization: 'Basic dXNlcjpwYXNz' }],
  ];
  for (const [what, headers] of refusals) {
    it(`answers 401 UNAUTHORIZED with the service label for ${what}`, async () => {
      const res = await gw.post(IBAN_ROUTE, {}, headers);
      assert.equal(res.status, 401);
      const body = (await res.json()) as ErrorBody;
      assert.equal(body.error.code, 'UNAUTHORIZED');
      assert.equal(body.api, '[TEST] Metered API-138');
    });
  }

  it('refuses before reading the body: a 401 arrives while the announced body never does', async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(gw.port, '127.0.0.1', () => {
        socket.write(`POST ${IBAN_ROUTE} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`);
      });
      let data = '';
      socket.on('data', (d) => {
        data += d.toString();
        if (data.includes('\r\n\r\n')) {
          socket.destroy();
          resolve(data);
        }
      });
      socket.on('error', reject);
      setTimeout(() => reject(new Error('no early answer')), 2000);
    });
    assert.match(raw, /^HTTP\/1\.1 401/);
  });

  it('accepts the key as Bearer or X-API-Key and hands the tenant to the service', async () => {
    for (const headers of [bearer(pack1.key), { 'x-api-key': pack1.key }, { authorization: `bearer   ${pack1.key}` }]) {
      const res = await gw.post(EXTRACT_ROUTE, {}, headers);
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json().then((b) => [b.tenant, b.plan, b.anonymous]), ['acme', 'pack1', false]);
    }
  });

  it('puts RateLimit headers on counted responses: pooled allowance inside the plan, free tier outside', async () => {
    const inPlan = await gw.post(EXTRACT_ROUTE, {}, bearer(pack1.key));
    assert.equal(inPlan.headers.get('ratelimit-limit'), '10000');
    assert.equal(inPlan.headers.get('ratelimit-reset'), '3600');
    const outside = await gw.post(IBAN_ROUTE, {}, bearer(pack1.key));
    assert.equal(outside.headers.get('ratelimit-limit'), '100');
    assert.equal(outside.headers.get('ratelimit-remaining'), '99');
  });

  it('does not count errors caused by the caller, and counts server errors', async () => {
    const remaining = async (): Promise<number> => Number((await gw.post(meteredPath('API-05'), {}, bearer(pack1.key))).headers.get('ratelimit-remaining'));
    const r0 = await remaining();
    assert.equal((await gw.post(meteredPath('API-05'), { fail: 'client' }, bearer(pack1.key))).status, 400);
    assert.equal((await gw.post(meteredPath('API-05'), { delay_ms: 'x' }, bearer(pack1.key))).status, 400);
    assert.equal((await gw.post(meteredPath('API-05'), '{not json', bearer(pack1.key))).status, 400);
    const r1 = await remaining();
    assert.equal(r1, r0 - 1, 'only the successful probe was counted');
    assert.equal((await gw.post(meteredPath('API-05'), { fail: 'server' }, bearer(pack1.key))).status, 502);
    assert.equal(await remaining(), r1 - 2, 'the 502 was counted');
  });

  it('past the free tier of a service outside the plan answers 403 FORBIDDEN with Retry-After to the next UTC month', async () => {
    let last: Response | undefined;
    for (let i = 0; i < 100; i++) {
      last = await gw.post(meteredPath('API-21'), {}, bearer(pack1.key));
      assert.equal(last.status, 200);
    }
    assert.equal(last!.headers.get('ratelimit-remaining'), '0');
    const res = await gw.post(meteredPath('API-21'), {}, bearer(pack1.key));
    assert.equal(res.status, 403);
    assert.equal(((await res.json()) as ErrorBody).error.code, 'FORBIDDEN');
    assert.equal(res.headers.get('retry-after'), '3600');
    assert.equal(res.headers.get('ratelimit-remaining'), '0');
    assert.equal((await gw.post(EXTRACT_ROUTE, {}, bearer(pack1.key))).status, 200, 'the plan services are unaffected');
  });

  it('past the free tier of a free key answers 429 QUOTA_EXCEEDED with Retry-After to the next UTC month', async () => {
    const results = await Promise.all(Array.from({ length: 101 }, () => gw.post(meteredPath('API-09'), {}, bearer(free.key))));
    const statuses = results.map((r) => r.status).sort();
    assert.equal(statuses.filter((s) => s === 200).length, 100);
    const refused = results.find((r) => r.status === 429)!;
    assert.equal(((await refused.json()) as ErrorBody).error.code, 'QUOTA_EXCEEDED');
    assert.equal(refused.headers.get('retry-after'), '3600');
  });

  it('GET /v1/usage reports counts per service, limits and the reset time', async () => {
    const res = await gw.get('/v1/usage', bearer(pack1.key));
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.tenant, 'acme');
    assert.equal(body.plan, 'pack1');
    assert.equal(body.period, '2026-11');
    assert.equal(body.reset_at, '2026-12-01T00:00:00.000Z');
    assert.equal(body.reset_in_s, 3600);
    assert.deepEqual(body.plan_allowance.services, ['API-01', 'API-05', 'API-09']);
    assert.equal(body.plan_allowance.limit, 10_000);
    assert.equal(body.services['API-21'].used, 100);
    assert.deepEqual(body.services['API-21'], { included: false, used: 100, limit: 100, remaining: 0 });
    assert.equal(body.services['API-138'].used, 1);
    assert.equal(body.services['API-01'].included, true);
    assert.equal(body.plan_allowance.used, body.services['API-01'].used + body.services['API-05'].used + body.services['API-09'].used);
    assert.equal((await gw.get('/v1/usage')).status, 401);
  });

  it('exports decisions per plan and outcome, with no key or tenant id in any label', async () => {
    const text = await (await gw.get('/metrics')).text();
    assert.match(text, /gateway_quota_decisions_total\{plan="pack1",service="API-21",outcome="forbidden"\} 1/);
    assert.match(text, /gateway_quota_decisions_total\{plan="free",service="API-09",outcome="quota_exceeded"\} 1/);
    assert.match(text, /gateway_quota_decisions_total\{plan="pack1",service="API-05",outcome="refunded"\} 1/);
    assert.match(text, /gateway_auth_failures_total\{reason="missing_key"\}/);
    assert.match(text, /gateway_api_keys_active 2/);
    for (const secret of [pack1.key, pack1.id, free.id, 'acme', 'solo']) assert.ok(!text.includes(secret), `metrics leak ${secret}`);
    for (const secret of [pack1.key, free.key]) assert.ok(!gw.logs.join('\n').includes(secret), 'logs leak a key');
  });
});

describe('AUTH_MODE=optional', () => {
  it('counts anonymous callers per client address and ignores X-Forwarded-For without TRUST_PROXY', async () => {
    const gw = await startAuthGateway({ env: { AUTH_MODE: 'optional' } });
    try {
      const a = await gw.post(IBAN_ROUTE, {}, { 'x-forwarded-for': '203.0.113.1' });
      const b = await gw.post(IBAN_ROUTE, {}, { 'x-forwarded-for': '203.0.113.2' });
      assert.equal(a.status, 200);
      assert.equal((await a.json()).tenant, 'public');
      assert.deepEqual([a.headers.get('ratelimit-remaining'), b.headers.get('ratelimit-remaining')], ['99', '98']);
      const wrong = await gw.post(IBAN_ROUTE, {}, bearer('gwk_wrong'));
      assert.equal(wrong.status, 401, 'a wrong key is refused, not served as anonymous');
      assert.equal((await gw.get('/v1/usage')).status, 401);
    } finally {
      await gw.close();
    }
  });

  it('with TRUST_PROXY counts each forwarded address apart, by the hop the proxy appended', async () => {
    const gw = await startAuthGateway({ env: { AUTH_MODE: 'optional', TRUST_PROXY: '1' } });
    try {
      const rem = async (xff: string): Promise<string | null> => (await gw.post(IBAN_ROUTE, {}, { 'x-forwarded-for': xff })).headers.get('ratelimit-remaining');
      assert.equal(await rem('203.0.113.1'), '99');
      assert.equal(await rem('203.0.113.2'), '99');
      assert.equal(await rem('198.51.100.7, 203.0.113.1'), '98', 'a spoofed first hop does not open a new counter');
      assert.equal(await rem('2001:db8:1:2::1'), '99');
      assert.equal(await rem('2001:db8:1:2:ffff::9'), '98', 'IPv6 callers count per /64');
    } finally {
      await gw.close();
    }
  });

  it('applies the burst limit with 429 RATE_LIMITED and Retry-After', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'gw-auth-'));
    const [k] = issueKeys(path.join(dataDir, 'keys.json'), [{ tenant: 'burst', plan: 'pack1' }]);
    const gw = await startAuthGateway({ dataDir, env: { AUTH_MODE: 'optional', RATE_LIMIT_RPS: 'free=1,pack1=3' }, auth: { monotonic: () => 0 } });
    try {
      const keyed = [];
      for (let i = 0; i < 4; i++) keyed.push((await gw.post(EXTRACT_ROUTE, {}, bearer(k!.key))).status);
      assert.deepEqual(keyed, [200, 200, 200, 429]);
      const limited = await gw.post(EXTRACT_ROUTE, {}, bearer(k!.key));
      assert.equal(((await limited.json()) as ErrorBody).error.code, 'RATE_LIMITED');
      assert.equal(limited.headers.get('retry-after'), '1');
      const anon = [(await gw.post(EXTRACT_ROUTE, {})).status, (await gw.post(EXTRACT_ROUTE, {})).status];
      assert.deepEqual(anon, [200, 429], 'anonymous callers get the free plan rate');
      const usage = await (await gw.get('/v1/usage', bearer(k!.key))).json();
      assert.equal(usage.services['API-01'].used, 3, 'rate-limited requests are not counted');
    } finally {
      await gw.close();
    }
  });
});
