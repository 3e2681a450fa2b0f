/** Loads the converted GloVe binary once per test file (converting it if this checkout has none). */
import { readGloveBinary } from '../../src/embeddings/glove-binary.ts';
import { GloveEmbedder } from '../../src/embeddings/glove.ts';
import { ensureGloveBinary } from '../../src/embeddings/prepare.ts';

let cached: GloveEmbedder | undefined;

export function loadGlove(): GloveEmbedder {
  cached ??= new GloveEmbedder(readGloveBinary(ensureGloveBinary(null).file));
  return cached;
}
