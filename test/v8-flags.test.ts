import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { applyV8Flags, NO_PRETENURING } from '../src/v8-flags.ts';

describe('V8 flags of the gateway process', () => {
  it('turns allocation-site pretenuring off by default', () => {
    const set: string[] = [];
    assert.deepEqual(applyV8Flags([], (f) => set.push(f)), [NO_PRETENURING]);
    assert.deepEqual(set, ['--no-allocation-site-pretenuring']);
  });

  it('keeps V8\'s default when the command line asks for pretenuring', () => {
    const set: string[] = [];
    assert.deepEqual(applyV8Flags(['--import', 'tsx', '--allocation-site-pretenuring'], (f) => set.push(f)), []);
    assert.deepEqual(set, []);
  });

  it('is a flag this V8 knows, and a worker started afterwards runs under it', () => {
    // A child process: flags set here would leak into the rest of the test run.
    const code = `
      const { setFlagsFromString } = require('node:v8');
      const { Worker } = require('node:worker_threads');
      setFlagsFromString(${JSON.stringify(NO_PRETENURING)});
      const w = new Worker("require('node:worker_threads').parentPort.postMessage(require('node:v8').getHeapStatistics().total_heap_size > 0)", { eval: true });
      w.on('message', (m) => { console.log('worker ok', m); w.terminate(); });`;
    const r = spawnSync(process.execPath, ['-e', code], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /unknown|Error/i);
    assert.match(r.stdout, /worker ok true/);
  });
});
