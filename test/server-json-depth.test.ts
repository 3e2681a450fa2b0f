/**
 * The request body's nesting check (src/server/body.ts): JSON nested deeper than MAX_JSON_DEPTH is
 * refused as INVALID_JSON, and brackets inside strings never count, however the strings are
 * escaped or long (the scan skips strings with native searches past STRING_STEP bytes).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_JSON_DEPTH, parseJsonObject } from '../src/server/body.ts';
import { rng } from './helpers/rng.ts';

/** A string value full of what could fool a scan: quotes, backslash runs, brackets, long runs. */
function trickyString(rand: () => number): string {
  const parts = ['"', '\\', '\\\\', '\\"', '[', '{', ']', '}', '<a href="x">', 'x'.repeat(70), 'é', ' '];
  let s = '';
  const n = Math.floor(rand() * 40);
  for (let k = 0; k < n; k++) s += parts[Math.floor(rand() * parts.length)];
  return s;
}

/** `{"v": ...}` with nesting `depth` (the outer object included), strings between the brackets. */
function nested(depth: number, rand: () => number): string {
  let open = '';
  let close = '';
  for (let d = 1; d < depth; d++) {
    if (rand() < 0.5) {
      open += `[${JSON.stringify(trickyString(rand))},`;
      close = `]${close}`;
    } else {
      open += `{${JSON.stringify(trickyString(rand))}:`;
      close = `}${close}`;
    }
  }
  return `{"s":${JSON.stringify(trickyString(rand))},"v":${open}${JSON.stringify(trickyString(rand))}${close}}`;
}

describe('JSON nesting check', () => {
  it(`accepts nesting up to ${MAX_JSON_DEPTH} and refuses deeper, with brackets, quotes and backslashes inside strings`, () => {
    const rand = rng(4242);
    for (let n = 0; n < 600; n++) {
      const depth = MAX_JSON_DEPTH - 3 + (n % 7); // 125..131
      const body = Buffer.from(nested(depth, rand));
      if (depth <= MAX_JSON_DEPTH) assert.doesNotThrow(() => parseJsonObject(body), `depth ${depth}`);
      else assert.throws(() => parseJsonObject(body), (e: { code?: string }) => e.code === 'INVALID_JSON', `depth ${depth}`);
    }
  });

  it('does not count brackets inside a long string that ends in escaped quotes and backslashes', () => {
    const text = `${'['.repeat(200)}${'\\"'.repeat(100)}${'x'.repeat(300)}\\\\${'{'.repeat(200)}`;
    assert.deepEqual(parseJsonObject(Buffer.from(JSON.stringify({ text }))), { text });
  });
});
