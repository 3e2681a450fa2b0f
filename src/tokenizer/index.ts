/**
 * The gateway's one BPE token counter (o200k_base, cl100k_base), shared by API-01 and API-09.
 *
 * Tables load once, offline, from the installed package. Special-token strings such as
 * `<|endoftext|>` inside user text are counted as ordinary text (never refused): a prompt is data,
 * not a control sequence.
 *
 * Implementation: gpt-tokenizer (pure JS). bench/micro/tokenizer.ts compares it with js-tiktoken
 * and the WASM `tiktoken` on the same inputs (counts asserted identical first).
 */
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';

export type Encoding = 'o200k_base' | 'cl100k_base';

export const ENCODINGS: readonly Encoding[] = Object.freeze(['o200k_base', 'cl100k_base'] as const);

// Empty set: no special token is refused, all are tokenised as the plain text they are.
const PLAIN_TEXT = Object.freeze({ disallowedSpecial: new Set<string>() });

/**
 * Number of BPE tokens of `text` in `encoding`.
 *
 * @example countTokens('hello world', 'o200k_base') // 2
 */
export function countTokens(text: string, encoding: Encoding): number {
  if (text.length === 0) return 0;
  switch (encoding) {
    case 'o200k_base':
      return countO200k(text, PLAIN_TEXT);
    case 'cl100k_base':
      return countCl100k(text, PLAIN_TEXT);
    default:
      throw new RangeError(`unknown encoding: ${String(encoding)}`);
  }
}
