/**
 * The IBAN registry as a data table: every country of the SWIFT IBAN Registry with its IBAN length
 * and BBAN structure in the registry's own notation (n = digits, a = upper-case letters,
 * c = alphanumeric, `!` = fixed length), followed by the countries whose national banks issue
 * IBANs that SWIFT has not registered (national formats, `registry: 'national'`).
 *
 * Source: SWIFT, "IBAN Registry", ISO 13616-1 registration authority,
 * https://www.swift.com/standards/data-standards/iban-international-bank-account-number
 * Release 103 (September 2026): 89 countries. Transcribed by hand from the registry's country entries
 * (release 98 added OM and YE, release 99 HN, release 101 re-listed RU; release 102 renamed
 * countries and changed bank/branch positions only; release 103 made Brazil's 8-character bank
 * identifier alphanumeric, 8!n → 8!c, as Brazil's CNPJ-based ISPB codes become alphanumeric), and
 * cross-checked against python-stdnum `stdnum/iban.dat` and ibantools 4.5.4 `countrySpecs`.
 *
 * `territories` are ISO 3166 codes the registry folds into a country's entry ("includes"): an
 * IBAN may carry the territory's code with the parent's structure (e.g. GP, RE under FR), and a
 * BIC of the territory or of the parent is consistent with either (see bic.ts).
 */

export const IBAN_REGISTRY_SOURCE = {
  name: 'SWIFT IBAN Registry (ISO 13616-1)',
  release: 'Release 103, September 2026',
  url: 'https://www.swift.com/standards/data-standards/iban-international-bank-account-number',
} as const;

/** Where a country's IBAN format comes from: the SWIFT registry or a published national format. */
export type IbanRegistryKind = 'swift' | 'national';

export interface RegistryEntry {
  /** ISO 3166-1 alpha-2 code of the registry entry. */
  readonly country: string;
  /** Total IBAN length, electronic format. */
  readonly length: number;
  /** BBAN structure in registry notation, e.g. `4!n4!n12!c`. */
  readonly bban: string;
  /** Whether the country is in the SEPA scheme (informational). */
  readonly sepa: boolean;
  /** `swift`: in the SWIFT registry; `national`: a national format outside it. */
  readonly registry: IbanRegistryKind;
  /** The documents the length and structure were taken from and cross-checked against. */
  readonly source: string;
  readonly territories?: readonly string[];
}

const SWIFT_SOURCE = `SWIFT IBAN Registry ${IBAN_REGISTRY_SOURCE.release}; cross-checked: python-stdnum iban.dat, ibantools 4.5.4`;

// country, length, BBAN structure, SEPA
const TABLE = `
AD 24 4!n4!n12!c S
AE 23 3!n16!n -
AL 28 8!n16!c -
AT 20 5!n11!n S
AZ 28 4!a20!c -
BA 20 3!n3!n8!n2!n -
BE 16 3!n7!n2!n S
BG 22 4!a4!n2!n8!c S
BH 22 4!a14!c -
BI 27 5!n5!n11!n2!n -
BR 29 8!c5!n10!n1!a1!c -
BY 28 4!c4!n16!c -
CH 21 5!n12!c S
CR 22 4!n14!n -
CY 28 3!n5!n16!c S
CZ 24 4!n6!n10!n S
DE 22 8!n10!n S
DJ 27 5!n5!n11!n2!n -
DK 18 4!n9!n1!n S
DO 28 4!c20!n -
EE 20 2!n14!n S
EG 29 4!n4!n17!n -
ES 24 4!n4!n1!n1!n10!n S
FI 18 3!n11!n S
FK 18 2!a12!n -
FO 18 4!n9!n1!n -
FR 27 5!n5!n11!c2!n S
GB 22 4!a6!n8!n S
GE 22 2!a16!n -
GI 23 4!a15!c S
GL 18 4!n9!n1!n -
GR 27 3!n4!n16!c S
GT 28 4!c20!c -
HN 28 4!a20!n -
HR 21 7!n10!n S
HU 28 3!n4!n1!n15!n1!n S
IE 22 4!a6!n8!n S
IL 23 3!n3!n13!n -
IQ 23 4!a3!n12!n -
IS 26 4!n2!n6!n10!n S
IT 27 1!a5!n5!n12!c S
JO 30 4!a4!n18!c -
KW 30 4!a22!c -
KZ 20 3!n13!c -
LB 28 4!n20!c -
LC 32 4!a24!c -
LI 21 5!n12!c S
LT 20 5!n11!n S
LU 20 3!n13!c S
LV 21 4!a13!c S
LY 25 3!n3!n15!n -
MC 27 5!n5!n11!c2!n S
MD 24 2!c18!c S
ME 22 3!n13!n2!n S
MK 19 3!n10!c2!n S
MN 20 4!n12!n -
MR 27 5!n5!n11!n2!n -
MT 31 4!a5!n18!c S
MU 30 4!a2!n2!n12!n3!n3!a -
NI 28 4!a20!n -
NL 18 4!a10!n S
NO 15 4!n6!n1!n S
OM 23 3!n16!c -
PK 24 4!a16!c -
PL 28 8!n16!n S
PS 29 4!a21!c -
PT 25 4!n4!n11!n2!n S
QA 29 4!a21!c -
RO 24 4!a16!c S
RS 22 3!n13!n2!n -
RU 33 9!n5!n15!c -
SA 24 2!n18!c -
SC 31 4!a2!n2!n16!n3!a -
SD 18 2!n12!n -
SE 24 3!n16!n1!n S
SI 19 5!n8!n2!n S
SK 24 4!n6!n10!n S
SM 27 1!a5!n5!n12!c S
SO 23 4!n3!n12!n -
ST 25 4!n4!n11!n2!n -
SV 28 4!a20!n -
TL 23 3!n14!n2!n -
TN 24 2!n3!n13!n2!n -
TR 26 5!n1!n16!c -
UA 29 6!n19!c -
VA 22 3!n15!n S
VG 24 4!a16!n -
XK 20 4!n10!n2!n -
YE 30 4!a4!n18!c -
`;

