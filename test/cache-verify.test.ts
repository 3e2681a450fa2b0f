/** API-05 verification stage on its own: learned scores rank paraphrases above hard negatives, no state leaks between calls, and the antonym, order and attribution rules do what they say. */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { ATTRIBUTION_WEIGHT, dot, type SentenceFeatures } from '../src/embeddings/glove.ts';
import { DEFAULT_THRESHOLD } from '../src/services/semantic-cache/core.ts';
import { verify, type WordKnowledge } from '../src/embeddings/verify.ts';
import { gloveEmbedder, type Embedder, type EmbeddedText } from '../src/embeddings/index.ts';
import { loadGlove } from './helpers/glove.ts';

let embedder: Embedder;
before(() => {
  embedder = gloveEmbedder(loadGlove());
});

const embed = (t: string): EmbeddedText => embedder.embed(t) as EmbeddedText;
/** Final score of `asked` against a cached `stored`, as the core computes it. */
function score(stored: string, asked: string): { final: number; cosine: number } {
  const s = embed(stored);
  const q = embed(asked);
  const cosine = dot(q.vector, s.vector);
  return { final: embedder.verify(cosine, q.features, s.features).score, cosine };
}

describe('semantic cache: verification scores (learned verifier)', () => {
  // [stored, paraphrase, hard negative]: the negative shares most words with the stored query.
  const TRIPLES: Array<[string, string, string]> = [
    ['How do I reset my password?', 'How can I reset my passwords?', 'How do I reset my router?'],
    ['What is the capital of France?', 'Which city is the capital of France?', 'What is the capital of Spain?'],
    ['Shares of the company rose sharply on Monday', 'The company shares rose sharply Monday', 'Shares of the company fell sharply on Monday'],
    ['How do I install Python 3 on Mac?', 'How can I install Python 3 on my Mac?', 'How do I install Python 3 on Windows?'],
  ];
  for (const [stored, para, neg] of TRIPLES) {
    it(`"${para}" scores above "${neg}", which stays below the default threshold`, () => {
      const p = score(stored, para);
      const n = score(stored, neg);
      assert.ok(p.final > n.final + 0.2, `paraphrase ${p.final.toFixed(3)} vs hard negative ${n.final.toFixed(3)}`);
      assert.ok(p.final > 0.5, `paraphrase ${p.final.toFixed(3)}`);
      assert.ok(n.final < DEFAULT_THRESHOLD, `hard negative ${n.final.toFixed(3)}`);
    });
  }

  it('scores are probabilities: in [0, 1], and a hard negative ends below its sentence cosine', () => {
    const n = score('How do I reset my password?', 'How do I reset my router?');
    assert.ok(n.final >= 0 && n.final < n.cosine - 0.2, `final ${n.final.toFixed(3)} vs cosine ${n.cosine.toFixed(3)}`);
    const p = score('cheap running shoes for kids', 'inexpensive jogging sneakers for children');
    assert.ok(p.final >= 0 && p.final <= 1);
  });

  it('a pair scores the same whatever was verified before it (no scratch state leaks between calls)', () => {
    const a = embed('cheap running shoes for kids');
    const b = embed('inexpensive jogging sneakers for children');
    const first = embedder.verify(dot(a.vector, b.vector), a.features, b.features).score;
    for (const [x, y] of [
      ['The committee approved the budget after a long debate about taxes and schools', 'After debating taxes and schools at length the committee passed the budget'],
      ['Heavy rain flooded roads across the northern province overnight', 'Storms caused flooding on highways in the north during the night'],
      ['cat', 'dog'],
    ] as const) {
      score(x, y);
      assert.equal(embedder.verify(dot(a.vector, b.vector), a.features, b.features).score, first, `after "${x}"`);
    }
  });

  it('is symmetric: swapping the sides gives the same score', () => {
    const a = embed('The U.S. military began a large sweep in the south');
    const b = embed('The US military started a big sweep in southern areas');
    const c = dot(a.vector, b.vector);
    assert.equal(embedder.verify(c, a.features, b.features).score, embedder.verify(c, b.features, a.features).score);
  });
});

