/** Embeddings: binary format round trip and damage detection, load time, tokenizer, folding, sentence vectors. */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { encodeGloveBinary, readGloveBinary } from '../src/embeddings/glove-binary.ts';
import { dot } from '../src/embeddings/glove.ts';
import { ensureGloveBinary } from '../src/embeddings/prepare.ts';
import { fold, tokenize } from '../src/embeddings/tokenizer.ts';
import { loadGlove } from './helpers/glove.ts';

describe('embeddings: binary format', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'api05-bin-'));
  const rows = new Float32Array([1, 0, 0, 0.6, 0.8, 0, 0, 0, 1]);
  const file = path.join(dir, 'tiny.bin');
  writeFileSync(file, encodeGloveBinary(['the', 'cat', 'dog', 'café'], new Float32Array([...rows, 0, 1, 0]), 3, { bytes: 42, version: 'test@1' }));

  it('round-trips words, order and (quantised) vectors', () => {
    const v = readGloveBinary(file);
    assert.deepEqual([v.size, v.dims, v.sourceBytes, v.sourceVersion], [4, 3, 42, 'test@1']);
    assert.equal(v.index.get('café'), 3);
    assert.equal(v.index.wordAt(3), 'café');
    assert.deepEqual([0, 1, 2].map((r) => v.index.wordAt(r)), ['the', 'cat', 'dog']);
    assert.deepEqual(['dog', 'the', 'cat', 'cow', 'do', 'dogs'].map((w) => v.index.get(w)), [2, 0, 1, undefined, undefined, undefined]);
    for (let i = 0; i < 9; i++) assert.ok(Math.abs(v.matrix[i]! * v.scales[Math.floor(i / 3)]! - rows[i]!) < 0.01);
  });

  it('refuses a truncated or foreign file with a message', () => {
    const bytes = readFileSync(file);
    writeFileSync(path.join(dir, 'cut.bin'), bytes.subarray(0, bytes.length - 3));
    assert.throws(() => readGloveBinary(path.join(dir, 'cut.bin')), /truncated or damaged/);
    writeFileSync(path.join(dir, 'foreign.bin'), Buffer.alloc(100));
    assert.throws(() => readGloveBinary(path.join(dir, 'foreign.bin')), /not a converted embeddings file/);
  });

  it('the converted GloVe binary loads in well under a second', () => {
    const file = ensureGloveBinary(null).file;
    const t0 = performance.now();
    const v = readGloveBinary(file);
    const ms = performance.now() - t0;
    assert.ok(v.size > 300_000 && v.dims === 100);
    assert.ok(ms < 900, `loaded in ${ms.toFixed(0)} ms`);
  });
});

describe('embeddings: tokenizer', () => {
  const CASES: Array<[string, string[], boolean, string | null]> = [
    ['How do I reset my Password?', ['reset', 'password'], false, 'how'],
    ["Can't I cancel it?", ['cancel'], true, null],
    ['The price rose 3.5% to $1,200', ['price', 'rose', '3.5', '1,200'], false, null],
    ['Ｆｕｌｌ-width ＴＥＸＴ', ['full', 'width', 'text'], false, null],
    ['The man who came', ['man', 'came'], false, null],
    // A number keeps its separators, a word never swallows one; dotted abbreviations are one word.
    ['Nelson,27, joined the U.S. team', ['nelson', '27', 'joined', 'us', 'team'], false, null],
    ['Mr. Smith met Mrs. Jones', ['smith', 'met', 'jones'], false, null],
  ];
  for (const [text, content, negated, question] of CASES) {
    it(`tokenizes ${JSON.stringify(text)}`, () => {
      const t = tokenize(text);
      assert.deepEqual(t.content, content);
      assert.equal(t.negated, negated);
      assert.equal(t.question, question);
    });
  }

  it('marks the words around a reporting word of a statement as attribution, not those of a question', () => {
    const t = tokenize('The plant will close in March, a spokesman for the company told reporters on Friday');
    const attributed = t.content.filter((_, i) => t.attributed[i]);
    assert.deepEqual(attributed, ['spokesman', 'company', 'told', 'reporters', 'friday']);
    assert.ok(!t.attributed[t.content.indexOf('plant')]);
    const q = tokenize('What did the minister say about the plant closing in March?');
    assert.ok(q.attributed.every((x) => !x));
  });

  const FOLDS: Array<[string, string]> = [
    ['passwords', 'password'],
    ['cities', 'city'],
    ['resetting', 'reset'],
    ['boxes', 'box'],
    ['status', 'status'],
    ['2020s', '2020s'],
  ];
  const vocab = new Set(['password', 'city', 'reset', 'box', 'statu']);
  for (const [w, f] of FOLDS) it(`folds ${w} to ${f}`, () => assert.equal(fold(w, (c) => vocab.has(c)), f));
});

describe('embeddings: sentence vectors', () => {
  it('are unit length, and paraphrases score above unrelated sentences', () => {
    const g = loadGlove();
    const a = g.embed('How do I reset my password?').vector;
    const b = g.embed('how can I change my password').vector;
    const c = g.embed('best pizza restaurants in naples').vector;
    assert.ok(Math.abs(dot(a, a) - 1) < 1e-4);
    assert.ok(dot(a, b) > dot(a, c) + 0.2, `${dot(a, b)} vs ${dot(a, c)}`);
  });

  it('an all-stop-word text gets the zero vector, not NaN', () => {
    const v = loadGlove().embed('the of and').vector;
    assert.ok(v.every((x) => x === 0));
  });
});
