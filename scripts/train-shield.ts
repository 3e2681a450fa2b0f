/**
 * Retrains the API-08 learned detector (`npm run train:shield -- --data DIR`).
 *
 * Reads DIR/prompts_train.jsonl (the training corpus; it stays outside the repository, its terms
 * do not allow redistribution) and the development file eval/data/shield/prompts_dev.jsonl, and
 * writes src/services/llm-shield/model/shield.bin. Deterministic: the same files give the same
 * bytes (the SHA-256 printed at the end).
 *
 * Options: `--data DIR` (required), `--dev FILE` (default eval/data/shield/prompts_dev.jsonl;
 * `--dev none` trains on DIR alone), `--out FILE`.
 */
import { createHash } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createShield } from '../src/services/llm-shield/core.ts';
import { MODEL_FILE } from '../src/services/llm-shield/model/detector.ts';
import { encode, fit, readPromptFile, toRows, type Skipped } from '../src/services/llm-shield/model/train.ts';

const args = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const here = path.dirname(fileURLToPath(import.meta.url));
const data = opt('--data');
if (data === undefined) {
  console.error('usage: npm run train:shield -- --data DIR   (DIR holds prompts_train.jsonl)');
  process.exit(2);
}
const trainFile = path.join(data, 'prompts_train.jsonl');
if (!existsSync(trainFile)) {
  console.error(`no prompts_train.jsonl in ${data}`);
  process.exit(2);
}
const devArg = opt('--dev') ?? path.resolve(here, '../eval/data/shield/prompts_dev.jsonl');
const out = opt('--out') ?? fileURLToPath(MODEL_FILE);

const t0 = performance.now();
const skipped: Skipped = {};
const records = [...readPromptFile(trainFile, skipped), ...(devArg === 'none' ? [] : readPromptFile(devArg, skipped))];
const shield = createShield({ model: null });
const rows = toRows(shield, records);
const t1 = performance.now();
const fitted = fit(rows);
const buf = encode(fitted, rows);
writeFileSync(out, buf);
const t2 = performance.now();
const skippedText = Object.entries(skipped).map(([k, v]) => `${v} ${k}`).join(', ');
console.log(`${rows.length} records (${rows.filter((r) => r.y === 1).length} injection)${skippedText ? `; skipped: ${skippedText}` : ''}`);
console.log(`features ${((t1 - t0) / 1000).toFixed(1)} s, training ${((t2 - t1) / 1000).toFixed(1)} s`);
console.log(`wrote ${out}: ${buf.length} bytes, sha256 ${createHash('sha256').update(buf).digest('hex')}`);
