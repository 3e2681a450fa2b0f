/**
 * The shared UsageStore suite: every implementation (memory now, Redis later) must pass it.
 *
 *   usageStoreSuite('memory', async () => new MemoryUsageStore());
 *   usageStoreSuite('redis', async () => new RedisUsageStore(url), { skip: url ? false : 'REDIS_URL not set' });
 *
 * The factory must return an empty store each call (use a fresh key prefix for networked stores).
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { UsageCharge, UsageStore } from '../../src/auth/usage-store.ts';

export function usageStoreSuite(name: string, factory: () => Promise<UsageStore>, options: { skip?: string | false } = {}): void {
  describe(`UsageStore contract: ${name}`, { skip: options.skip || false }, () => {
    const opened: UsageStore[] = [];
    const fresh = async (): Promise<UsageStore> => {
      const s = await factory();
      opened.push(s);
      return s;
    };
    after(async () => {
      await Promise.all(opened.map((s) => s.close()));
    });
    const charge = (over: Partial<UsageCharge> = {}): UsageCharge => ({ period: '2026-11', subject: 'key:0000000000000001', bucket: 'plan', limit: 3, tally: 'svc:API-01', ...over });

    it('grants until the limit, then refuses without changing the count', async () => {
      const s = await fresh();
      const results = [];
      for (let i = 0; i < 5; i++) results.push(await s.take(charge()));
      assert.deepEqual(results.map((r) => r.granted), [true, true, true, false, false]);
      assert.deepEqual(results.map((r) => r.used), [1, 2, 3, 3, 3]);
      assert.deepEqual(await s.read('2026-11', 'key:0000000000000001'), { plan: 3, 'svc:API-01': 3 });
    });

    it('never grants more than the limit to concurrent takes', async () => {
      const s = await fresh();
      const c = charge({ limit: 100, subject: 'key:concurrent' });
      const results = await Promise.all(Array.from({ length: 500 }, () => s.take(c)));
      assert.equal(results.filter((r) => r.granted).length, 100);
      assert.equal((await s.read('2026-11', 'key:concurrent')).plan, 100);
    });

    it('refund gives one unit back to bucket and tally, and never goes below zero', async () => {
      const s = await fresh();
      const c = charge({ subject: 'key:refund', limit: 1 });
      assert.equal((await s.take(c)).granted, true);
      assert.equal((await s.take(c)).granted, false);
      await s.refund(c);
      assert.deepEqual(await s.read('2026-11', 'key:refund'), {});
      await s.refund(c);
      await s.refund(c);
      assert.equal((await s.take(c)).granted, true, 'extra refunds must not create credit beyond the limit');
      assert.equal((await s.take(c)).granted, false);
    });

    it('keeps subjects, buckets and periods apart', async () => {
      const s = await fresh();
      await s.take(charge({ subject: 'key:a', bucket: 'free:API-138', tally: 'svc:API-138', limit: 100 }));
      await s.take(charge({ subject: 'key:a', bucket: 'plan', limit: 100 }));
      await s.take(charge({ subject: 'key:b', bucket: 'plan', limit: 100 }));
      await s.take(charge({ subject: 'key:a', bucket: 'plan', limit: 100, period: '2026-12' }));
      assert.deepEqual(await s.read('2026-11', 'key:a'), { 'free:API-138': 1, 'svc:API-138': 1, plan: 1, 'svc:API-01': 1 });
      assert.deepEqual(await s.read('2026-11', 'key:b'), { plan: 1, 'svc:API-01': 1 });
      assert.deepEqual(await s.read('2026-12', 'key:a'), { plan: 1, 'svc:API-01': 1 });
      assert.deepEqual(await s.read('2026-10', 'key:a'), {});
    });

    it('a new period starts from zero while the old one is full', async () => {
      const s = await fresh();
      const nov = charge({ subject: 'key:roll', limit: 2 });
      await s.take(nov);
      await s.take(nov);
      assert.equal((await s.take(nov)).granted, false);
      const dec = { ...nov, period: '2026-12' };
      assert.deepEqual(await s.take(dec), { granted: true, used: 1 });
    });

    it('a charge without tally counts only the bucket', async () => {
      const s = await fresh();
      const { tally: _ignored, ...noTally } = charge({ subject: 'key:notally' });
      await s.take(noTally);
      assert.deepEqual(await s.read('2026-11', 'key:notally'), { plan: 1 });
    });

    it('a limit of zero refuses every take', async () => {
      const s = await fresh();
      assert.deepEqual(await s.take(charge({ subject: 'key:zero', limit: 0 })), { granted: false, used: 0 });
    });
  });
}
