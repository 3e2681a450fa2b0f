import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { periodAt } from '../src/auth/period.ts';
import { decodeSnapshot, encodeSnapshot, readSnapshotFile } from '../src/auth/usage-snapshot.ts';
import { bearer, issueKeys, startAuthGateway, type IssuedKey } from './helpers/auth-fixture.ts';
import { meteredPath } from './helpers/metered-service.ts';

const ROUTE = meteredPath('API-138');

function freshDir(): { dataDir: string; key: IssuedKey; snapshot: string } {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gw-persist-'));
  const [key] = issueKeys(path.join(dataDir, 'keys.json'), [{ tenant: 'durable', plan: 'free' }]);
  return { dataDir, key: key!, snapshot: path.join(dataDir, 'usage.snapshot') };
}

async function usedOf(gw: Awaited<ReturnType<typeof startAuthGateway>>, key: string, service = 'API-138'): Promise<number> {
  return (await (await gw.get('/v1/usage', bearer(key))).json()).services[service].used;
}

describe('usage survives a restart', () => {
  it('a gateway restarted on the same DATA_DIR continues the counts', async () => {
    const { dataDir, key } = freshDir();
    const first = await startAuthGateway({ dataDir });
    for (let i = 0; i < 7; i++) assert.equal((await first.post(ROUTE, {}, bearer(key.key))).status, 200);
    await first.close();
    const second = await startAuthGateway({ dataDir });
    try {
      assert.equal(await usedOf(second, key.key), 7);
      assert.equal((await second.post(ROUTE, {}, bearer(key.key))).headers.get('ratelimit-remaining'), '92');
    } finally {
      await second.close();
    }
  });

  it('writes snapshots while running, so a crash loses at most one interval', async () => {
    const { dataDir, key, snapshot } = freshDir();
    const gw = await startAuthGateway({ dataDir, auth: { snapshotIntervalMs: 50 } });
    try {
      for (let i = 0; i < 3; i++) await gw.post(ROUTE, {}, bearer(key.key));
      await new Promise((r) => setTimeout(r, 300));
      // What a crash right now would leave behind: the file as it is, without the shutdown write.
      const crashed = mkdtempSync(path.join(tmpdir(), 'gw-crash-'));
      copyFileSync(snapshot, path.join(crashed, 'usage.snapshot'));
      copyFileSync(path.join(dataDir, 'keys.json'), path.join(crashed, 'keys.json'));
      const revived = await startAuthGateway({ dataDir: crashed });
      try {
        assert.equal(await usedOf(revived, key.key), 3);
      } finally {
        await revived.close();
      }
    } finally {
      await gw.close();
    }
  });
});

describe('torn or corrupt snapshots are detected at boot, never silently zeroed', () => {
  const period = periodAt(Date.now()).id;
  const valid = (subject: string, n: number): Buffer => encodeSnapshot({ [period]: { [subject]: { 'free:API-138': n, 'svc:API-138': n } } });
  const damages: Array<[string, (b: Buffer) => Buffer]> = [
    ['truncated mid-body (torn write)', (b) => b.subarray(0, b.length - 5)],
    ['one flipped byte in the body', (b) => {
      const c = Buffer.from(b);
      c[c.length - 3] = c[c.length - 3]! ^ 0x01;
      return c;
    }],
    ['an empty file', () => Buffer.alloc(0)],
    ['garbage', () => Buffer.from('\u0000\u0000\u0000garbage\n{}')],
  ];
  for (const [what, damage] of damages) {
    it(`refuses to start on a snapshot that is ${what} with no previous one, leaving the file in place`, async () => {
      const { dataDir, key, snapshot } = freshDir();
      const bytes = damage(valid(`key:${key.id}`, 42));
      writeFileSync(snapshot, bytes);
      assert.equal(decodeSnapshot(bytes).kind, 'corrupt');
      await assert.rejects(startAuthGateway({ dataDir }), /usage snapshot .* is corrupt .*Refusing to start with zeroed counts/s);
      assert.deepEqual(readFileSync(snapshot), bytes, 'the evidence is kept');
    });
  }

  it('restores the previous snapshot when the current one is corrupt, reports it, and keeps the corrupt file aside', async () => {
    const { dataDir, key, snapshot } = freshDir();
    writeFileSync(`${snapshot}.prev`, valid(`key:${key.id}`, 40));
    writeFileSync(snapshot, valid(`key:${key.id}`, 42).subarray(0, 30));
    const gw = await startAuthGateway({ dataDir });
    try {
      assert.equal(await usedOf(gw, key.key), 40);
      assert.ok(gw.logs.some((l) => l.includes('"level":50') && l.includes('usage snapshot is corrupt')));
      assert.ok(readdirSync(dataDir).some((f) => f.startsWith('usage.snapshot.corrupt-')));
    } finally {
      await gw.close();
    }
    assert.equal(readSnapshotFile(snapshot).kind, 'ok', 'the shutdown wrote a good snapshot again');
  });

  it('restores the previous snapshot when the current one is missing (crash between the two renames)', async () => {
    const { dataDir, key, snapshot } = freshDir();
    writeFileSync(`${snapshot}.prev`, valid(`key:${key.id}`, 5));
    const gw = await startAuthGateway({ dataDir });
    try {
      assert.equal(await usedOf(gw, key.key), 5);
    } finally {
      await gw.close();
    }
  });

  it('starts from zero only when there never was a snapshot', async () => {
    const { dataDir, key, snapshot } = freshDir();
    assert.equal(existsSync(snapshot), false);
    const gw = await startAuthGateway({ dataDir });
    try {
      assert.equal(await usedOf(gw, key.key), 0);
    } finally {
      await gw.close();
    }
  });
});

