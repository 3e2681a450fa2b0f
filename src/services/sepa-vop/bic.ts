/**
 * BIC (ISO 9362): structure and consistency of its country with the IBAN's.
 *
 *   AAAA BB CC [DDD]   party prefix (4 alphanumerics, ISO 9362:2014), country (ISO 3166-1
 *                      alpha-2), location (2 alphanumerics), optional branch (3 alphanumerics)
 */
import { IBAN_REGISTRY } from './registry.ts';

/** ISO 3166-1 alpha-2 codes, plus XK (Kosovo, used by SWIFT and the IBAN registry). */
const ISO_3166 = new Set(
  (
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
    'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
    'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP ' +
    'KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT ' +
    'MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW ' +
    'SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG ' +
    'UM US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA ZM ZW'
  ).split(' '),
);

/** BIC country → the group of countries whose IBANs it may serve (registry "includes", plus DK's islands). */
function buildFamilies(): ReadonlyMap<string, ReadonlySet<string>> {
  const families = new Map<string, Set<string>>();
  const join = (codes: readonly string[]): void => {
    const group = new Set(codes);
    for (const c of codes) families.set(c, group);
  };
  for (const entry of IBAN_REGISTRY) if (entry.territories) join([entry.country, ...entry.territories]);
  // Faroe and Greenland accounts are Danish banking-law accounts served by Danish banks too.
  join(['DK', 'FO', 'GL']);
  return families;
}
const FAMILIES = buildFamilies();

export interface BicCheck {
  /** Normalised BIC (upper case, spaces removed). */
  bic: string;
  valid: boolean;
  /** Why not: `INVALID_BIC_FORMAT`, `UNKNOWN_BIC_COUNTRY`, `BIC_COUNTRY_MISMATCH`. */
  error?: 'INVALID_BIC_FORMAT' | 'UNKNOWN_BIC_COUNTRY' | 'BIC_COUNTRY_MISMATCH';
}

const BIC_SHAPE = /^[A-Z0-9]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/;

/** Upper case, spaces removed. */
export function normalizeBic(raw: string): string {
  return raw.replace(/\s+/g, '').toUpperCase();
}

/** True when a BIC of `bicCountry` may hold an account whose IBAN carries `ibanCountry`. */
export function bicCountryConsistent(bicCountry: string, ibanCountry: string): boolean {
  if (bicCountry === ibanCountry) return true;
  return FAMILIES.get(ibanCountry)?.has(bicCountry) ?? false;
}

/**
 * Checks a BIC's structure and, when `ibanCountry` is given, that its country fits the IBAN's
 * (a French-territory IBAN such as GP or RE with an FR BIC is consistent, and the reverse).
 * @example checkBic('bnpa fr pp xxx', 'GP') // { bic: 'BNPAFRPPXXX', valid: true }
 */
export function checkBic(raw: string, ibanCountry?: string): BicCheck {
  const bic = normalizeBic(raw);
  if (!BIC_SHAPE.test(bic)) return { bic, valid: false, error: 'INVALID_BIC_FORMAT' };
  const country = bic.slice(4, 6);
  if (!ISO_3166.has(country)) return { bic, valid: false, error: 'UNKNOWN_BIC_COUNTRY' };
  if (ibanCountry !== undefined && !bicCountryConsistent(country, ibanCountry)) return { bic, valid: false, error: 'BIC_COUNTRY_MISMATCH' };
  return { bic, valid: true };
}

/** The institution + country + location part (BIC8): a BIC11 ending in XXX names the same office. */
export function bic8(bic: string): string {
  return bic.slice(0, 8);
}
