/** API-05 over real sockets: both paths, lookup/store/flush by body, validation, boot errors of the transformers embedder. */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { semanticCacheFactory } from '../src/services/semantic-cache/index.ts';
import { startTestGateway, type TestGateway } from './helpers/gateway.ts';
import { writeTinySentenceModel } from './helpers/tiny-sentence-model.ts';

const LABEL = '[API-05] Semantic Cache';

describe('API-05 over HTTP', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ gateway: { factories: [semanticCacheFactory] } });
  });
  after(() => gw.close());

  it('stores on one path and serves the hit on the other, with the contract fields', async () => {
    const s = await gw.post('/v1/cache/semantic', { query: 'How do I reset my password?', response: 'Settings > Security', namespace: 'http' });
    const stored = (await s.json()) as Record<string, unknown>;
    assert.equal(s.status, 200);
    assert.equal(stored.api, LABEL);
    assert.equal(stored.stored, true);
    assert.equal(stored.cache_hit, false);
    assert.equal(typeof stored.entry_id, 'string');
    for (const p of ['/v1/cache/semantic', '/v1/api/05-semantic-cache']) {
      const r = (await (await gw.post(p, { query: 'how can I reset my password', namespace: 'http', threshold: 0.7 })).json()) as Record<string, unknown>;
      assert.equal(r.cache_hit, true);
      assert.equal(r.cached_response, 'Settings > Security');
      assert.equal(r.entry_id, stored.entry_id);
      assert.ok(typeof r.similarity_score === 'number' && r.similarity_score >= 0.7 && r.similarity_score < 1);
      assert.equal(typeof r.latency_ms, 'number');
    }
    // The default threshold: an exact repeat (case and punctuation aside) hits with score 1.
    const again = (await (await gw.post('/v1/cache/semantic', { query: 'how do I reset my password', namespace: 'http' })).json()) as Record<string, unknown>;
    assert.deepEqual([again.cache_hit, again.similarity_score, again.entry_id], [true, 1, stored.entry_id]);
  });

  it('flush: true deletes the namespace and answers flushed', async () => {
    await gw.post('/v1/cache/semantic', { query: 'capital of france', response: 'Paris', namespace: 'f' });
    const r = (await (await gw.post('/v1/cache/semantic', { flush: true, namespace: 'f' })).json()) as Record<string, unknown>;
    assert.equal(r.flushed, 1);
    const miss = (await (await gw.post('/v1/cache/semantic', { query: 'capital of france', namespace: 'f' })).json()) as Record<string, unknown>;
    assert.deepEqual([miss.cache_hit, miss.similarity_score, miss.cached_response], [false, 0, null]);
  });

  const BAD: Array<[string, unknown, string]> = [
    ['no query', {}, '/query'],
    ['empty query', { query: '' }, '/query'],
    ['query over 8192 chars', { query: 'a'.repeat(8193) }, '/query'],
    ['threshold above 1', { query: 'x', threshold: 1.5 }, '/threshold'],
    ['namespace over 64 chars', { query: 'x', namespace: 'n'.repeat(65) }, '/namespace'],
    ['ttl_seconds 0', { query: 'x', response: 'y', ttl_seconds: 0 }, '/ttl_seconds'],
    ['ttl_seconds over 30 days', { query: 'x', response: 'y', ttl_seconds: 2_592_001 }, '/ttl_seconds'],
    ['response over 64 KiB of UTF-8', { query: 'x', response: 'é'.repeat(40_000) }, '/response'],
    ['response not a string', { query: 'x', response: 5 }, '/response'],
  ];
  for (const [name, body, pointer] of BAD) {
    it(`answers 400 VALIDATION_FAILED for ${name}`, async () => {
      const res = await gw.post('/v1/cache/semantic', body);
      const b = (await res.json()) as { error: { code: string; details: Array<{ path: string }> } };
      assert.equal(res.status, 400);
      assert.equal(b.error.code, 'VALIDATION_FAILED');
      assert.ok(b.error.details.some((d) => d.path === pointer), JSON.stringify(b.error.details));
    });
  }

  it('never logs the query or the cached response', async () => {
    await gw.post('/v1/cache/semantic', { query: 'secret-query-marker-9137', response: 'secret-answer-marker-4421' });
    await gw.post('/v1/cache/semantic', { query: 'secret-query-marker-9137' });
    const logs = gw.logs.join('\n');
    assert.ok(!logs.includes('secret-query-marker') && !logs.includes('secret-answer-marker'));
  });
});