describe('month rollover (injected clock)', () => {
  it('a used-up allowance opens again at 00:00 UTC on the first of the next month', async () => {
    const { dataDir, key } = freshDir();
    let now = Date.parse('2026-11-30T23:59:50Z');
    const gw = await startAuthGateway({ dataDir, auth: { now: () => now } });
    try {
      for (let i = 0; i < 100; i++) assert.equal((await gw.post(ROUTE, {}, bearer(key.key))).status, 200);
      const refused = await gw.post(ROUTE, {}, bearer(key.key));
      assert.equal(refused.status, 429);
      assert.equal(refused.headers.get('retry-after'), '10');
      now = Date.parse('2026-11-30T23:59:59.999Z');
      assert.equal((await gw.post(ROUTE, {}, bearer(key.key))).status, 429);
      now = Date.parse('2026-12-01T00:00:00Z');
      const reopened = await gw.post(ROUTE, {}, bearer(key.key));
      assert.equal(reopened.status, 200);
      assert.equal(reopened.headers.get('ratelimit-remaining'), '99');
      assert.equal(reopened.headers.get('ratelimit-reset'), String(31 * 24 * 3600));
      const usage = await (await gw.get('/v1/usage', bearer(key.key))).json();
      assert.deepEqual([usage.period, usage.reset_at, usage.services['API-138'].used], ['2026-12', '2027-01-01T00:00:00.000Z', 1]);
    } finally {
      await gw.close();
    }
  });

  it('a refund after the month turned goes back to the month the unit was taken from', async () => {
    const { dataDir, key } = freshDir();
    let now = Date.parse('2026-11-30T23:59:59Z');
    const gw = await startAuthGateway({ dataDir, auth: { now: () => now } });
    try {
      const pending = gw.post(ROUTE, { delay_ms: 150, fail: 'client' }, bearer(key.key));
      await new Promise((r) => setTimeout(r, 50));
      now = Date.parse('2026-12-01T00:00:01Z');
      assert.equal((await gw.post(ROUTE, {}, bearer(key.key))).status, 200);
      assert.equal((await pending).status, 400);
      assert.equal(await usedOf(gw, key.key), 1, 'December keeps its one unit');
    } finally {
      await gw.close();
    }
  });
});

describe('one gateway per usage snapshot', () => {
  it('refuses a second gateway on the same DATA_DIR while the first runs, and takes over a stale lock', async () => {
    const { dataDir, snapshot } = freshDir();
    const first = await startAuthGateway({ dataDir });
    try {
      await assert.rejects(startAuthGateway({ dataDir }), /in use by another gateway \(pid \d+\)/);
    } finally {
      await first.close();
    }
    writeFileSync(`${snapshot}.lock`, '2147483646');
    const second = await startAuthGateway({ dataDir });
    await second.close();
    assert.equal(existsSync(`${snapshot}.lock`), false, 'the lock is released at shutdown');
  });
});
