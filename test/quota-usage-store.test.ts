import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryUsageStore } from '../src/auth/usage-store.ts';
import { usageStoreSuite } from './helpers/usage-store-suite.ts';

usageStoreSuite('memory', async () => new MemoryUsageStore());

describe('MemoryUsageStore specifics', () => {
  it('keeps only the two newest periods once a newer one is charged', () => {
    const s = new MemoryUsageStore();
    const c = { subject: 'key:x', bucket: 'plan', limit: 10 };
    s.take({ ...c, period: '2026-09' });
    s.take({ ...c, period: '2026-10' });
    s.take({ ...c, period: '2026-11' });
    assert.deepEqual(Object.keys(s.export()).sort(), ['2026-10', '2026-11']);
  });

  it('round-trips its counters through export/import and bumps its version on change', () => {
    const a = new MemoryUsageStore();
    const v0 = a.version;
    a.take({ period: '2026-11', subject: 'ip:10.0.0.1', bucket: 'free:API-01', limit: 100, tally: 'svc:API-01' });
    assert.ok(a.version > v0);
    const b = new MemoryUsageStore();
    b.import(a.export());
    assert.deepEqual(b.read('2026-11', 'ip:10.0.0.1'), { 'free:API-01': 1, 'svc:API-01': 1 });
    const v1 = a.version;
    a.take({ period: '2026-11', subject: 'ip:10.0.0.1', bucket: 'free:API-01', limit: 1 });
    assert.equal(a.version, v1, 'a refused take changes nothing');
  });
});