// Runs before the failure cases: transformers.js keeps the process's first ONNX session promise
// (backends/onnx.js wasmInitPromise) and a rejected one would fail every later session.
describe('API-05 with a local transformers model', () => {
  it('boots offline from EMBEDDING_MODEL_DIR, serves paraphrases and still applies the hard rules', async () => {
    const gw = await startTestGateway({ env: { EMBEDDER: 'transformers', EMBEDDING_MODEL_DIR: writeTinySentenceModel() }, gateway: { factories: [semanticCacheFactory] } });
    try {
      const post = async (body: unknown): Promise<Record<string, unknown>> => (await (await gw.post('/v1/cache/semantic', body)).json()) as Record<string, unknown>;
      assert.equal((await post({ query: 'How do I reset my password?', response: 'R' })).stored, true);
      const hit = await post({ query: 'how can i change my password' });
      assert.equal(hit.cache_hit, true, JSON.stringify(hit));
      assert.equal(hit.cached_response, 'R');
      assert.equal((await post({ query: 'how do i reset my router' })).cache_hit, false);
      assert.equal((await post({ query: "how can't i reset my password" })).cache_hit, false, 'negation differs');
    } finally {
      await gw.close();
    }
  });
});

describe('API-05 boot with EMBEDDER=transformers', () => {
  const CASES: Array<[string, () => string, RegExp]> = [
    ['a missing directory', () => path.join(tmpdir(), 'no-such-model-dir-api05'), /EMBEDDING_MODEL_DIR=.*does not exist/],
    [
      'a directory without model files',
      () => mkdtempSync(path.join(tmpdir(), 'api05-empty-model-')),
      /EMBEDDING_MODEL_DIR=.*config\.json is missing.*onnx\/model\.onnx is missing/,
    ],
    [
      'a broken model file',
      () => {
        const dir = mkdtempSync(path.join(tmpdir(), 'api05-broken-model-'));
        writeFileSync(path.join(dir, 'config.json'), '{"model_type":"bert"}');
        writeFileSync(path.join(dir, 'tokenizer.json'), '{not json');
        mkdirSync(path.join(dir, 'onnx'));
        writeFileSync(path.join(dir, 'onnx', 'model.onnx'), 'garbage');
        return dir;
      },
      /EMBEDDING_MODEL_DIR=.*tokenizer\.json is not valid JSON/,
    ],
    [
      'files that are all there but do not form a model',
      () => {
        const dir = mkdtempSync(path.join(tmpdir(), 'api05-corrupt-model-'));
        writeFileSync(path.join(dir, 'config.json'), '{"model_type":"bert"}');
        writeFileSync(path.join(dir, 'tokenizer.json'), '{"model":{"type":"WordPiece","vocab":{"[UNK]":0}}}');
        writeFileSync(path.join(dir, 'tokenizer_config.json'), '{}');
        mkdirSync(path.join(dir, 'onnx'));
        writeFileSync(path.join(dir, 'onnx', 'model.onnx'), 'not a protobuf');
        return dir;
      },
      /EMBEDDING_MODEL_DIR=.*the model did not (load|run)/,
    ],
  ];
  for (const [name, dir, message] of CASES) {
    it(`stops boot with a clear message for ${name}`, async () => {
      await assert.rejects(
        startTestGateway({ env: { EMBEDDER: 'transformers', EMBEDDING_MODEL_DIR: dir() }, gateway: { factories: [semanticCacheFactory] } }),
        (err: Error) => message.test(err.message),
      );
    });
  }
});
