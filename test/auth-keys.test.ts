import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { KeyStore } from '../src/auth/key-store.ts';
import { startAuthGateway } from './helpers/auth-fixture.ts';
import { meteredPath } from './helpers/metered-service.ts';
import { generateKey, hashKeyHex, KeysFileError, parseKeysFile, writeFileAtomic, type KeyEntry } from '../src/auth/keys-file.ts';

const run = promisify(execFile);
const KEYS_SCRIPT = new URL('../scripts/keys.ts', import.meta.url).pathname;
const tmp = (): string => mkdtempSync(path.join(tmpdir(), 'auth-keys-'));

function entry(key: string, over: Partial<KeyEntry> = {}): KeyEntry {
  const sha256 = hashKeyHex(key);
  return { id: sha256.slice(0, 16), sha256, tenant: 'acme', plan: 'pack1', created_at: '2026-11-01T00:00:00.000Z', revoked_at: null, label: null, ...over };
}

function writeKeys(file: string, entries: KeyEntry[]): void {
  writeFileAtomic(file, JSON.stringify({ version: 1, keys: entries }));
}

async function waitFor(check: () => boolean, ms: number): Promise<number> {
  const start = performance.now();
  while (!check()) {
    if (performance.now() - start > ms) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return performance.now() - start;
}

describe('key file format', () => {
  it('stores only the SHA-256 of a key and derives the id from it', () => {
    const key = generateKey();
    assert.match(key, /^gwk_[A-Za-z0-9_-]{43}$/);
    const parsed = parseKeysFile(JSON.stringify({ version: 1, keys: [entry(key)] }));
    assert.equal(parsed.keys[0]!.sha256, hashKeyHex(key));
    assert.equal(parsed.keys[0]!.id, hashKeyHex(key).slice(0, 16));
    assert.ok(!JSON.stringify(parsed).includes(key));
  });

  const bad: Array<[string, unknown]> = [
    ['not JSON', '{'],
    ['no keys array', { version: 1 }],
    ['a short hash', { keys: [{ sha256: 'abc', tenant: 't', plan: 'free' }] }],
    ['an unknown plan', { keys: [{ sha256: 'a'.repeat(64), tenant: 't', plan: 'gold' }] }],
    ['an empty tenant', { keys: [{ sha256: 'a'.repeat(64), tenant: '', plan: 'free' }] }],
    ['a repeated hash', { keys: [{ sha256: 'a'.repeat(64), tenant: 't', plan: 'free' }, { sha256: 'A'.repeat(64), tenant: 'u', plan: 'free' }] }],
    ['an unknown version', { version: 2, keys: [] }],
  ];
  for (const [what, content] of bad) {
    it(`rejects a file with ${what}`, () => {
      assert.throws(() => parseKeysFile(typeof content === 'string' ? content : JSON.stringify(content)), KeysFileError);
    });
  }
});

describe('KeyStore', () => {
  it('finds active keys, and neither revoked nor unknown ones', () => {
    const dir = tmp();
    const file = path.join(dir, 'keys.json');
    const [a, b] = [generateKey(), generateKey()];
    writeKeys(file, [entry(a, { tenant: 'alpha', plan: 'pack3' }), entry(b, { revoked_at: '2026-11-02T00:00:00Z' })]);
    const store = new KeyStore({ file }).start();
    try {
      assert.deepEqual({ ...store.lookup(a), digest: undefined }, { id: hashKeyHex(a).slice(0, 16), tenant: 'alpha', plan: 'pack3', digest: undefined });
      assert.equal(store.lookup(b), null);
      assert.equal(store.lookup(generateKey()), null);
      assert.equal(store.lookup(''), null);
      assert.equal(store.lookup('x'.repeat(10_000)), null);
      assert.equal(store.size, 1);
    } finally {
      store.close();
    }
  });

  it('starts empty when the file does not exist yet, and refuses an invalid file at boot', () => {
    const dir = tmp();
    const store = new KeyStore({ file: path.join(dir, 'none.json') }).start();
    assert.equal(store.size, 0);
    store.close();
    writeFileSync(path.join(dir, 'bad.json'), '{"keys": [1]}');
    assert.throws(() => new KeyStore({ file: path.join(dir, 'bad.json') }).start(), /keys\[0\]/);
  });

  for (const watch of [true, false]) {
    it(`sees a new key and a revocation within a second (${watch ? 'fs.watch' : 'stat poll only'})`, async () => {
      const dir = tmp();
      const file = path.join(dir, 'keys.json');
      const key = generateKey();
      writeKeys(file, []);
      const store = new KeyStore({ file, watch }).start();
      try {
        writeKeys(file, [entry(key)]);
        const added = await waitFor(() => store.lookup(key) !== null, 1000);
        writeKeys(file, [entry(key, { revoked_at: '2026-11-21T00:00:00Z' })]);
        const revoked = await waitFor(() => store.lookup(key) === null, 1000);
        assert.ok(added < 1000 && revoked < 1000);
      } finally {
        store.close();
      }
    });
  }

  it('keeps the previous keys when the file is replaced by an invalid one', async () => {
    const dir = tmp();
    const file = path.join(dir, 'keys.json');
    const key = generateKey();
    writeKeys(file, [entry(key)]);
    const errors: string[] = [];
    const logger = { error: (o: { problem: string }) => errors.push(o.problem), info: () => undefined } as never;
    const store = new KeyStore({ file, logger }).start();
    try {
      writeFileAtomic(file, '{"keys": [{"sha256": "nope"}]}');
      await waitFor(() => errors.length > 0, 1000);
      assert.notEqual(store.lookup(key), null);
      const second = generateKey();
      writeKeys(file, [entry(key), entry(second)]);
      await waitFor(() => store.lookup(second) !== null, 1000);
    } finally {
      store.close();
    }
  });
});

describe('npm run keys', () => {
  it('create prints the key once, alone on the last line, and stores only its hash', async () => {
    const file = path.join(tmp(), 'keys.json');
    const { stdout } = await run(process.execPath, ['--import', 'tsx', KEYS_SCRIPT, 'create', '--tenant', 'acme', '--plan', 'pack4', '--file', file]);
    const lines = stdout.trimEnd().split('\n');
    const key = lines.at(-1)!;
    assert.match(key, /^gwk_[A-Za-z0-9_-]{43}$/);
    assert.equal(lines.filter((l) => l.includes(key)).length, 1);
    const text = readFileSync(file, 'utf8');
    assert.ok(!text.includes(key));
    const stored = parseKeysFile(text).keys;
    assert.equal(stored.length, 1);
    assert.deepEqual([stored[0]!.sha256, stored[0]!.tenant, stored[0]!.plan], [hashKeyHex(key), 'acme', 'pack4']);
  });

  it('list shows ids and plans without hashes; revoke marks the key revoked', async () => {
    const file = path.join(tmp(), 'keys.json');
    const key = generateKey();
    writeKeys(file, [entry(key, { tenant: 'beta', plan: 'pack2' })]);
    const id = hashKeyHex(key).slice(0, 16);
    const listed = await run(process.execPath, ['--import', 'tsx', KEYS_SCRIPT, 'list', '--file', file]);
    assert.match(listed.stdout, new RegExp(`${id}\\s+beta\\s+pack2`));
    assert.ok(!listed.stdout.includes(hashKeyHex(key)));
    await run(process.execPath, ['--import', 'tsx', KEYS_SCRIPT, 'revoke', id, '--file', file]);
    assert.notEqual(parseKeysFile(readFileSync(file, 'utf8')).keys[0]!.revoked_at, null);
  });

  const badUsage: Array<[string, string[]]> = [
    ['an unknown plan', ['create', '--tenant', 'acme', '--plan', 'gold']],
    ['a missing tenant', ['create', '--plan', 'free']],
    ['a tenant with spaces', ['create', '--tenant', 'a b', '--plan', 'free']],
    ['an unknown command', ['rotate']],
    ['a malformed key id', ['revoke', 'xyz']],
  ];
  for (const [what, args] of badUsage) {
    it(`exits 2 on ${what} and writes nothing`, async () => {
      const file = path.join(tmp(), 'keys.json');
      await assert.rejects(run(process.execPath, ['--import', 'tsx', KEYS_SCRIPT, ...args, '--file', file]), (err: { code: number }) => err.code === 2);
      assert.throws(() => readFileSync(file));
    });
  }
});

describe('a running gateway and npm run keys', () => {
  it('accepts a key created by the CLI and refuses it once revoked, each within a second, without a restart', async () => {
    const gw = await startAuthGateway();
    try {
      const cli = (...args: string[]) => run(process.execPath, ['--import', 'tsx', KEYS_SCRIPT, ...args, '--file', gw.keysFile]);
      const key = (await cli('create', '--tenant', 'live', '--plan', 'pack1')).stdout.trimEnd().split('\n').at(-1)!;
      const status = async (): Promise<number> => (await gw.post(meteredPath('API-01'), {}, { authorization: `Bearer ${key}` })).status;
      let t = performance.now();
      while ((await status()) !== 200) {
        assert.ok(performance.now() - t < 1000, 'the new key was not accepted within a second');
        await new Promise((r) => setTimeout(r, 20));
      }
      await cli('revoke', hashKeyHex(key).slice(0, 16));
      t = performance.now();
      while ((await status()) !== 401) {
        assert.ok(performance.now() - t < 1000, 'the revoked key was still accepted after a second');
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      await gw.close();
    }
  });
});
