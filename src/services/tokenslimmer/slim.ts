/**
 * The API-09 operation on plain data: compress, count tokens before and after, report. Used inline
 * by the route for small prompts and by workers/tokenslimmer.ts for large ones.
 */
import { countTokens, countTokensPair, type Encoding } from '../../tokenizer/index.ts';
import { compressText, type Level } from './core.ts';

export interface SlimInput {
  readonly prompt: string;
  readonly level?: Level;
  readonly encoding?: Encoding;
}

export interface SlimResult {
  status: 'COMPRESSED' | 'UNCHANGED';
  reduction_percent: string;
  tokens_saved: number;
  original_tokens: number;
  compressed_tokens: number;
  compressed_content: string;
  level: Level;
  encoding: Encoding;
}

/**
 * Compresses `prompt` and measures the saving in BPE tokens. A rewrite that saves no token is not
 * worth its risk: the prompt is returned as it came, with status UNCHANGED. Both outcomes are
 * fixed points, so slimming `compressed_content` again gives UNCHANGED.
 *
 * @example slimPrompt({ prompt: 'Hello   world' }).compressed_content // 'Hello world'
 */
export function slimPrompt(input: SlimInput): SlimResult {
  const level = input.level ?? 'balanced';
  const encoding = input.encoding ?? 'o200k_base';
  const original = input.prompt;
  const compressed = compressText(original, level);
  // safe and balanced leave most lines and sentences as they were: the output is tokenised only
  // where it changed (exact segment sums, src/tokenizer). aggressive edits nearly every sentence,
  // where segment-wise counting costs more than it saves: both texts are counted whole.
  const [originalTokens, compressedTokens] = level === 'aggressive' ? countWhole(original, compressed, encoding) : countTokensPair(original, compressed, encoding);
  if (compressedTokens >= originalTokens) {
    return { status: 'UNCHANGED', reduction_percent: '0.0%', tokens_saved: 0, original_tokens: originalTokens, compressed_tokens: originalTokens, compressed_content: original, level, encoding };
  }
  const saved = originalTokens - compressedTokens;
  return {
    status: 'COMPRESSED',
    reduction_percent: `${((saved * 100) / originalTokens).toFixed(1)}%`,
    tokens_saved: saved,
    original_tokens: originalTokens,
    compressed_tokens: compressedTokens,
    compressed_content: compressed,
    level,
    encoding,
  };
}

function countWhole(original: string, compressed: string, encoding: Encoding): [number, number] {
  const n = countTokens(original, encoding);
  return [n, compressed === original ? n : countTokens(compressed, encoding)];
}
