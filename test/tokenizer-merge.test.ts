/**
 * The heap merge of long pieces (src/tokenizer/merge.ts): the same count as gpt-tokenizer's own
 * bytePairEncode on every piece, in both encodings, and counting time that grows with the input
 * instead of with its square.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import o200kApi, { countTokens as countO200kPublic } from 'gpt-tokenizer/encoding/o200k_base';
import cl100kApi, { countTokens as countCl100kPublic } from 'gpt-tokenizer/encoding/cl100k_base';
import { BytePairEncodingCore } from 'gpt-tokenizer/BytePairEncodingCore';
import { countTokens, ENCODINGS, type Encoding } from '../src/tokenizer/index.ts';
import { mergeCounter, mergedCount } from '../src/tokenizer/merge.ts';
import { rng } from './helpers/rng.ts';

interface Core {
  bytePairEncode(piece: string): { length: number };
  getBpeRankFromBytes(bytes: Uint8Array): number | undefined;
}
const cores = {
  o200k_base: (o200kApi as unknown as { bytePairEncodingCoreProcessor: Core }).bytePairEncodingCoreProcessor,
  cl100k_base: (cl100kApi as unknown as { bytePairEncodingCoreProcessor: Core }).bytePairEncodingCoreProcessor,
};
const noSpecial = { disallowedSpecial: new Set<string>() };
const publicCount: Record<Encoding, (text: string) => number> = {
  o200k_base: (t) => countO200kPublic(t, noSpecial),
  cl100k_base: (t) => countCl100kPublic(t, noSpecial),
};

/** Characters by kind: the byte patterns BPE pairs fall on (ASCII, 2-, 3- and 4-byte UTF-8, combining marks). */
const ALPHABETS: Record<string, string[]> = {
  letters: [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'],
  digits: [...'0123456789'],
  punctuation: [...'.,;:!?-_=+*/\\|()[]{}<>"\'`~@#$%^&'],
  whitespace: [' ', ' ', ' ', '\t', '\n', '\r\n', '\u00A0', '\u3000'],
  latin1: [...'éèêëàâäçñöüßÉÀÇÑØÅæøå¿¡°±µ'],
  cjk: [...'的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三己老从动两长'],
  emoji: ['😀', '🎉', '👍', '🚀', '👩‍💻', '🇩🇪', '❤️', '🙂'],
  combining: ['e\u0301', 'a\u0308', 'n\u0303', 'o\u0302', '\u0301', '\u0327', '\u0323\u0307'],
};
const ALL = Object.values(ALPHABETS).flat();

/** Seeded pieces: mixed alphabets, runs of one or two characters, repeated words, base64 and hex, at lengths from 1 to a few thousand. */
function pieces(seed: number): string[] {
  const r = rng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
  // Mostly short, some hundreds, a few thousands: the library's O(m²) loop is the slow side here.
  const length = (): number => [1, 2, 3, 5, 8, 13, 30, 64, 65, 100, 250, 600, 1500, 3000][Math.floor(r() * 14)]!;
  const from = (alphabet: readonly string[], n: number): string => {
    let s = '';
    while (s.length < n) s += pick(alphabet);
    return s;
  };
  const out: string[] = [];
  for (let i = 0; i < 60; i++) out.push(from(ALL, length()));
  for (const name of Object.keys(ALPHABETS)) for (let i = 0; i < 6; i++) out.push(from(ALPHABETS[name]!, length()));
  for (const unit of [' ', 'a', 'A', '\n', '-', '=', '.', '0', 'é', '数', '🎉', '\u0301', 'ab', ' \n', 'aA', '\t ', '数字', '= ']) out.push(unit.repeat(Math.ceil(length() / unit.length)));
  for (const word of ['the ', 'ing', 'hello', ' world', 'données ', '東京', 'abc123']) out.push(word.repeat(1 + Math.floor(length() / word.length)));
  const b64 = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'];
  for (let i = 0; i < 8; i++) out.push(from(b64, length()) + pick(['', '=', '==']));
  for (let i = 0; i < 8; i++) out.push(from([...'0123456789abcdef'], length()));
  // The library's decoding quirks: a leading byte-order mark is dropped when it looks a pair up; a lone surrogate is encoded as U+FFFD.
  out.push('\uFEFF', '\uFEFFusing', '\uFEFF\uFEFF' + from(ALL, 80), '\uFEFF'.repeat(70), 'x\uFEFFnamespace'.repeat(8), '\uD800', '\uDC00abc', 'a\uD83Db'.repeat(30));
  return out;
}

describe('heap merge of long pieces (src/tokenizer/merge.ts)', () => {
  for (const enc of ENCODINGS) {
    it(`counts every piece as gpt-tokenizer's bytePairEncode does, in ${enc}`, () => {
      const core = cores[enc];
      const count = mergeCounter(core);
      assert.ok(count !== undefined, "gpt-tokenizer's internals changed: the heap merge is off");
      const list = [...pieces(1), ...pieces(2)];
      for (const piece of list) assert.equal(count(piece), core.bytePairEncode(piece).length, `${piece.length} chars: ${JSON.stringify(piece.slice(0, 40))}`);
      assert.ok(list.some((p) => p.length >= 1500));
    });
  }

  it("merges the leftmost of equal-rank pairs first, as the library's loop does, on every string of a and b up to 12 long", () => {
    // A toy table with ties and lopsided merges. In "aaab" the pair "aa" ties at bytes 0 and 1:
    // leftmost first gives aa|a|b, where no pair is a token (3); the other would give a|aab (2).
    const toy = new BytePairEncodingCore({ bytePairRankDecoder: ['a', 'b', 'aa', 'aab', 'ba', 'bab', 'abab', 'bb'], tokenSplitRegex: /[ab]+/g }) as unknown as Core;
    const rankOf = (bytes: Uint8Array): number | undefined => toy.getBpeRankFromBytes(bytes);
    assert.equal(mergedCount(Buffer.from('aaab'), rankOf), 3);
    let checked = 0;
    for (let length = 1; length <= 12; length++) {
      for (let bits = 0; bits < 1 << length; bits++) {
        let s = '';
        for (let i = 0; i < length; i++) s += (bits >> i) & 1 ? 'b' : 'a';
        assert.equal(mergedCount(Buffer.from(s), rankOf), toy.bytePairEncode(s).length, s);
        checked++;
      }
    }
    assert.equal(checked, 8190);
    assert.equal(mergedCount(new Uint8Array(0), rankOf), 0);
  });

  it('is off when the encoding core lacks the byte-sequence lookup, or disagrees with its own merge', () => {
    assert.equal(mergeCounter({}), undefined);
    assert.equal(mergeCounter(null), undefined);
    const core = cores.o200k_base;
    const skewed = { bytePairEncode: (p: string) => core.bytePairEncode(p), getBpeRankFromBytes: (b: Uint8Array) => (b.length === 2 ? undefined : core.getBpeRankFromBytes(b)) };
    assert.equal(mergeCounter(skewed), undefined);
  });
});

describe('countTokens on text with long pieces', () => {
  for (const enc of ENCODINGS) {
    it(`gives the public countTokens' count for whole texts holding long pieces, in ${enc}`, () => {
      const r = rng(9);
      const cjk = Array.from({ length: 2500 }, () => ALPHABETS.cjk![Math.floor(r() * ALPHABETS.cjk!.length)]).join('');
      const texts = [
        `<p>Before.</p>\n<pre>${' '.repeat(6000)}x</pre>\n<p>After.</p>`,
        `${'a'.repeat(5000)} and then ${'Z'.repeat(700)}z`,
        `中文段落：${cjk}。下一段。`,
        `${'='.repeat(120)}\n${'-'.repeat(300)}\n\n${'\t'.repeat(200)}end`,
        `data:image/png;base64,${Array.from({ length: 4000 }, () => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'[Math.floor(r() * 64)]).join('')}==`,
        `${'🎉'.repeat(400)} ${'e\u0301'.repeat(300)} ${'\u00A0'.repeat(500)}`,
      ];
      for (const text of texts) assert.equal(countTokens(text, enc), publicCount[enc](text), JSON.stringify(text.slice(0, 40)));
    });
  }
});

describe('token counting time grows linearly with the length of a piece', () => {
  // Four times the input may take about four times as long; the library's merge took sixteen
  // (a 200,000-space run inside a <pre> took ~20 s). Best of two runs; a small fixed slack absorbs
  // timer noise on short runs. CJK without punctuation is one piece three bytes a character, so it
  // is timed smaller. A base64 string splits into short pieces at digits and case changes: linear
  // before too, kept as a check that nothing else in the counter is quadratic.
  const b64 = (n: number): string => {
    const r = rng(n);
    return Array.from({ length: n }, () => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'[Math.floor(r() * 64)]).join('');
  };
  // make(n, v): the v-th variant of a text of about n characters. Each timed run counts another
  // variant, since the library keeps every piece it merged in a cache and would answer a repeat at once.
  const cases: Record<string, [(n: number, v: number) => string, number]> = {
    'a run of spaces inside a <pre>': [(n, v) => `<pre>${' '.repeat(n + v)}x</pre>`, 16 * 1024],
    "a long run of 'a'": [(n, v) => 'a'.repeat(n + v), 16 * 1024],
    'a paragraph of CJK without punctuation': [(n, v) => '数字中文的'.repeat(n / 5) + '数'.repeat(v), 4 * 1024],
    'a run of dashes': [(n, v) => `${'-'.repeat(n + v)}\n`, 16 * 1024],
    'a base64 string': [(n, v) => b64(n + v), 8 * 1024],
  };
  const best = (make: (n: number, v: number) => string, n: number, enc: Encoding): number => {
    let ms = Infinity;
    for (let v = 0; v < 2; v++) {
      const text = make(n, v);
      const t0 = performance.now();
      countTokens(text, enc);
      ms = Math.min(ms, performance.now() - t0);
    }
    return ms;
  };
  for (const [name, [make, n]] of Object.entries(cases)) {
    it(`on ${name}`, () => {
      for (const enc of ENCODINGS) {
        const small = best(make, n, enc);
        const large = best(make, 4 * n, enc);
        assert.ok(large < 8 * small + 40, `${enc}: ${small.toFixed(1)} ms at ${n} chars, ${large.toFixed(1)} ms at ${4 * n}`);
      }
    });
  }
});
