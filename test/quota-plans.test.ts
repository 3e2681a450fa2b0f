import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { periodAt, secondsUntilReset } from '../src/auth/period.ts';
import { buildPlans, FREE_TIER_PER_SERVICE, quotaRule } from '../src/auth/plans.ts';
import { TokenBucketLimiter } from '../src/auth/rate-limiter.ts';
import { PLAN_NAMES } from '../src/config.ts';
import { SERVICE_IDS, type ServiceId } from '../src/server/types.ts';

const plans = buildPlans();

describe('plans (CONTRACT.md §4 table)', () => {
  const table: Array<[string, ServiceId[], number]> = [
    ['free', [], 0],
    ['pack1', ['API-01', 'API-05', 'API-09'], 10_000],
    ['pack2', ['API-01', 'API-05', 'API-09'], 10_000],
    ['pack3', ['API-01', 'API-05', 'API-08', 'API-09', 'API-21'], 250_000],
    ['pack4', ['API-01', 'API-05', 'API-08', 'API-09', 'API-21', 'API-138'], 1_000_000],
  ];
  for (const [name, services, allowance] of table) {
    it(`${name} includes ${services.join(', ') || 'no paid service'} with ${allowance} pooled requests`, () => {
      const p = plans.get(name as (typeof PLAN_NAMES)[number])!;
      assert.deepEqual([...p.services].sort(), [...services].sort());
      assert.equal(p.monthlyAllowance, allowance);
    });
  }

  it('is cumulative: every plan includes the services of the plans below it', () => {
    for (let i = 1; i < PLAN_NAMES.length; i++) {
      const lower = plans.get(PLAN_NAMES[i - 1]!)!;
      const upper = plans.get(PLAN_NAMES[i]!)!;
      for (const s of lower.services) assert.ok(upper.services.has(s), `${upper.name} lacks ${s}`);
    }
  });

  it('draws an included service from the pool and an excluded one from its own free tier', () => {
    assert.deepEqual(quotaRule(plans, 'pack1', 'API-01'), { bucket: 'plan', limit: 10_000, inPlan: true, exhausted: 'QUOTA_EXCEEDED' });
    assert.deepEqual(quotaRule(plans, 'pack1', 'API-138'), { bucket: 'free:API-138', limit: FREE_TIER_PER_SERVICE, inPlan: false, exhausted: 'FORBIDDEN' });
  });

  it('gives free keys and anonymous callers 100 per service, exhausted as QUOTA_EXCEEDED', () => {
    for (const plan of ['free', null] as const) {
      for (const s of SERVICE_IDS) {
        assert.deepEqual(quotaRule(plans, plan, s), { bucket: `free:${s}`, limit: 100, inPlan: false, exhausted: 'QUOTA_EXCEEDED' });
      }
    }
  });
});

describe('metering periods (UTC calendar months)', () => {
  const cases: Array<[string, string, string]> = [
    ['2026-11-21T18:00:00Z', '2026-11', '2026-12-01T00:00:00.000Z'],
    ['2026-12-31T23:59:59.999Z', '2026-12', '2027-01-01T00:00:00.000Z'],
    ['2027-01-01T00:00:00Z', '2027-01', '2027-02-01T00:00:00.000Z'],
    ['2028-02-29T12:00:00Z', '2028-02', '2028-03-01T00:00:00.000Z'],
  ];
  for (const [at, id, reset] of cases) {
    it(`${at} is in ${id}, which resets at ${reset}`, () => {
      const p = periodAt(Date.parse(at));
      assert.equal(p.id, id);
      assert.equal(new Date(p.endMs).toISOString(), reset);
    });
  }

  it('counts whole seconds to the reset, never less than 1', () => {
    const p = periodAt(Date.parse('2026-11-30T23:59:00Z'));
    assert.equal(secondsUntilReset(p, Date.parse('2026-11-30T23:59:00Z')), 60);
    assert.equal(secondsUntilReset(p, Date.parse('2026-11-30T23:59:59.900Z')), 1);
  });
});

describe('token bucket burst limiter', () => {
  it('allows a burst of rps requests, then one per 1/rps seconds', () => {
    let t = 0;
    const limiter = new TokenBucketLimiter(() => t);
    const burst = Array.from({ length: 6 }, () => limiter.take('key:a', 5).allowed);
    assert.deepEqual(burst, [true, true, true, true, true, false]);
    t += 199;
    assert.equal(limiter.take('key:a', 5).allowed, false);
    t += 2;
    assert.equal(limiter.take('key:a', 5).allowed, true);
  });

  it('keeps callers apart and answers a Retry-After of at least one second', () => {
    let t = 0;
    const limiter = new TokenBucketLimiter(() => t);
    assert.equal(limiter.take('key:a', 1).allowed, true);
    const refused = limiter.take('key:a', 1);
    assert.deepEqual(refused, { allowed: false, retryAfterS: 1 });
    assert.equal(limiter.take('key:b', 1).allowed, true);
    assert.equal(new TokenBucketLimiter(() => t).take('key:a', 0.1).allowed, true);
    const slow = new TokenBucketLimiter(() => t);
    slow.take('k', 0.1);
    assert.equal(slow.take('k', 0.1).retryAfterS, 10);
  });

  it('treats 0 as unlimited and forgets idle full buckets', () => {
    let t = 0;
    const limiter = new TokenBucketLimiter(() => t);
    for (let i = 0; i < 1000; i++) assert.equal(limiter.take('key:a', 0).allowed, true);
    limiter.take('key:b', 10);
    assert.equal(limiter.size, 1);
    t += 120_000;
    limiter.take('key:c', 10);
    assert.equal(limiter.size, 1, 'key:b refilled and was swept');
  });
});
