/**
 * Verification features without word vectors (EMBEDDER=transformers): content words become
 * hashed keys (numbers get even keys, words odd ones), the contrast classes of glove.ts are
 * looked up by hash, and only the hard rules of verify.ts apply.
 */
import type { SentenceFeatures } from './glove.ts';
import { CONTRAST_CLASSES } from './glove.ts';
import { fold, type Tokens } from './tokenizer.ts';
import { orderCodes, verify, type Verdict, type WordKnowledge } from './verify.ts';

import { QUESTION_KIND, symbolHash, wordHashes } from './glove.ts';
const NUMBER = /^[\d.,]*\d[\d.,]*$/;

/** Without a vocabulary, folding accepts the first candidate form (plural s, -ing, -ed). */
const stem = (w: string): string => fold(w, (c) => c.length >= 3);

function keyOf(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
  const base = (h >>> 3) * 2;
  return -(base + (NUMBER.test(word) ? 2 : 1));
}

const CONTRAST = new Map<number, { cls: number; group: number }>();
CONTRAST_CLASSES.forEach((cls, c) =>
  cls.split('|').forEach((group, g) => {
    for (const w of group.trim().split(/\s+/)) {
      CONTRAST.set(keyOf(w), { cls: c + 2, group: g });
      CONTRAST.set(keyOf(stem(w)), { cls: c + 2, group: g });
    }
  }),
);

const LEXICAL: WordKnowledge = {
  coverageWeight: () => 1,
  contrastClass: (key) => ((-key) % 2 === 0 ? 1 : (CONTRAST.get(key)?.cls ?? 0)),
  contrastGroup: (key) => ((-key) % 2 === 0 ? key : (CONTRAST.get(key)?.group ?? -1)),
};

export function lexicalFeatures(tokens: Tokens): SentenceFeatures {
  const n = tokens.content.length;
  const ids = new Int32Array(n).fill(-1);
  const keys = new Int32Array(n);
  for (let i = 0; i < n; i++) keys[i] = keyOf(stem(tokens.content[i]!));
  return {
    ids,
    keys,
    weights: new Float32Array(n).fill(1),
    negated: tokens.negated,
    questions: tokens.question === null ? 0 : (QUESTION_KIND[tokens.question] ?? 0),
    order: orderCodes(tokens.sequence, (w) => keyOf(stem(w))),
    passive: tokens.passive,
    proper: Uint8Array.from(tokens.proper, (x) => (x ? 1 : 0)),
    words: wordHashes(tokens.all),
    persons: tokens.persons,
    clauses: tokens.clauses,
    symbols: symbolHash(tokens.symbols),
  };
}

export function hardRulesVerify(cosine: number, a: SentenceFeatures, b: SentenceFeatures): Verdict {
  return verify(cosine, a, b, LEXICAL, false);
}
