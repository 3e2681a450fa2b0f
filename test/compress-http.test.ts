/**
 * API-09 over real sockets: both paths, the contract's body, validation errors, the worker-pool
 * path for long prompts, and zero retention in the logs.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTokenSlimmerService, TOKENSLIMMER_LABEL } from '../src/services/tokenslimmer/index.ts';
import { countTokens } from '../src/tokenizer/index.ts';
import { startTestGateway, type TestGateway } from './helpers/gateway.ts';

const PATHS = ['/v1/auto', '/v1/api/09-tokenslimmer'] as const;
const VERBOSE = 'Could you please explain, in order to learn quickly,   the rule?\n\n\n\nThank you so much!';
const SECRET_WORD = 'zebracornflower';

describe('API-09 over HTTP', () => {
  let gw: TestGateway;
  before(async () => {
    // inlineMaxChars 2000: long prompts below take the worker-pool path.
    gw = await startTestGateway({ gateway: { factories: [(deps) => createTokenSlimmerService(deps, { inlineMaxChars: 2000 })] } });
  });
  after(() => gw.close());

  for (const path of PATHS) {
    it(`compresses on ${path} and answers the contract's fields`, async () => {
      const res = await gw.post(path, { prompt: VERBOSE });
      assert.equal(res.status, 200);
      const body = (await res.json()) as Record<string, unknown>;
      assert.equal(body.success, true);
      assert.equal(body.api, TOKENSLIMMER_LABEL);
      assert.equal(body.status, 'COMPRESSED');
      assert.equal(body.level, 'balanced');
      assert.equal(body.compressed_content, 'Explain, to learn quickly, the rule?');
      assert.equal(body.original_tokens, countTokens(VERBOSE, 'o200k_base'));
      assert.equal(body.compressed_tokens, countTokens(body.compressed_content as string, 'o200k_base'));
      assert.equal(body.tokens_saved, (body.original_tokens as number) - (body.compressed_tokens as number));
      assert.match(body.reduction_percent as string, /^\d{1,3}\.\d%$/);
      const expected = (((body.tokens_saved as number) * 100) / (body.original_tokens as number)).toFixed(1) + '%';
      assert.equal(body.reduction_percent, expected);
      assert.equal(typeof body.latency_ms, 'number');
    });
  }

  it('compresses a table, JSON and HTML leftovers by their structure in safe, inline and on the pool', async () => {
    const table = '| Region   | Q1 sales |\n|:---------|---------:|\n| North    |    1,200 |\n| South    |      980 |';
    const json = JSON.stringify({ id: 42, roles: ['admin', 'billing'], active: true }, null, 2);
    const prompt = `${table}\n\n${json}\n\n<p>Totals in&nbsp;EUR &amp; net.</p>`;
    const expected = `Region|Q1 sales\n:-|-:\nNorth|1,200\nSouth|980\n\n{"id":42,"roles":["admin","billing"],"active":true}\n\nTotals in EUR & net.`;
    // The same prompt padded past inlineMaxChars (2000) runs on the worker pool: same structure passes.
    const filler = '\n\n' + Array.from({ length: 120 }, (_, i) => `Line ${i} of the appendix.`).join('\n');
    for (const [p, want] of [[prompt, expected], [prompt + filler, expected + filler]] as const) {
      const body = (await (await gw.post('/v1/auto', { prompt: p, level: 'safe' })).json()) as Record<string, unknown>;
      assert.equal(body.status, 'COMPRESSED');
      assert.equal(body.compressed_content, want);
    }
  });

  it('answers UNCHANGED with 0.0% when nothing can be removed', async () => {
    const res = await gw.post('/v1/auto', { prompt: 'Sum 2 and 3.', level: 'safe' });
    const body = (await res.json()) as Record<string, unknown>;
    assert.equal(body.status, 'UNCHANGED');
    assert.equal(body.reduction_percent, '0.0%');
    assert.equal(body.tokens_saved, 0);
    assert.equal(body.compressed_content, 'Sum 2 and 3.');
  });

  it('returns UNCHANGED when its own output is sent back (idempotent over HTTP)', async () => {
    const first = (await (await gw.post('/v1/auto', { prompt: VERBOSE, level: 'aggressive' })).json()) as { compressed_content: string };
    const second = (await (await gw.post('/v1/auto', { prompt: first.compressed_content, level: 'aggressive' })).json()) as Record<string, unknown>;
    assert.equal(second.status, 'UNCHANGED');
    assert.equal(second.compressed_content, first.compressed_content);
  });

  it('counts in cl100k_base on request', async () => {
    const prompt = 'naïve café — 数字 12345 <|endoftext|>';
    const body = (await (await gw.post('/v1/auto', { prompt, encoding: 'cl100k_base' })).json()) as Record<string, unknown>;
    assert.equal(body.original_tokens, countTokens(prompt, 'cl100k_base'));
    assert.notEqual(countTokens(prompt, 'cl100k_base'), countTokens(prompt, 'o200k_base'));
  });

  it('runs long prompts on the worker pool with the same result as inline', async () => {
    const completedBefore = gw.gateway.pool.stats().completed;
    const long = Array.from({ length: 60 }, (_, i) => `Um, basically, item ${i} is due to the fact that sensor_${i} failed.`).join('\n');
    const res = await gw.post('/v1/api/09-tokenslimmer', { prompt: long, level: 'balanced' });
    assert.equal(res.status, 200);
    const body = (await res.json()) as Record<string, unknown>;
    assert.equal(body.status, 'COMPRESSED');
    assert.match(body.compressed_content as string, /^Item 0 is because sensor_0 failed\.$/m);
    assert.equal(gw.gateway.pool.stats().completed, completedBefore + 1);
  });

  const invalid: [string, unknown, string][] = [
    ['prompt missing', {}, '/prompt'],
    ['prompt not a string', { prompt: 42 }, '/prompt'],
    ['unknown level', { prompt: 'x', level: 'extreme' }, '/level'],
    ['unknown encoding', { prompt: 'x', encoding: 'p50k_base' }, '/encoding'],
    ['prompt over 512 KiB of UTF-8', { prompt: 'é'.repeat(300_000) }, '/prompt'],
  ];
  for (const [name, body, path] of invalid) {
    it(`answers 400 VALIDATION_FAILED when ${name}`, async () => {
      const res = await gw.post('/v1/auto', body);
      assert.equal(res.status, 400);
      const json = (await res.json()) as { success: boolean; api: string; error: { code: string; details: { path: string }[] } };
      assert.equal(json.success, false);
      assert.equal(json.api, TOKENSLIMMER_LABEL);
      assert.equal(json.error.code, 'VALIDATION_FAILED');
      assert.ok(json.error.details.some((d) => d.path === path), JSON.stringify(json.error.details));
    });
  }

  it('answers 400 INVALID_JSON for a body that is not JSON', async () => {
    const res = await gw.post('/v1/auto', '{"prompt": ');
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'INVALID_JSON');
  });

  it('never writes the prompt to the logs', async () => {
    await gw.post('/v1/auto', { prompt: `Please remember ${SECRET_WORD} forever.` });
    await gw.post('/v1/auto', { prompt: `${SECRET_WORD} `.repeat(500) });
    assert.ok(gw.logs.length > 0);
    assert.ok(gw.logs.every((l) => !l.includes(SECRET_WORD)));
  });
});
