/**
 * IBAN validation (ISO 13616-1): normalisation, country, length, BBAN structure, ISO 7064 MOD 97-10
 * and national check digits. Pure and allocation-light: every registry entry is compiled once at
 * module load into a per-position character-class table.
 *
 * The signature of `validateIban` is shared with API-08 (shield): keep it stable.
 */
import { mod97, NATIONAL_CHECKS } from './national-checks.ts';
import { IBAN_REGISTRY, type IbanRegistryKind } from './registry.ts';

/** Codes of the checks `validateIban` can fail, in the order they are run. */
export const IBAN_ERROR_CODES = ['UNSUPPORTED_COUNTRY', 'INVALID_LENGTH', 'INVALID_STRUCTURE', 'INVALID_CHECKSUM', 'INVALID_NATIONAL_CHECK_DIGITS'] as const;
export type IbanErrorCode = (typeof IBAN_ERROR_CODES)[number];

export interface IbanValidation {
  /** True when every check passed. */
  valid: boolean;
  /** Electronic format: separators and an `IBAN` prefix removed, upper case. */
  iban: string;
  /** First two characters of the electronic format ('' when absent). */
  country: string;
  /** Every failed check (IbanErrorCode values), in check order. */
  errors: string[];
  /** Where the country's format comes from: `swift` registry, `national` format, or null (no IBAN format). */
  registry: IbanRegistryKind | null;
}

const CLASS_DIGIT = 1;
const CLASS_ALPHA = 2;
const CLASS_ALNUM = 3;

interface CompiledCountry {
  readonly length: number;
  /** Character class per BBAN position. */
  readonly classes: Uint8Array;
  readonly national: ((bban: string) => boolean) | undefined;
  readonly registry: IbanRegistryKind;
}

function compileBban(spec: string): Uint8Array {
  const out: number[] = [];
  for (const m of spec.matchAll(/(\d+)!?([nac])/g)) {
    const cls = m[2] === 'n' ? CLASS_DIGIT : m[2] === 'a' ? CLASS_ALPHA : CLASS_ALNUM;
    for (let i = 0; i < Number(m[1]); i++) out.push(cls);
  }
  return Uint8Array.from(out);
}

function compileRegistry(): ReadonlyMap<string, CompiledCountry> {
  const map = new Map<string, CompiledCountry>();
  for (const entry of IBAN_REGISTRY) {
    const classes = compileBban(entry.bban);
    if (classes.length + 4 !== entry.length) throw new Error(`IBAN registry: ${entry.country} structure does not add up to ${entry.length}`);
    const national = NATIONAL_CHECKS.get(entry.country);
    const compiled: CompiledCountry = { length: entry.length, classes, national, registry: entry.registry };
    map.set(entry.country, compiled);
    for (const t of entry.territories ?? []) map.set(t, compiled);
  }
  return map;
}

/** Registry countries and territories → compiled structure (read-only after load). */
const COUNTRIES = compileRegistry();

/** True when `country` (ISO 3166 alpha-2, upper case) issues IBANs: SWIFT registry or national format. */
export function isIbanCountry(country: string): boolean {
  return COUNTRIES.has(country);
}

/**
 * Separators people paste: spaces (incl. no-break and thin), tabs, hyphens and dashes, dots, and
 * the punctuation that printed account numbers use to group or label their parts: slashes,
 * parentheses, colons, semicolons ("FR76 / 1213 / …", "…49649/22", "AO (060) …", "PT: 50 …").
 * None of them can occur in an IBAN (ISO 13616: A–Z0–9 only), so removing them cannot turn one
 * IBAN into another: a symbol typed instead of a character still leaves the IBAN a character
 * short. Other symbols (#, *, +, ,) stay an error.
 */
const SEPARATORS = /[\s\u00a0\u2007\u202f\u200b.\-‐‑–/():;]+/g;
const IBAN_PREFIX = /^IBAN:?/;

/**
 * Electronic format of a pasted IBAN: separators removed, upper case, a leading `IBAN`/`IBAN:` dropped.
 * @example normalizeIban('iban de89 3704-0044.0532 0130 00') // 'DE89370400440532013000'
 */