/** Territories the registry includes in a country's entry (IBAN may carry either code). */
const TERRITORIES: Readonly<Record<string, readonly string[]>> = {
  FR: ['GF', 'GP', 'MQ', 'RE', 'PF', 'TF', 'YT', 'NC', 'BL', 'MF', 'PM', 'WF'],
  FI: ['AX'],
  GB: ['IM', 'JE', 'GG'],
};

/**
 * National IBAN formats outside the SWIFT registry: countries whose central bank publishes an IBAN
 * format that SWIFT has not (yet) registered. Each row was read from at least two independent
 * validators' format tables and checked against their example IBANs:
 *   IT = ibantools 4.5.4 `countrySpecs` (entries without `IBANRegistry`);
 *   PI = php-iban `registry.txt` (rows with swift_official = 0);
 *   SW = schwifty `tests/test_iban.py` (its example IBANs of these countries, i.e. the format schwifty accepts).
 * Where they differ, the row says why the chosen structure holds. UEMOA countries (BCEAO: BF BJ CI
 * GW ML NE SN TG): the 5-character bank code starts with the country's letter code, one letter in
 * the older codes (php-iban, ibantools' CI, "A1231…") and two letters in the current ones
 * ("SN010…", schwifty, BCEAO), so the first two positions are 2!c and the rest digits.
 * php-iban's older DZ (24) and BF (27) lengths are superseded: the other two sources and every
 * published example use 26 and 28.
 */
const NATIONAL_TABLE = `
AO 25 21!n        IT,PI,SW
BF 28 2!c22!n     IT,SW (UEMOA)
BJ 28 2!c22!n     IT,PI,SW (UEMOA)
CF 27 5!n5!n11!n2!n IT,PI
CG 27 5!n5!n11!n2!n IT,PI,SW
CI 28 2!c22!n     IT,PI,SW (UEMOA)
CM 27 5!n5!n11!n2!n IT,PI,SW
CV 25 21!n        IT,PI,SW
DZ 26 22!n        IT,SW
GA 27 5!n5!n11!n2!n IT,PI,SW
GQ 27 5!n5!n11!n2!n IT,PI,SW
GW 25 2!c19!n     IT,PI,SW (UEMOA)
IR 26 22!n        IT,PI,SW
KM 27 5!n5!n11!n2!n IT,PI,SW
MA 28 24!n        IT,PI,SW
MG 27 23!n        IT,PI,SW
ML 28 2!c22!n     IT,PI,SW (UEMOA)
MZ 25 21!n        IT,PI,SW
NE 28 2!c22!n     IT,PI,SW (UEMOA)
SN 28 2!c22!n     IT,PI,SW (UEMOA)
TD 27 5!n5!n11!n2!n IT,PI,SW
TG 28 2!c22!n     IT,PI,SW (UEMOA)
`;

const NATIONAL_SOURCE_NAMES: Readonly<Record<string, string>> = { IT: 'ibantools 4.5.4', PI: 'php-iban registry.txt', SW: 'schwifty tests' };

export const IBAN_REGISTRY: readonly RegistryEntry[] = Object.freeze([
  ...TABLE.trim()
    .split('\n')
    .map((line): RegistryEntry => {
      const [country, length, bban, sepa] = line.trim().split(/\s+/) as [string, string, string, string];
      const territories = TERRITORIES[country];
      return Object.freeze({ country, length: Number(length), bban, sepa: sepa === 'S', registry: 'swift' as const, source: SWIFT_SOURCE, ...(territories ? { territories } : {}) });
    }),
  ...NATIONAL_TABLE.trim()
    .split('\n')
    .map((line): RegistryEntry => {
      const [country, length, bban, sources] = line.trim().split(/\s+/) as [string, string, string, string];
      const source = `national format; ${sources.split(',').map((k) => NATIONAL_SOURCE_NAMES[k]).join(', ')}`;
      return Object.freeze({ country, length: Number(length), bban, sepa: false, registry: 'national' as const, source });
    }),
]);
