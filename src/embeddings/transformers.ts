/**
 * EMBEDDER=transformers: a local ONNX sentence-embedding model (a sentence-transformers export:
 * config.json, tokenizer.json, tokenizer_config.json, onnx/model.onnx) loaded by @huggingface/transformers with remote
 * loading disabled. Mean pooling + L2 normalisation. A missing or broken directory fails at boot
 * with a message naming EMBEDDING_MODEL_DIR and what is wrong.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Embedder, EmbeddedText } from './index.ts';
import { fingerprint } from './index.ts';
import { hardRulesVerify, lexicalFeatures } from './lexical.ts';
import { tokenize } from './tokenizer.ts';

/** Checks the directory layout before any model code runs; returns the problems found. */
export function checkModelDir(dir: string): string[] {
  const problems: string[] = [];
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [`${dir} does not exist or is not a directory`];
  for (const f of ['config.json', 'tokenizer.json', 'tokenizer_config.json']) {
    const p = path.join(dir, f);
    if (!existsSync(p)) {
      problems.push(`${f} is missing`);
      continue;
    }
    try {
      JSON.parse(readFileSync(p, 'utf8'));
    } catch {
      problems.push(`${f} is not valid JSON`);
    }
  }
  const onnxDir = path.join(dir, 'onnx');
  const models = existsSync(onnxDir) ? readdirSync(onnxDir).filter((f) => f.endsWith('.onnx')) : [];
  if (models.length === 0) problems.push('onnx/model.onnx is missing');
  return problems;
}

export async function loadTransformersEmbedder(modelDir: string): Promise<Embedder> {
  const dir = path.resolve(modelDir);
  const problems = checkModelDir(dir);
  const fail = (why: string): Error => new Error(`EMBEDDING_MODEL_DIR=${modelDir} cannot be used with EMBEDDER=transformers: ${why}`);
  if (problems.length > 0) throw fail(problems.join('; '));
  let extractor: (text: string, opts: { pooling: 'mean'; normalize: boolean }) => Promise<{ data: Float32Array | number[]; dims: number[] }>;
  let dispose: (() => Promise<void>) | undefined;
  try {
    const hf = await import('@huggingface/transformers');
    hf.env.allowRemoteModels = false;
    hf.env.allowLocalModels = true;
    // No file cache: nothing is written to disk, and no file of an earlier directory is reused.
    hf.env.useFSCache = false;
    hf.env.useBrowserCache = false;
    hf.env.localModelPath = path.dirname(dir) + path.sep;
    const model = onnxFile(dir);
    const pipe = await hf.pipeline('feature-extraction', path.basename(dir), { local_files_only: true, dtype: 'fp32', model_file_name: model });
    extractor = pipe as unknown as typeof extractor;
    dispose = () => (pipe as unknown as { dispose(): Promise<void> }).dispose();
  } catch (err) {
    throw fail(`the model did not load (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`);
  }
  const probe = await extractor('probe', { pooling: 'mean', normalize: true }).catch((err: unknown) => {
    throw fail(`the model did not run (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`);
  });
  const dims = probe.dims[probe.dims.length - 1]!;
  if (!Number.isInteger(dims) || dims < 1) throw fail('the model returned no embedding');
  return {
    kind: 'transformers',
    dims,
    async embed(text: string): Promise<EmbeddedText> {
      const out = await extractor(text, { pooling: 'mean', normalize: true });
      const tokens = tokenize(text);
      return { vector: Float32Array.from(out.data), features: lexicalFeatures(tokens), fingerprint: fingerprint(tokens.all, tokens.symbols) };
    },
    verify: hardRulesVerify,
    close: dispose,
  };
}

/** transformers.js names the file by a suffix: model.onnx -> "model", model_quantized.onnx needs dtype q8. */
function onnxFile(dir: string): string {
  const files = readdirSync(path.join(dir, 'onnx')).filter((f) => f.endsWith('.onnx'));
  const plain = files.find((f) => f === 'model.onnx') ?? files[0]!;
  return plain.replace(/\.onnx$/, '');
}
