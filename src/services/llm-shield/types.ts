/** Plain data shared by the shield's rule families, decision and redaction. */
import type { Tokens } from './tokens.ts';

export const THREAT_TYPES = [
  'PROMPT_INJECTION_OVERRIDE',
  'INDIRECT_PROMPT_INJECTION',
  'JAILBREAK_ROLEPLAY',
  'SYSTEM_PROMPT_EXTRACTION',
  'DELIMITER_INJECTION',
  'ENCODED_PAYLOAD',
  'INVISIBLE_TEXT',
  'DATA_EXFILTRATION',
  'SSRF_DNS_REBINDING',
  'SECRET_LEAK',
  'PII_LEAK',
  'NONE',
] as const;
export type ThreatType = (typeof THREAT_TYPES)[number];

/** Who wrote the screened text (CONTRACT.md §5 API-08): a user, or content no user wrote. */
export const ORIGINS = ['user', 'external'] as const;
export type Origin = (typeof ORIGINS)[number];

/** Types that block the input (CONTRACT.md §5 API-08); SECRET_LEAK and PII_LEAK only redact. */
export const BLOCKING: ReadonlySet<ThreatType> = new Set(THREAT_TYPES.filter((t) => t !== 'SECRET_LEAK' && t !== 'PII_LEAK' && t !== 'NONE'));

export interface Finding {
  type: ThreatType;
  /** family.rule, e.g. `override.verb_scope_target`; never the matched text */
  rule: string;
  confidence: number;
  /** offsets into the original input_text (UTF-16 code units, end exclusive) */
  start: number;
  end: number;
}

/** A PII or secret span to replace in `sanitized_text`. `key` stays in memory only (numbering). */
export interface Redaction {
  readonly entity: string;
  readonly start: number;
  readonly end: number;
  readonly key: string;
}

/** Reports a finding over tokens [a, b]; the caller maps it to original offsets. */
export type Emit = (type: ThreatType, rule: string, confidence: number, a: number, b: number) => void;

/** Reports a finding over light-view characters [start, end) (rules/scripts.ts); the caller maps it. */
export type SpanEmit = (type: ThreatType, rule: string, confidence: number, start: number, end: number) => void;

/**
 * A rule family over the token windows of the fold view. `cats` is either the plain reading of
 * each token or its ROT13 reading, so one rule serves both.
 */
export type LexicalRule = (t: Tokens, cats: Uint32Array, emit: Emit) => void;
