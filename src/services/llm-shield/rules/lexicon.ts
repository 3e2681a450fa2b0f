/**
 * Lexical categories shared by the token-window rule families. Words are stored folded (lower
 * case, no diacritics); `tokens.ts` also tries the stem without -s/-es/-ed/-d/-ing/-ly, so lists
 * hold base forms plus irregular and foreign inflections.
 */
import { buildLexicon, type Lexicon } from '../tokens.ts';
export { C, type WordList } from './categories.ts';
import { OVERRIDE_WORDS } from './override.ts';
import { EXTRACTION_WORDS } from './extraction.ts';
import { JAILBREAK_WORDS } from './jailbreak.ts';
import { EXFILTRATION_WORDS } from './exfiltration.ts';

/** Built once per shield instance (boot); read-only afterwards. */
export function createLexicon(): Lexicon {
  return buildLexicon([...OVERRIDE_WORDS, ...EXTRACTION_WORDS, ...JAILBREAK_WORDS, ...EXFILTRATION_WORDS]);
}