export function normalizeIban(raw: string): string {
  return raw.replace(SEPARATORS, '').toUpperCase().replace(IBAN_PREFIX, '');
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
function isUpper(c: number): boolean {
  return c >= 65 && c <= 90;
}

/**
 * Validates an IBAN and lists every failed check, not only the first.
 *
 * Checks, in order: `UNSUPPORTED_COUNTRY` (no IBAN format: neither in the SWIFT registry nor a
 * published national format), `INVALID_LENGTH`,
 * `INVALID_STRUCTURE` (check digits not numeric, a character outside A-Z0-9, or the BBAN not in
 * the registry's structure), `INVALID_CHECKSUM` (ISO 7064 MOD 97-10 over the rearranged IBAN is
 * not 1, or check digits 00, 01 or 99) and `INVALID_NATIONAL_CHECK_DIGITS`. Country-dependent
 * checks are skipped when the country is unknown; national digits are checked only when length
 * and structure are right (their positions depend on them).
 *
 * @example validateIban('GB82 WEST 1234 5698 7654 32')
 *   // { valid: true, iban: 'GB82WEST12345698765432', country: 'GB', errors: [], registry: 'swift' }
 */
export function validateIban(raw: string): IbanValidation {
  const iban = normalizeIban(raw);
  const len = iban.length;
  const errors: string[] = [];
  const country = len >= 2 ? iban.slice(0, 2) : iban;
  const spec = COUNTRIES.get(country);

  // Shape common to every IBAN: 2 letters, 2 digits, alphanumerics only.
  let alnum = true;
  for (let i = 0; i < len; i++) {
    const c = iban.charCodeAt(i);
    if (!isDigit(c) && !isUpper(c)) {
      alnum = false;
      break;
    }
  }
  const checkDigitsNumeric = len >= 4 && isDigit(iban.charCodeAt(2)) && isDigit(iban.charCodeAt(3));
  const countryLetters = len >= 2 && isUpper(iban.charCodeAt(0)) && isUpper(iban.charCodeAt(1));

  if (spec === undefined) {
    if (countryLetters) errors.push('UNSUPPORTED_COUNTRY');
    if (!countryLetters || !alnum || !checkDigitsNumeric) errors.push('INVALID_STRUCTURE');
    if (!mod97Passes(iban, alnum, checkDigitsNumeric)) errors.push('INVALID_CHECKSUM');
    return { valid: false, iban, country, errors, registry: null };
  }

  const lengthOk = len === spec.length;
  if (!lengthOk) errors.push('INVALID_LENGTH');

  let structureOk = alnum && checkDigitsNumeric;
  if (structureOk) {
    // Compare as far as both the input and the structure go; a length error is already reported.
    const classes = spec.classes;
    const n = Math.min(len - 4, classes.length);
    for (let i = 0; i < n; i++) {
      const c = iban.charCodeAt(i + 4);
      const cls = classes[i];
      if ((cls === CLASS_DIGIT && !isDigit(c)) || (cls === CLASS_ALPHA && !isUpper(c))) {
        structureOk = false;
        break;
      }
    }
  }
  if (!structureOk) errors.push('INVALID_STRUCTURE');

  if (!mod97Passes(iban, alnum, checkDigitsNumeric)) errors.push('INVALID_CHECKSUM');

  if (lengthOk && structureOk && spec.national !== undefined && !spec.national(iban.slice(4))) {
    errors.push('INVALID_NATIONAL_CHECK_DIGITS');
  }
  return { valid: errors.length === 0, iban, country, errors, registry: spec.registry };
}

/** ISO 13616 check: BBAN + country + check digits ≡ 1 (mod 97); check digits 00, 01 and 99 are never issued. */
function mod97Passes(iban: string, alnum: boolean, checkDigitsNumeric: boolean): boolean {
  if (!alnum || !checkDigitsNumeric || iban.length < 5) return false;
  const cd = iban.slice(2, 4);
  if (cd === '00' || cd === '01' || cd === '99') return false;
  // Rearranged number without building it: continue the remainder of the BBAN with the first four characters.
  let rem = mod97(iban, 4);
  for (let i = 0; i < 4; i++) {
    const c = iban.charCodeAt(i);
    rem = isDigit(c) ? (rem * 10 + (c - 48)) % 97 : (rem * 100 + (c - 55)) % 97;
  }
  return rem === 1;
}
