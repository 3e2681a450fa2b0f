import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig, parseRateLimit, VARIABLES } from '../src/config.ts';

describe('configuration', () => {
  it('has embedded defaults for everything', () => {
    const c = loadConfig({});
    assert.equal(c.host, '127.0.0.1');
    assert.equal(c.port, 8080);
    assert.equal(c.maxBodyBytes, 1024 * 1024);
    assert.equal(c.bodyTimeoutMs, 10_000);
    assert.equal(c.authMode, 'off');
    assert.equal(c.apiKeysFile, 'data/keys.json');
    assert.equal(c.fetch.maxBytes, 5 * 1024 * 1024);
    assert.equal(c.fetch.allowPrivate, false);
    assert.equal(c.state.backend, 'memory');
    assert.ok(c.workerThreads >= 1);
    assert.ok(Object.isFrozen(c) && Object.isFrozen(c.fetch));
  });

  const bad: Array<[string, Record<string, string>, RegExp]> = [
    ['a non-numeric port', { PORT: 'http' }, /PORT="http" is invalid: expected an integer from 0 to 65535/],
    ['a port out of range', { PORT: '70000' }, /PORT="70000"/],
    ['a negative body limit', { MAX_BODY_BYTES: '-5' }, /MAX_BODY_BYTES="-5"/],
    ['an unknown auth mode', { AUTH_MODE: 'maybe' }, /AUTH_MODE="maybe" is invalid: expected one of off, optional, required/],
    ['an unknown log level', { LOG_LEVEL: 'loud' }, /LOG_LEVEL="loud"/],
    ['a bad boolean', { FETCH_ALLOW_PRIVATE: 'perhaps' }, /FETCH_ALLOW_PRIVATE="perhaps" is invalid: expected one of 1, 0/],
    ['a bad port list', { FETCH_ALLOWED_PORTS: '8080,abc' }, /FETCH_ALLOWED_PORTS="8080,abc"/],
    ['a bad CORS origin', { CORS_ORIGINS: 'app.example.com' }, /CORS_ORIGINS="app.example.com"/],
    ['a bad rate-limit list', { RATE_LIMIT_RPS: 'gold=5' }, /RATE_LIMIT_RPS="gold=5"/],
    ['zero worker threads', { WORKER_THREADS: '0' }, /WORKER_THREADS="0"/],
    ['redis without a URL', { STATE_BACKEND: 'redis' }, /REDIS_URL is required when STATE_BACKEND=redis/],
    ['a non-redis URL', { REDIS_URL: 'http://localhost' }, /REDIS_URL="http:\/\/localhost" is invalid/],
    ['transformers without a model directory', { EMBEDDER: 'transformers' }, /EMBEDDING_MODEL_DIR is required/],
  ];
  for (const [name, env, message] of bad) {
    it(`refuses ${name}, naming the variable and the accepted values`, () => {
      assert.throws(() => loadConfig(env), (err: unknown) => err instanceof ConfigError && message.test(err.message));
    });
  }

  it('reports every bad variable at once', () => {
    assert.throws(
      () => loadConfig({ PORT: 'x', AUTH_MODE: 'y', LOG_LEVEL: 'z' }),
      (err: unknown) => err instanceof ConfigError && err.problems.length === 3,
    );
  });

  it('parses RATE_LIMIT_RPS as one number or a per-plan list where unnamed plans inherit the plan below', () => {
    assert.deepEqual(parseRateLimit('20').perPlan, { free: 20, pack1: 20, pack2: 20, pack3: 20, pack4: 20 });
    assert.deepEqual(parseRateLimit('free=5,pack1=50,pack4=1000').perPlan, { free: 5, pack1: 50, pack2: 50, pack3: 50, pack4: 1000 });
    assert.deepEqual(parseRateLimit('pack3=7').perPlan, { free: 0, pack1: 0, pack2: 0, pack3: 7, pack4: 7 });
    assert.deepEqual(parseRateLimit('0').perPlan, { free: 0, pack1: 0, pack2: 0, pack3: 0, pack4: 0 });
  });

  it('accepts CORS origins as a list or *', () => {
    assert.deepEqual(loadConfig({ CORS_ORIGINS: 'https://a.example, http://localhost:3000' }).corsOrigins, ['https://a.example', 'http://localhost:3000']);
    assert.equal(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins, '*');
  });

  it('is documented: README has a row for every variable', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    for (const v of VARIABLES) assert.match(readme, new RegExp(`\\| \`${v.name}\` \\|`), `README lacks ${v.name}`);
  });
});
