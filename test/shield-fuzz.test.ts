/**
 * Random inputs (seeded, reproducible): whatever the text — lone surrogates, tag characters,
 * zero-width runs, NUL bytes, digits and punctuation soup — screening never throws, every offset
 * lies inside input_text, sanitized_text carries no invisible character, and the verdict fields
 * agree with each other.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createShield } from '../src/services/llm-shield/core.ts';
import { BLOCKING } from '../src/services/llm-shield/types.ts';

const shield = createShield();

function prng(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 0x100000000;
  };
}

const ALPHABET = [
  'a', 'e', 'i', 'o', 'g', 'n', 'r', ' ', ' ', '\n', '.', ':', '@', '/', '%', '&', '#', ';', '0', '1', '4', '7', '9', '-', '=', '[', ']', '(', ')', '<', '|', '>', '{', '}',
  '\u200b', '\u200d', '\u202e', '\ufe0f', '\u{E0041}', '\u{E0069}', '\ud800', '\udc00', '\u0000', 'é', 'ß', 'ł', 'і', 'о', 'ｉ', '𝐢', '😀', '’', '—',
  'ignore ', 'previous ', 'instructions ', 'http://', '10.0.0.1', 'aWdub3Jl', '&#105;', '%69', 'AKIA', '4111', 'DE89', '@x.io', '<|im_start|>', '![a](', '?q={',
];

describe('shield on random inputs', () => {
  it('never throws and keeps offsets, sanitising and verdicts consistent (400 seeded inputs)', () => {
    const rnd = prng(0x5eed);
    for (let n = 0; n < 400; n++) {
      const len = Math.floor(rnd() * 120);
      let text = '';
      for (let k = 0; k < len; k++) text += ALPHABET[Math.floor(rnd() * ALPHABET.length)];
      const v = shield.screen(text);
      for (const f of v.findings) {
        assert.ok(f.start >= 0 && f.start <= f.end && f.end <= text.length, `bad offsets ${JSON.stringify(f)} for ${JSON.stringify(text)}`);
        assert.ok(f.confidence >= 0 && f.confidence <= 1);
      }
      assert.ok(!/[\u200b\u200d\u202e]|[\u{E0000}-\u{E007F}]/u.test(v.sanitized_text), `invisible left in ${JSON.stringify(v.sanitized_text)}`);
      assert.equal(v.threat_detected, v.threat_type !== 'NONE');
      assert.equal(v.action === 'BLOCKED', BLOCKING.has(v.threat_type));
      assert.ok(v.confidence >= 0 && v.confidence <= 1);
    }
  });
});
