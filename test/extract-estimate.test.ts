/**
 * API-01's HTML token estimate split into chunks (split-estimate.ts): chunks cut at piece
 * boundaries add up to exactly the histogram of one pass, whichever thread scans which chunk, so
 * the gateway's estimate (event loop + worker) is the in-process one.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { loadPages } from '../scripts/eval-extract.ts';
import { finishInWorker, IdleEstimate, scanNextChunk, shareEstimate } from '../src/services/web-to-markdown/split-estimate.ts';
import { estimateHtmlTokens, HISTOGRAM_SLOTS, pieceCuts, pieceHistogram, scanPieces } from '../src/services/web-to-markdown/token-estimate.ts';
import { seededText } from './helpers/rng.ts';

const EVAL_DIR = path.resolve(import.meta.dirname, '../eval/data/extract');
const pages = existsSync(EVAL_DIR) ? loadPages().map((p) => p.html) : [];

/** Seeded random text from the characters that decide where pieces start and end. */
const RANDOM_ALPHABET = ['a', 'Z', 'Ab', 'é', '数', '1', '123', '4567', ' ', '  ', '\n', '\r\n', '\t', '\u00a0', '.', '/', '<', '>', '="', "'", '-', '_', ':', '{', 'word', ' The', 'CamelCase', 'ABC', 'xyz9', '👩‍💻', ' \n ', '&amp;', '\ud800', '\udc00x', '\u2028', '\u3000'];
function randomText(seed: number, length: number): string {
  return seededText(seed, length, RANDOM_ALPHABET);
}

const texts = [...pages, ...Array.from({ length: 200 }, (_, i) => randomText(i + 7, 50 + (i % 13) * 97)), '', 'a', '1234', '....', '   ', 'word'];

describe('split HTML token estimate', () => {
  /** One pass over the whole text, no cuts. */
  const onePass = (text: string): Uint32Array => {
    const counts = new Uint32Array(HISTOGRAM_SLOTS);
    scanPieces(text, 0, text.length, counts);
    return counts;
  };

  it('cuts at piece boundaries: ranges scanned separately add up to the one-pass histogram', () => {
    for (const [i, text] of texts.entries()) {
      const whole = onePass(text);
      assert.deepEqual(pieceHistogram(text), whole, `text ${i}: pieceHistogram (chunks of CHUNK_CHARS)`);
      for (const chunk of [1, 5, 64, 4096]) {
        const cuts = pieceCuts(text, chunk);
        assert.equal(cuts[0], 0);
        assert.equal(cuts.at(-1), text.length);
        for (let k = 1; k < cuts.length; k++) assert.ok(cuts[k]! > cuts[k - 1]! || text.length === 0, `text ${i}: cuts increase`);
        const sum = new Uint32Array(HISTOGRAM_SLOTS);
        for (let k = 0; k + 1 < cuts.length; k++) scanPieces(text, cuts[k]!, cuts[k + 1]!, sum);
        assert.deepEqual(sum, whole, `text ${i}, chunks of ${chunk}`);
      }
    }
  });

  it('cuts an eval page into many chunks', { skip: pages.length === 0 ? 'eval data not present' : false }, () => {
    const big = pages.reduce((a, b) => (b.length > a.length ? b : a));
    assert.ok(pieceCuts(big, 16_384).length > 10);
  });

  it('gives the one-pass estimate however the event loop and the worker share the chunks', async () => {
    for (const [i, text] of texts.entries()) {
      const want = estimateHtmlTokens(text);
      // The event loop scans one chunk per loop turn (start); the worker finishes after `turns` turns.
      for (const turns of [0, 1, 2, 50]) {
        const estimate = new IdleEstimate(text, 997);
        estimate.start();
        for (let t = 0; t < turns; t++) await new Promise((r) => setImmediate(r));
        finishInWorker(estimate.buffer, text);
        assert.equal(estimate.total(), want, `text ${i} after ${turns} loop turns`);
      }
    }
  });

  it('hands out every chunk once: claims after the last one fail', () => {
    const text = randomText(3, 10_000);
    const buffer = shareEstimate(text, 1000);
    const counts = new Uint32Array(HISTOGRAM_SLOTS);
    let claimed = 0;
    while (scanNextChunk(buffer, text, counts)) claimed++;
    assert.equal(claimed, pieceCuts(text, 1000).length - 1);
    assert.equal(scanNextChunk(buffer, text, counts), false);
    assert.deepEqual(counts, onePass(text));
  });
});

describe('HTML token estimate on text without spaces', () => {
  it('grows with the length of a run of Han or kana (no piece stops at the last length slot)', () => {
    for (const unit of ['中文网页正文内容', 'ひらがなとカタカナ']) {
      const one = estimateHtmlTokens(`<p>${unit.repeat(40)}</p>`);
      const two = estimateHtmlTokens(`<p>${unit.repeat(80)}</p>`);
      assert.ok(two > one * 1.8, `${unit}: ${one} -> ${two}`);
    }
  });

  it('ends a word at CJK punctuation, as the pre-tokeniser does (the comma opens the next piece)', () => {
    const starts: number[] = [];
    pieceHistogram('中文，网页。', starts);
    // 中文 | ，网页 | 。 (o200k: an optional non-letter prefix, then letters; then a punctuation run).
    assert.deepEqual(starts.filter((_, k) => k % 2 === 0), [0, 2, 5]);
  });
});