describe('semantic cache: antonyms and attribution', () => {
  // Words as numbers, weight 1 each, no word vectors: only identical keys match.
  const plain: WordKnowledge = { coverageWeight: () => 1, contrastClass: () => 0, contrastGroup: () => 0 };
  const feats = (keys: number[]): SentenceFeatures => ({
    ids: Int32Array.from(keys),
    keys: Int32Array.from(keys),
    weights: new Float32Array(keys.length).fill(1),
    negated: false,
    questions: 0,
  });

  it('rejects antonyms that stand on one side each, not when both sides hold both', () => {
    const OPEN = 7;
    const CLOSE = 8;
    const withAntonyms: WordKnowledge = { ...plain, hasAntonym: (w) => w === OPEN || w === CLOSE, antonyms: (a, b) => (a === OPEN && b === CLOSE) || (a === CLOSE && b === OPEN) };
    assert.equal(verify(1, feats([1, OPEN, 2]), feats([1, CLOSE, 2]), withAntonyms).reject, 'antonym');
    assert.equal(verify(1, feats([1, OPEN, CLOSE]), feats([1, CLOSE, OPEN]), withAntonyms).reject, null);
    assert.equal(verify(1, feats([1, OPEN, 2]), feats([1, OPEN, 2]), withAntonyms).reject, null);
  });

  it('gives attribution words (source of a news statement) half weight', () => {
    const e = embed('The plant will close in March, a spokesman for the company told reporters');
    const plainWeight = loadGlove().coverageWeight(e.features.ids[e.features.ids.length - 1]!);
    assert.equal(e.features.weights[e.features.weights.length - 1], Math.fround(plainWeight * ATTRIBUTION_WEIGHT));
    const plant = loadGlove().coverageWeight(e.features.ids[0]!);
    assert.equal(e.features.weights[0], Math.fround(plant));
  });
});

describe('semantic cache: swapped roles (order rule)', () => {
  const verdict = (stored: string, asked: string) => {
    const s = embed(stored);
    const q = embed(asked);
    return embedder.verify(dot(q.vector, s.vector), q.features, s.features);
  };
  // Bag-of-words verification scored each of these 1.000 before the rule: same words, opposite answer.
  const SWAPS: Array<[string, string]> = [
    ['Convert 100 USD to EUR', 'Convert 100 EUR to USD'],
    ['Is Python faster than Java?', 'Is Java faster than Python?'],
    ['Translate this from English to French', 'Translate this from French to English'],
    ['How do I move files from Dropbox to Google Drive?', 'How do I move files from Google Drive to Dropbox?'],
    ['Should I take ibuprofen before paracetamol?', 'Should I take paracetamol before ibuprofen?'],
    ['dog bites man', 'man bites dog'],
  ];
  for (const [stored, asked] of SWAPS) {
    it(`"${asked}" is rejected against "${stored}"`, () => {
      const v = verdict(stored, asked);
      assert.equal(v.reject, 'order');
      assert.equal(v.score, 0);
    });
  }
  // Reordered paraphrases: no common anchor between the moved words, a passive, or a long sentence.
  const KEPT: Array<[string, string]> = [
    ['Move my files to Dropbox from Google Drive', 'Move my files from Google Drive to Dropbox'],
    ['The police arrested the suspect', 'The suspect was arrested by the police'],
    ['Druce will face murder charges, Conte said.', 'Conte said Druce will face murder charges.'],
    ['How do I reset my password?', 'Password reset: how do I do it?'],
  ];
  for (const [stored, asked] of KEPT) {
    it(`"${asked}" is not a swap of "${stored}"`, () => {
      assert.notEqual(verdict(stored, asked).reject, 'order');
    });
  }
  it('features stored without an order sequence (older Redis entries) skip the rule', () => {
    const s = embed('Convert 100 USD to EUR');
    const q = embed('Convert 100 EUR to USD');
    const v = embedder.verify(dot(q.vector, s.vector), q.features, { ...s.features, order: undefined });
    assert.equal(v.reject, null);
    assert.ok(v.score > 0.5);
  });
});
