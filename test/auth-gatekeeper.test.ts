import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { QuotaGatekeeper, normaliseAddress, presentedKey, type KeyLookup } from '../src/auth/gatekeeper.ts';
import { TokenBucketLimiter } from '../src/auth/rate-limiter.ts';
import { MemoryUsageStore, type UsageStore } from '../src/auth/usage-store.ts';
import { parseRateLimit } from '../src/config.ts';
import { GatewayError } from '../src/errors.ts';
import type { Admission, RouteDef } from '../src/server/types.ts';

const route = { method: 'POST', paths: ['/x'], service: 'API-138', summary: 'x', handler: () => ({}) } as RouteDef;
const noKeys: KeyLookup = { lookup: () => null };

function gatekeeper(usage: UsageStore, failMode: 'closed' | 'open' = 'closed'): QuotaGatekeeper {
  return new QuotaGatekeeper({ mode: 'optional', keys: noKeys, usage, limiter: new TokenBucketLimiter(), rateLimit: parseRateLimit('0'), trustProxy: false, failMode, now: () => Date.parse('2026-11-15T00:00:00Z') });
}

describe('presentedKey', () => {
  const cases: Array<[Record<string, string>, string | null]> = [
    [{ authorization: 'Bearer gwk_abc' }, 'gwk_abc'],
    [{ authorization: 'bearer \t gwk_abc  ' }, 'gwk_abc'],
    [{ authorization: 'BEARER gwk_abc' }, 'gwk_abc'],
    [{ authorization: 'Bearer a b' }, null],
    [{ authorization: 'Bearer' }, null],
    [{ authorization: 'Bearergwk_abc' }, null],
    [{ authorization: 'Basic dXNlcjpwYXNz' }, null],
    [{ authorization: 'Basic dXNlcjpwYXNz', 'x-api-key': 'gwk_x' }, 'gwk_x'],
    [{ authorization: 'Bearer gwk_a', 'x-api-key': 'gwk_b' }, 'gwk_a'],
    [{ 'x-api-key': '  gwk_x ' }, 'gwk_x'],
    [{ 'x-api-key': '   ' }, null],
    [{}, null],
  ];
  for (const [headers, expected] of cases) {
    it(`${JSON.stringify(headers)} -> ${String(expected)}`, () => assert.equal(presentedKey(headers), expected));
  }
});

describe('normaliseAddress (anonymous counting unit)', () => {
  const cases: Array<[string, string]> = [
    ['203.0.113.9', '203.0.113.9'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['0000:0000:0000:0000:0000:ffff:cb00:7109', '203.0.113.9'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['::1', '0:0:0:0::/64'],
    ['not-an-ip', 'not-an-ip'],
  ];
  for (const [raw, expected] of cases) {
    it(`${raw} counts as ${expected}`, () => assert.equal(normaliseAddress(raw), expected));
  }
});

describe('QuotaGatekeeper with a networked (async) store', () => {
  const anonymous = (gk: QuotaGatekeeper) => gk.authenticate({ headers: {}, clientIp: '198.51.100.1', route });

  it('meters exactly through a store that answers with promises', async () => {
    const memory = new MemoryUsageStore();
    const asyncStore: UsageStore = {
      take: async (c) => memory.take(c),
      refund: async (c) => memory.refund(c),
      read: async (p, s) => memory.read(p, s),
      close: async () => undefined,
    };
    const gk = gatekeeper(asyncStore);
    const results = await Promise.allSettled(Array.from({ length: 150 }, () => Promise.resolve(gk.admit(anonymous(gk), route))));
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 100);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    assert.equal((refused.reason as GatewayError).code, 'QUOTA_EXCEEDED');
  });

  const failing: UsageStore = {
    take: () => Promise.reject(new Error('connection refused')),
    refund: () => Promise.reject(new Error('connection refused')),
    read: () => Promise.reject(new Error('connection refused')),
    close: async () => undefined,
  };

  it('QUOTA_FAIL_MODE=closed answers 503 OVERLOADED with Retry-After when the store fails', async () => {
    const gk = gatekeeper(failing, 'closed');
    await assert.rejects(Promise.resolve(gk.admit(anonymous(gk), route)), (err: GatewayError) => err.code === 'OVERLOADED' && err.status === 503 && err.headers?.['retry-after'] === '1');
  });

  it('QUOTA_FAIL_MODE=open serves uncounted when the store fails', async () => {
    const gk = gatekeeper(failing, 'open');
    const admission = (await gk.admit(anonymous(gk), route)) as Admission;
    assert.equal(admission.headers, undefined);
  });

  it('settles once: a second settle cannot refund twice', () => {
    const memory = new MemoryUsageStore();
    const gk = gatekeeper(memory);
    const p = anonymous(gk);
    (gk.admit(p, route) as Admission).settle!(200);
    const second = gk.admit(p, route) as Admission;
    second.settle!(400);
    second.settle!(400);
    assert.equal(memory.read('2026-11', 'ip:198.51.100.1')['free:API-138'], 1);
  });
});
