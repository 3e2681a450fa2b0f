/**
 * The shared tokenizer (src/tokenizer): known counts, special-token strings counted as text, and
 * agreement with the two other BPE implementations (js-tiktoken, WASM tiktoken) on the eval
 * prompts and on mixed-script text.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { Tiktoken as JsTiktoken } from 'js-tiktoken/lite';
import jsO200k from 'js-tiktoken/ranks/o200k_base';
import jsCl100k from 'js-tiktoken/ranks/cl100k_base';
import { get_encoding } from 'tiktoken';
import o200kApi, { countTokens as countO200kPublic } from 'gpt-tokenizer/encoding/o200k_base';
import cl100kApi, { countTokens as countCl100kPublic } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens, countTokensPair, ENCODINGS, tokenSegments, type Encoding } from '../src/tokenizer/index.ts';
import { pieceCounter, PieceTable } from '../src/tokenizer/pieces.ts';
import { seededText } from './helpers/rng.ts';

const evalPrompts = readFileSync(new URL('../eval/data/compress/prompts_dev.jsonl', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .map((l) => (JSON.parse(l) as { prompt: string }).prompt);
const extra = ['', ' ', 'hello world', 'naïve café — 数字 12345 👩‍💻 ', 'tab\there\r\nnew line', '<|endoftext|><|im_start|>user', 'a'.repeat(400)];

describe('countTokens', () => {
  const wasm = { o200k_base: get_encoding('o200k_base'), cl100k_base: get_encoding('cl100k_base') };
  const js = { o200k_base: new JsTiktoken(jsO200k), cl100k_base: new JsTiktoken(jsCl100k) };
  after(() => {
    wasm.o200k_base.free();
    wasm.cl100k_base.free();
  });

  const known: [string, Encoding, number][] = [
    ['hello world', 'o200k_base', 2],
    ['hello world', 'cl100k_base', 2],
    ['', 'o200k_base', 0],
  ];
  for (const [text, enc, n] of known) {
    it(`counts ${JSON.stringify(text)} as ${n} in ${enc}`, () => assert.equal(countTokens(text, enc), n));
  }

  it('counts special-token spellings as plain text instead of throwing', () => {
    const n = countTokens('before <|endoftext|> after', 'o200k_base');
    assert.ok(n > 3, `got ${n}`);
    assert.equal(n, wasm.o200k_base.encode_ordinary('before <|endoftext|> after').length);
  });

  it('distinguishes the two encodings', () => {
    const text = evalPrompts.join('\n');
    assert.notEqual(countTokens(text, 'o200k_base'), countTokens(text, 'cl100k_base'));
  });

  for (const enc of ENCODINGS) {
    it(`agrees with WASM tiktoken on every eval prompt and with js-tiktoken on every third in ${enc}`, () => {
      [...evalPrompts, ...extra].forEach((text, i) => {
        const n = countTokens(text, enc);
        assert.equal(n, wasm[enc].encode_ordinary(text).length);
        if (i % 3 === 0) assert.equal(n, js[enc].encode(text, [], []).length); // the slowest of the three
      });
    });
  }

  // Long text with a few characters beyond Latin-1: counted in runs, the Latin-1 runs as one-byte
  // copies (src/tokenizer countMixed). Sparse insertions leave long Latin-1 runs between them.
  const sparse = ['—', '数', '👩‍💻', '’', 'ł', '\u2003'];
  const mixed = evalPrompts.slice(0, 24).map((p, i) => {
    let out = '';
    for (let at = 0; at < p.length; at += 150 + ((i * 37) % 400)) out += p.slice(at, at + 150 + ((i * 37) % 400)) + sparse[(i + at) % sparse.length];
    return out;
  });
  for (const enc of ENCODINGS) {
    it(`agrees with WASM tiktoken on long texts with sparse non-Latin-1 characters, whole and as edited pairs, in ${enc}`, () => {
      for (const [i, text] of mixed.entries()) {
        assert.equal(countTokens(text, enc), wasm[enc].encode_ordinary(text).length, `mixed text ${i}`);
        const latin1 = text.replace(/[^\x00-\xff]/g, ' '); // Latin-1 only, but cut from a two-byte string
        assert.equal(countTokens(latin1, enc), wasm[enc].encode_ordinary(latin1).length, `latin-1 copy ${i}`);
        const edited = text.replace(/\bthe /g, '').replace(/ {2,}/g, ' ');
        assert.deepEqual(countTokensPair(text, edited, enc), [wasm[enc].encode_ordinary(text).length, wasm[enc].encode_ordinary(edited).length], `pair ${i}`);
      }
    });
  }

  it('counts with the lean piece loop on the installed gpt-tokenizer, and falls back when its internals differ', () => {
    const publicO200k = (t: string): number => countO200kPublic(t, { disallowedSpecial: new Set() });
    const publicCl100k = (t: string): number => countCl100kPublic(t, { disallowedSpecial: new Set() });
    const lean = pieceCounter(o200kApi, publicO200k);
    assert.ok(lean !== undefined && pieceCounter(cl100kApi, publicCl100k) !== undefined, 'the internals of gpt-tokenizer changed: the lean loop is off');
    for (const text of [...evalPrompts.slice(0, 10), ...extra]) assert.equal(lean(text), publicO200k(text));
    assert.equal(pieceCounter({}, publicO200k), undefined);
    assert.equal(pieceCounter({ bytePairEncodingCoreProcessor: { tokenSplitRegex: /x/, getBpeRankFromString: () => 1, bytePairEncode: () => [] } }, publicO200k), undefined);
    assert.equal(pieceCounter(o200kApi, (t) => publicO200k(t) + 1), undefined, 'a loop that disagrees on the probe is not used');
  });

  it('counts text whose pre-tokenizer leaves gaps between pieces as the replace() loop does (the sticky walk gives up)', () => {
    // A pre-tokenizer that matches letter runs only: the sticky walk fails at the first other
    // character, and the count must still be that of every piece the regex finds, gaps skipped.
    const letters = (t: string): number => (t.match(/[a-z]+/g) ?? []).reduce((a, p) => a + p.length, 0);
    const fake = { bytePairEncodingCoreProcessor: { tokenSplitRegex: /[a-z]+/g, getBpeRankFromString: (): undefined => undefined, bytePairEncode: (p: string) => ({ length: p.length }) } };
    const counter = pieceCounter(fake, letters);
    assert.ok(counter !== undefined);
    for (const text of ['abc', 'ab, cd', '  x', 'x  ', '12 ab 3 cde 45', '', ...evalPrompts.slice(0, 3)]) assert.equal(counter(text), letters(text), JSON.stringify(text.slice(0, 20)));
  });

  it('reads pieces from the text where they stand: the table answers a piece by its characters, whatever string holds them', () => {
    let computed = 0;
    const table = new PieceTable((p) => {
      computed++;
      return p.length * 7 + p.charCodeAt(0);
    });
    const text = randomText(7, 4000);
    const spans: [number, number][] = [];
    for (let at = 0; at < text.length; at += 1 + (at % 5)) spans.push([at, Math.min(text.length, at + 1 + (at % 30))]);
    for (const round of [0, 1]) {
      const before = computed;
      for (const [a, b] of spans) {
        const piece = text.slice(a, b);
        // The same characters inside another string (shifted): the same count.
        assert.equal(table.count(round === 0 ? text : `~${text}`, a + round, b + round), piece.length * 7 + piece.charCodeAt(0));
      }
      if (round === 1) assert.equal(computed, before + spans.filter(([a, b]) => b - a > 24).length, 'short pieces answered from the table');
    }
    assert.ok(table.size > 0 && table.size <= 16_384);
  });

  it('stays exact when its piece cache fills and is emptied, and when a piece is counted again from it', () => {
    // ~60,000 distinct short pieces: the cache (16,384 pieces) is emptied several times per count.
    let text = '';
    const word = (i: number): string => (i < 26 ? '' : word(Math.floor(i / 26) - 1)) + String.fromCharCode(97 + (i % 26));
    for (let i = 0; i < 60_000; i++) text += ' q' + word(i) + (i % 11 === 0 ? '.\n' : '');
    // The last quarter again: its pieces come from the cache as refilled after its last emptying.
    const tail = text.slice(text.indexOf(' ', (text.length * 3) >> 2));
    for (const enc of ENCODINGS) {
      assert.equal(countTokens(text, enc), wasm[enc].encode_ordinary(text).length);
      assert.equal(countTokens(tail, enc), wasm[enc].encode_ordinary(tail).length, 'pieces read back from the refilled cache');
    }
  });

  it('throws RangeError for an unknown encoding', () => {
    assert.throws(() => countTokens('x', 'p50k_base' as Encoding), RangeError);
  });
});

/** Seeded random text built from the characters that decide where BPE pieces end. */
const RANDOM_ALPHABET = ['a', 'b', 'Z', 'é', '数', '1', '9', ' ', ' ', '  ', '\n', '\n\n', '\r\n', '\t', '.', '!', '?', '/', "'s", "'", '-', ',', '(', ')', '👩‍💻', '\u00A0', 'The', ' word', '. The', '.\n/', '\n/x', '?\n', ' \n '];
function randomText(seed: number, length: number): string {
  return seededText(seed, length, RANDOM_ALPHABET);
}

