import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BenchReport } from '../bench/lib/harness.ts';
import { commandLine, MAX_BYTES, renderReport, type RunRecord } from '../bench/lib/report-file.ts';

const machine = { cores: 2, cpuModel: 'Test CPU', memoryGiB: 4, node: 'v20.19.0', uwsNative: true, loadAverage: [0.5, 0.4, 0.3] };

function run(reports: BenchReport[], overrides: Partial<RunRecord> = {}): RunRecord {
  return {
    startedAt: new Date('2026-11-24T15:00:00Z'),
    finishedAt: new Date('2026-11-24T15:42:00Z'),
    command: 'BENCH_DURATION=5 npm run bench -- --write BENCHMARKS.md',
    filter: undefined,
    commit: 'abc123',
    machine,
    scripts: [{ script: 'bench/http/x.ts', code: 0, stealPercent: 0, reports }],
    summary: reports.map((r) => [r.service ?? '', r.name, r.measuredP99Ms?.toFixed(3) ?? '', r.measuredP99Ms === undefined ? '' : 'ok (≤ 20 ms)', Object.entries(r.ratios ?? {}).map(([k, v]) => `${k} ${v.toFixed(2)}`).join('; ')]),
    failures: [],
    ...overrides,
  };
}

const report = (name: string, rows: number, extras = 0): BenchReport => ({
  name,
  service: 'API-138',
  measuredP99Ms: 0.077,
  ratios: { 'gateway / raw uWS (req/s)': 0.88, 'gateway / Fastify (req/s)': 1.52 },
  rows: Array.from({ length: rows }, (_, i) => ({
    label: `case ${i}`,
    reqPerSec: 1000 + i,
    p50Ms: 0.5,
    p99Ms: 1.25,
    extra: Object.fromEntries(Array.from({ length: extras }, (_, k) => [`extra column ${k}`, `value ${i}.${k}`])),
  })),
  notes: ['a note'],
});

describe('BENCHMARKS.md writer', () => {
  it('writes date, command, commit, machine, the summary with ceiling and ratios, and How to read', () => {
    const text = renderReport(run([report('API-138 POST /v1/sepa/vop', 3)]));
    assert.match(text, /^# Benchmarks\n/);
    assert.match(text, /Date: 2026-11-24 15:00 UTC \(42 min\)/);
    assert.match(text, /Command: `BENCH_DURATION=5 npm run bench -- --write BENCHMARKS.md`/);
    assert.match(text, /2 cores \(`nproc`\), Test CPU, 4 GiB, Node v20\.19\.0, uWebSockets\.js native/);
    assert.match(text, /\| API-138 \| API-138 POST \/v1\/sepa\/vop \| 0\.077 \| ok \(≤ 20 ms\) \| gateway \/ raw uWS \(req\/s\) 0\.88<br>gateway \/ Fastify \(req\/s\) 1\.52 \|/);
    assert.match(text, /## How to read/);
    assert.match(text, /\| case 2 \| 1002 \| 0\.500 \| 1\.250 \|/);
    assert.match(text, /exit code 0/);
  });

  it('says when the run was filtered, failed or ran on the pure-JS fallback', () => {
    const text = renderReport(run([report('r', 1)], { filter: 'health', failures: ['x: p99 31 ms > 30 ms'], machine: { ...machine, uwsNative: false } }));
    assert.match(text, /A \*\*filtered\*\* run \(`--filter health`\)/);
    assert.match(text, /exit code 1, 1 failure\(s\): x: p99 31 ms > 30 ms/);
    assert.match(text, /pure-JS fallback/);
  });

  it(`stays within ${MAX_BYTES} bytes: drops extra columns first, then the per-case rows, never the summary`, () => {
    const medium = renderReport(run(Array.from({ length: 12 }, (_, i) => report(`bench ${i}`, 14, 6))));
    assert.ok(Buffer.byteLength(medium) <= MAX_BYTES, `${Buffer.byteLength(medium)} bytes`);
    assert.ok(medium.includes('## Details') && medium.includes('| case 13 | 1013 |'), 'per-case rows kept');
    assert.ok(!medium.includes('extra column 0'), 'extra columns dropped');

    const huge = renderReport(run(Array.from({ length: 40 }, (_, i) => report(`bench ${i}`, 30, 6))));
    assert.ok(Buffer.byteLength(huge) <= MAX_BYTES, `${Buffer.byteLength(huge)} bytes`);
    assert.ok(!huge.includes('## Details'), 'per-case rows dropped');
    assert.ok(huge.includes('| API-138 | bench 39 |') && huge.includes('Per-case rows are left out'));
  });

  it('escapes a | inside a cell so the table keeps its columns', () => {
    const text = renderReport(run([{ ...report('a | b', 1), rows: [{ label: 'x | y', reqPerSec: 1 }] }]));
    assert.match(text, /\| a \\\| b \|/);
    assert.match(text, /\| x \\\| y \| 1 \|/);
  });

  it('writes the command with the BENCH_* variables that were set', () => {
    assert.equal(commandLine({ BENCH_DURATION: '5', PATH: '/bin', BENCH_CONNECTIONS: '50' }, ['--write', 'BENCHMARKS.md']), 'BENCH_CONNECTIONS=50 BENCH_DURATION=5 npm run bench -- --write BENCHMARKS.md');
    assert.equal(commandLine({}, []), 'npm run bench');
  });
});
