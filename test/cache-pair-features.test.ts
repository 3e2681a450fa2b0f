/**
 * API-05 pair features, one row per typical wrong hit of a word-vector cache: the rule fires (a
 * feature the model sees), a short query pair is rejected outright (score 0), and the paraphrase
 * next to it fires no rule and scores above it.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { dot, type GloveEmbedder } from '../src/embeddings/glove.ts';
import { embedWithGlove } from '../src/embeddings/index.ts';
import { LearnedVerifier } from '../src/embeddings/learned-verify.ts';
import { FEATURE_NAMES, N_FEATURES, PairScorer, RULE, SHORT_PAIR, type RuleName } from '../src/embeddings/pair-features.ts';
import { tokenize } from '../src/embeddings/tokenizer.ts';
import { loadGlove } from './helpers/glove.ts';

let glove: GloveEmbedder;
let scorer: PairScorer;
let verifier: LearnedVerifier;
before(() => {
  glove = loadGlove();
  scorer = new PairScorer(glove);
  verifier = LearnedVerifier.load(glove);
});

function pair(stored: string, asked: string): { rules: number; row: Float64Array; score: number } {
  const s = embedWithGlove(glove, stored);
  const q = embedWithGlove(glove, asked);
  const row = new Float64Array(N_FEATURES);
  const cosine = dot(q.vector, s.vector);
  const rules = scorer.compute(cosine, q.features, s.features, row);
  return { rules, row, score: verifier.verify(cosine, q.features, s.features).score };
}
const feature = (row: Float64Array, name: string): number => row[FEATURE_NAMES.indexOf(name)]!;

describe('API-05 pair features: the typical wrong hit', () => {
  // [what differs, rule, stored, wrong hit, paraphrase of stored]
  const CASES: Array<[string, RuleName, string, string, string]> = [
    ['number', 'number', 'Top 5 movies of 2020', 'Top 10 movies of 2020', 'The 5 best movies of 2020'],
    ['version', 'number', 'How do I install Python 3 on Mac?', 'How do I install Python 2 on Mac?', 'How can I install Python 3 on my Mac?'],
    ['date (weekday)', 'date', 'What is the weather on Tuesday?', 'What is the weather on Thursday?', 'What will the weather be on Tuesday?'],
    ['date (month)', 'date', 'Flights to Rome in March', 'Flights to Rome in June', 'Flights to Rome during March'],
    ['platform', 'platform', 'How do I take a screenshot on Windows?', 'How do I take a screenshot on Mac?', 'How can I take a screenshot on Windows?'],
    ['product', 'platform', 'How do I sort a list in Python?', 'How do I sort a list in Java?', 'How can I sort a list in Python?'],
    ['unit', 'unit', 'How many calories do I burn walking 5 km?', 'How many calories do I burn walking 5 miles?', 'How many calories are burned walking 5 km?'],
    ['currency', 'unit', 'What is the price of gold in dollars?', 'What is the price of gold in euros?', 'What does gold cost in dollars?'],
    ['named entity', 'entity', 'Best budget hotels in Cochin', 'Best budget hotels in Mussoorie', 'Best cheap hotels in Cochin'],
    ['question word', 'question', 'Why is the sky blue?', 'How is the sky blue?', 'Why does the sky look blue?'],
    ['how many vs what', 'question', 'How many people live in Tokyo?', 'What people live in Tokyo?', 'How many people are living in Tokyo?'],
    ['negation on one side', 'negation', 'Can I cancel my order?', "Can't I cancel my order?", 'Is it possible to cancel my order?'],
    ['direction', 'direction', 'Did the stock rise today?', 'Did the stock fall today?', 'Did the stock go up today?'],
    ['subject and object swapped', 'order', 'Convert 100 USD to EUR', 'Convert 100 EUR to USD', 'Convert 100 USD into EUR'],
    ['symbol', 'symbol', 'Is the O+ blood group the universal donor?', 'Is the O- blood group the universal donor?', 'Is blood group O+ the universal donor?'],
    ['operator', 'symbol', 'What is the difference between == and !== in JavaScript?', 'What is the difference between === and !== in JavaScript?', 'How do == and !== differ in JavaScript?'],
  ];
  for (const [what, rule, stored, wrong, para] of CASES) {
    it(`${what}: "${wrong}" fires ${rule} and scores 0; "${para}" fires no rule and scores more`, () => {
      const w = pair(stored, wrong);
      assert.ok((w.rules & RULE[rule]) !== 0, `rule ${rule} fired (rules ${w.rules})`);
      assert.ok((w.rules & SHORT_PAIR) !== 0, 'a short pair');
      assert.equal(w.score, 0);
      const p = pair(stored, para);
      assert.equal(p.rules & ~SHORT_PAIR, 0, `no rule on the paraphrase (rules ${p.rules})`);
      assert.ok(p.score > 0.2, `paraphrase ${p.score}`);
    });
  }

  it('symbols: the ones that change the question count, joiners and punctuation do not', () => {
    const table: Array<[string, string]> = [
      ['Is O+ the universal donor?', '+'],
      ['Is O- the universal donor?', '-'],
      ['Is it -5 degrees outside?', '-'],
      ['What is 5% of 80?', '%'],
      ['Can I buy it for $5?', '$'],
      ['x := y vs x ::= y', ':= ::='],
      ['What does () => {} do?', '=> {}'],
      ['How do I send an e-mail in km/h from Wolfram|Alpha?', ''],
      ['Why, oh why (really) is it so?! "Yes" - no.', ''],
      ['How do I learn C++ and C#?', ''],
      ['#python @bob *great* \\ 😀', ''],
    ];
    for (const [text, symbols] of table) assert.equal(tokenize(text).symbols, symbols, text);
  });

  it('a different subject: other pronouns count (person_diff), and the score drops', () => {
    const w = pair('Why is life beautiful?', 'Why is your life beautiful?');
    assert.ok(feature(w.row, 'person_diff') > 0);
    assert.ok(w.score < pair('Why is life beautiful?', 'Why is life so beautiful?').score);
  });

  it('one side asking for more: coordinations and an extra clause show in clause_diff and coverage', () => {
    const w = pair('Why is the sky blue?', 'Why is the sky blue and why is grass green?');
    assert.ok(feature(w.row, 'clause_diff') > 0);
    assert.ok(feature(w.row, 'cov_soft_min') < 0.8);
    assert.ok(w.score < pair('Why is the sky blue?', 'Why is the sky blue at all?').score);
  });

  it('in long texts the rules are features, not rejects (news paraphrases drop or reword figures)', () => {
    const w = pair(
      'The company said on Tuesday that quarterly revenue rose 5 percent to 3.2 billion dollars, helped by strong demand in Asia and Europe',
      'Quarterly revenue rose 5 percent to 3.2 billion dollars on strong demand in Asia and Europe, the company said on Wednesday',
    );
    assert.ok((w.rules & RULE.date) !== 0 && (w.rules & SHORT_PAIR) === 0);
    assert.ok(w.score > 0, `score ${w.score}`);
  });

  it('is symmetric: the same rules and features whichever side is cached', () => {
    for (const [a, b] of CASES.map((c) => [c[2], c[3]] as const)) {
      const x = pair(a, b);
      const y = pair(b, a);
      assert.equal(x.rules, y.rules, `${a} / ${b}`);
      assert.deepEqual(Array.from(x.row), Array.from(y.row));
    }
  });
});

describe('API-05 tokenizer signals for the pair features', () => {
  const TABLE: Array<[string, Partial<{ question: string | null; proper: string[]; persons: number; content: string[] }>]> = [
    ['How many people live in Tokyo?', { question: 'how many', proper: ['tokyo'] }],
    ['How long does it take?', { question: 'how long' }],
    ['How do I learn C++ or C#?', { question: 'how', content: ['learn', 'cplusplus', 'csharp'], persons: 1 }],
    ['Is NASA in Washington?', { proper: ['nasa', 'washington'] }],
    ['Best Hotels In Paris For Families', { proper: [] }],
    ['Can you help me with your homework?', { persons: 3 }],
  ];
  for (const [text, want] of TABLE) {
    it(`reads "${text}"`, () => {
      const t = tokenize(text);
      if (want.question !== undefined) assert.equal(t.question, want.question);
      if (want.proper !== undefined) assert.deepEqual(t.content.filter((_, i) => t.proper[i]), want.proper);
      if (want.persons !== undefined) assert.equal(t.persons, want.persons);
      if (want.content !== undefined) assert.deepEqual(t.content, want.content);
    });
  }
});

describe('API-05 pair features: the shortcuts change no result', () => {
  it('similarityAtLeast is the cosine when it reaches the bar, and below the bar otherwise', () => {
    let seed = 7;
    const rand = (n: number): number => {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      return seed % n;
    };
    // Frequent words (many close neighbours) and random pairs; bars around the word-match threshold.
    let reached = 0;
    for (let k = 0; k < 20_000; k++) {
      const a = rand(k % 2 === 0 ? 3000 : 300_000);
      const b = k % 4 === 0 ? a : rand(k % 2 === 0 ? 3000 : 300_000);
      const min = [0.5, 0.7, 0.9][k % 3]!;
      const exact = glove.wordSimilarity(a, b);
      const fast = glove.similarityAtLeast(a, b, min);
      if (exact >= min) {
        reached++;
        assert.equal(fast, exact, `rows ${a} ${b} at ${min}`);
      } else assert.ok(fast < min, `rows ${a} ${b} at ${min}: ${fast} for ${exact}`);
    }
    assert.ok(reached > 5000, `${reached} pairs reached the bar`);
  });

  it('a stopped compute returns the same rule bits, and the learned score is unchanged', () => {
    const texts = [
      'How do I install Python 3 on Mac?', 'How do I install Python 2 on Mac?', 'How can I install Python 3 on my Mac?',
      'Best budget hotels in Cochin', 'Best cheap hotels in Cochin', 'Why is the sky blue?', 'How is the sky blue?',
      'The company said profits rose in March.', 'Profits fell in June, the company said.', 'I cannot log in to my account',
    ];
    const row = new Float64Array(N_FEATURES);
    for (const x of texts) {
      for (const y of texts) {
        const a = embedWithGlove(glove, x);
        const b = embedWithGlove(glove, y);
        const cosine = dot(a.vector, b.vector);
        const full = scorer.compute(cosine, a.features, b.features, row);
        assert.equal(scorer.compute(cosine, a.features, b.features, new Float64Array(N_FEATURES), () => true), full);
        const expected = verifier.rejectedBits(full) !== 0 ? 0 : verifier.scoreRow(row, full);
        assert.equal(verifier.verify(cosine, a.features, b.features).score, expected, `${x} / ${y}`);
      }
    }
  });
});
