/**
 * API-09 request and response schemas (CONTRACT.md §5): the single source of the validator and
 * the OpenAPI document.
 */
import { Type, type Static } from '@sinclair/typebox';

/** `prompt` bound: 512 KiB of UTF-8 (the schema bounds characters, the route checks bytes). */
export const MAX_PROMPT_BYTES = 512 * 1024;

export const LevelSchema = Type.Union([Type.Literal('safe'), Type.Literal('balanced'), Type.Literal('aggressive')], {
  default: 'balanced',
  description:
    'safe: whitespace, markup, duplicates only; balanced: + filler, disfluencies, verbose phrases, repeated instructions; aggressive: + low-information words in prose',
});
export const EncodingSchema = Type.Union([Type.Literal('o200k_base'), Type.Literal('cl100k_base')], {
  default: 'o200k_base',
  description: 'BPE encoding the token counts are measured in',
});

export const SlimRequest = Type.Object(
  {
    prompt: Type.String({ maxLength: MAX_PROMPT_BYTES, description: 'The text to compress (at most 512 KiB of UTF-8)' }),
    level: Type.Optional(LevelSchema),
    encoding: Type.Optional(EncodingSchema),
  },
  { examples: [{ prompt: 'Could you please summarize, in order to brief the team, the report below?', level: 'balanced' }] },
);
export type SlimRequest = Static<typeof SlimRequest>;

export const SlimResponse = Type.Object({
  status: Type.Union([Type.Literal('COMPRESSED'), Type.Literal('UNCHANGED')], { description: 'UNCHANGED: nothing could be removed (compressed_content is the prompt)' }),
  reduction_percent: Type.String({ pattern: '^\\d{1,3}\\.\\d%$', description: 'tokens_saved / original_tokens, one decimal, e.g. "34.2%"' }),
  tokens_saved: Type.Integer({ minimum: 0 }),
  original_tokens: Type.Integer({ minimum: 0 }),
  compressed_tokens: Type.Integer({ minimum: 0 }),
  compressed_content: Type.String(),
  level: LevelSchema,
  encoding: EncodingSchema,
});
