/**
 * node-redis is loaded only when STATE_BACKEND=redis connects. Its RESP decoder declares
 * `class VerbatimString extends String`; once an isolate has a String subclass, V8 (Node 20) stops
 * inlining charCodeAt there and every character scanner on the event loop (API-08, API-09, API-01's
 * estimate) runs several times slower. So a gateway on the memory backend must never load it.
 * Each case runs in a child process: this test process may already hold node-redis.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Runs `body` (ESM, top-level await) in a fresh node with tsx; returns its last stdout line. */
function child(body: string): string {
  const prelude = `import { createRequire } from 'node:module';
const require = createRequire(${JSON.stringify(root + '/package.json')});
const redisModules = () => Object.keys(require.cache).filter((k) => /node_modules\\/(@redis|redis)\\//.test(k)).length;
`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', prelude + body], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, LOG_LEVEL: 'silent' },
    timeout: 60_000,
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim().split('\n').at(-1) ?? '';
}

describe('node-redis is loaded lazily', () => {
  it('importing the gateway, its state module and every Redis store loads no node-redis module', () => {
    const out = child(`
await import('./src/gateway.ts');
await import('./src/state/index.ts');
await import('./src/state/redis-cache-store.ts');
await import('./src/state/redis-lock-store.ts');
await import('./src/state/redis-proposal-store.ts');
console.log(redisModules());`);
    assert.equal(out, '0');
  });

  it('the probe sees node-redis once something loads it (so the check above can fail)', () => {
    const out = child(`
await import('./src/gateway.ts');
const before = redisModules();
await import('redis');
console.log(before + ' ' + (redisModules() > 0));`);
    assert.equal(out, '0 true');
  });
});