describe('countTokensPair (segment sums)', () => {
  const texts = [...evalPrompts, ...extra, ...Array.from({ length: 300 }, (_, i) => randomText(i + 1, 20 + (i % 7) * 60))];

  it('cuts text into pieces that join back to it', () => {
    for (const t of texts) assert.equal(tokenSegments(t).join(''), t);
    assert.ok(tokenSegments(evalPrompts[0]!).length > 10);
  });

  for (const enc of ENCODINGS) {
    it(`equals the whole-text counts on eval prompts, random text and edited copies in ${enc}`, () => {
      texts.forEach((t, i) => {
        const other = texts[(i * 7 + 3) % texts.length]!;
        const edited = i % 2 === 0 ? t.replace(/\bthe /g, '').replace('. ', '.\n/') : t.slice(0, t.length >> 1) + other.slice(other.length >> 1);
        const [a, b] = countTokensPair(t, edited, enc);
        assert.equal(a, countTokens(t, enc), JSON.stringify(t.slice(0, 80)));
        assert.equal(b, countTokens(edited, enc), JSON.stringify(edited.slice(0, 80)));
      });
    });
  }

  for (const enc of ENCODINGS) {
    it(`equals the whole-text counts on copies edited segment by segment (runs dropped, inserted, rewritten, moved) in ${enc}`, () => {
      // Exercises the in-order walk: partners found a few segments ahead on either side, runs longer
      // than its look-ahead, repeated segments, edits dense enough to stop the walk early.
      let seed = 3;
      const rand = (n: number): number => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) % n;
      const sources = [...evalPrompts, ...extra];
      for (let i = 0; i < 120; i++) {
        const t = sources[i % sources.length]!;
        const segments = tokenSegments(t);
        const donor = tokenSegments(sources[(i * 5 + 1) % sources.length]!);
        const edited: string[] = [];
        const density = [0.02, 0.1, 0.4, 0.9][i % 4]!;
        for (let k = 0; k < segments.length; k++) {
          if (rand(1000) >= density * 1000) {
            edited.push(segments[k]!);
            continue;
          }
          const op = rand(5);
          if (op === 0) k += rand(12); // a run dropped (sometimes longer than the look-ahead)
          else if (op === 1) edited.push(donor[rand(donor.length)]!, segments[k]!); // a segment inserted
          else if (op === 2) edited.push(segments[k]!.replace(/\b\w+/, 'x')); // rewritten
          else if (op === 3) edited.push(segments[rand(segments.length)]!); // another (maybe repeated) segment
          else edited.push(segments[k]!.toUpperCase());
        }
        const copy = edited.join('');
        assert.deepEqual(countTokensPair(t, copy, enc), [countTokens(t, enc), countTokens(copy, enc)], `case ${i}`);
      }
    });
  }

  it('returns one count twice for an unchanged copy', () => {
    const n = countTokens(evalPrompts[3]!, 'o200k_base');
    assert.deepEqual(countTokensPair(evalPrompts[3]!, evalPrompts[3]!, 'o200k_base'), [n, n]);
  });
});
