/**
 * API-05 training: `npm run train:cache` gives the same model file byte for byte for the same data,
 * the shipped model file matches the code (features, threshold), and the pair reader skips what it
 * cannot use instead of crashing.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { VERIFIER_FILE, type VerifierMeta } from '../src/embeddings/learned-verify.ts';
import { FEATURE_NAMES } from '../src/embeddings/pair-features.ts';
import { decodeModel } from '../src/learn/index.ts';
import { DEFAULT_THRESHOLD } from '../src/services/semantic-cache/core.ts';
import { SemanticCacheRequest } from '../src/services/semantic-cache/schema.ts';
import { groupOf, readPairs } from '../scripts/cache-pairs.ts';

const root = path.resolve(import.meta.dirname, '..');
const work = mkdtempSync(path.join(tmpdir(), 'train-cache-'));
after(() => rmSync(work, { recursive: true, force: true }));

describe('API-05 train:cache', () => {
  it('retrains the same weights byte for byte on the same slice, and different data gives another file', () => {
    // A slice of the development pairs (in the repository) stands in for the training directory.
    const dev = readFileSync(path.join(root, 'eval', 'data', 'cache', 'pairs_dev.jsonl'), 'utf8').trim().split('\n');
    const dir = path.join(work, 'data');
    execFileSync('mkdir', ['-p', dir]);
    writeFileSync(path.join(dir, 'slice.jsonl'), dev.filter((_, i) => i % 4 === 0).join('\n') + '\n');
    const train = (out: string, extra: string[] = []): Buffer => {
      execFileSync(process.execPath, ['--import', 'tsx', 'scripts/train-cache.ts', '--data', dir, '--no-dev', '--out', out, ...extra], { cwd: root, stdio: 'pipe' });
      return readFileSync(out);
    };
    const a = train(path.join(work, 'a.bin'));
    const b = train(path.join(work, 'b.bin'));
    assert.ok(a.length > 100);
    assert.ok(a.equals(b), 'same data, same bytes');
    const c = train(path.join(work, 'c.bin'), ['--limit', '100']);
    assert.ok(!a.equals(c), 'another slice, another model');
    const meta = decodeModel(a).meta as unknown as VerifierMeta;
    assert.deepEqual(meta.features, FEATURE_NAMES);
  });

  it('ships a model for the current features whose threshold is the default of the code and the schema', () => {
    const { meta, model } = decodeModel(readFileSync(VERIFIER_FILE));
    const m = meta as unknown as VerifierMeta & { trainedOn: Array<{ dataset: string }> };
    assert.deepEqual(m.features, FEATURE_NAMES);
    assert.equal(m.threshold, DEFAULT_THRESHOLD);
    assert.equal(SemanticCacheRequest.properties.threshold.default, DEFAULT_THRESHOLD);
    assert.ok(model.weights.every(Number.isFinite));
    assert.ok(m.trainedOn.length >= 6, 'the sources it was trained on are recorded');
  });
});

describe('API-05 pair reader', () => {
  it('skips and counts records it cannot use', () => {
    const file = path.join(work, 'mixed.jsonl');
    writeFileSync(
      file,
      [
        '{"text_a": "a b", "text_b": "a c", "label": 1, "dataset": "QQP"}',
        'not json',
        '[1, 2]',
        'null',
        '{"text_a": null, "text_b": "x", "label": 0}',
        '{"text_a": "x", "text_b": "", "label": 0}',
        '{"text_a": "x", "text_b": "y", "label": 0.5}',
        '{"text_a": "x", "text_b": "y"}',
        '',
        '{"text_a": "x", "text_b": "y", "label": 0, "source": "someone/repo"}',
      ].join('\n'),
    );
    const { pairs, skipped } = readPairs([file]);
    assert.deepEqual(pairs.map((p) => [p.dataset, p.label]), [['QQP', 1], ['someone/repo', 0]]);
    assert.deepEqual(Object.fromEntries(skipped), {
      'line is not JSON': 1,
      'record is not a JSON object': 2,
      'text_a missing, null or empty': 1,
      'text_b missing, null or empty': 1,
      'label not 0 or 1': 2,
    });
  });

  it('groups datasets by upstream corpus for leave-one-dataset-out', () => {
    const TABLE: Array<[string, string]> = [
      ['STSB-MSRvid', 'STSB'],
      ['SemEval-STS-2015.headlines', 'STSB'],
      ['MRPC-train', 'MRPC'],
      ['MRPC', 'MRPC'],
      ['SemEval2016-Task3-QL', 'SemEval-QL'],
      ['PAN-train', 'PAN'],
      ['QQP', 'QQP'],
      ['TwitterURL', 'TwitterURL'],
    ];
    for (const [d, g] of TABLE) assert.equal(groupOf(d), g, d);
  });
});
