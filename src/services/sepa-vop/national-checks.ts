/**
 * National check digits inside the BBAN, for the countries that define one algorithm for every
 * account (countries whose check depends on the bank, such as Germany or the Netherlands, are
 * left to the ISO 13616 mod-97 check). Each function takes the BBAN in electronic format, already
 * known to have the registry's length and structure, and returns true when the digits agree.
 *
 * References: Banque de France RIB key; CIN (Italian Banking Association, CIN/ABI/CAB);
 * Spanish CCC (Orden EHA/2899/2011 annex); Portuguese NIB (Banco de Portugal, ISO 7064 MOD 97-10);
 * Norwegian/Estonian/Finnish/Polish/Hungarian/Albanian weighted sums; ISO 7064 MOD 11,10 (Croatia);
 * Czech and Slovak CNB/NBS decree 169/2011 weights; ISO 7064 MOD 97-10 over the BBAN (SI, ME, MK,
 * RS, BA, TL) and the RIB-style key (BBAN ≡ 0 mod 97) of MR and TN.
 */

/** Remainder mod 97 of an alphanumeric string (letters A=10 … Z=35), without big integers. */
export function mod97(s: string, from = 0, to = s.length): number {
  let rem = 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) rem = (rem * 10 + (c - 48)) % 97;
    else if (c >= 65 && c <= 90) rem = (rem * 100 + (c - 55)) % 97;
    else return -1;
  }
  return rem;
}

function digit(s: string, i: number): number {
  return s.charCodeAt(i) - 48;
}

/** Weighted sum of the digits s[from..from+weights.length). */
function weighted(s: string, from: number, weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += digit(s, from + i) * weights[i]!;
  return sum;
}

/** Check digit = (10 - sum mod 10) mod 10 (the "7-3-1" and "3-9-7-1" families). */
function mod10Complement(sum: number): number {
  return (10 - (sum % 10)) % 10;
}

/** ISO 7064 MOD 11,10 (Croatia): true when the last digit of s[from..to) checks. */
function iso7064Mod1110(s: string, from: number, to: number): boolean {
  let p = 10;
  for (let i = from; i < to - 1; i++) {
    let t = (digit(s, i) + p) % 10;
    if (t === 0) t = 10;
    p = (t * 2) % 11;
  }
  return (11 - p) % 10 === digit(s, to - 1);
}

/** Belgium: the last two digits are the first ten mod 97 (97 when the remainder is 0). */
function belgium(b: string): boolean {
  const r = mod97(b, 0, 10);
  return (r === 0 ? 97 : r) === digit(b, 10) * 10 + digit(b, 11);
}

/**
 * France and Monaco: the RIB key. Letters of the account number map to digits (A,J→1; B,K,S→2;
 * … I,R,Z→9), then bank·branch·account·key ≡ 0 (mod 97).
 */
const RIB_LETTER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const RIB_VALUE = '12345678912345678923456789';
function ribKey(b: string): boolean {
  let rem = 0;
  for (let i = 0; i < b.length; i++) {
    const c = b.charCodeAt(i);
    const d = c <= 57 ? c - 48 : RIB_VALUE.charCodeAt(RIB_LETTER.indexOf(b[i]!)) - 48;
    rem = (rem * 10 + d) % 97;
  }
  return rem === 0;
}

/** Italy and San Marino: the CIN letter over ABI, CAB and account (odd/even position tables). */
const CIN_ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];
function cin(b: string): boolean {
  let sum = 0;
  for (let i = 1; i < 23; i++) {
    const c = b.charCodeAt(i);
    const v = c <= 57 ? c - 48 : c - 65;
    // Positions are 1-based over the 22 characters after the CIN: odd ones use the table.
    sum += i % 2 === 1 ? CIN_ODD[v]! : v;
  }
  return b.charCodeAt(0) - 65 === sum % 26;
}

/** Spain: two CCC digits, mod 11 over "00"+bank+branch and over the account (10 and 11 → 1 and 0). */
const CCC_WEIGHTS = [1, 2, 4, 8, 5, 10, 9, 7, 3, 6];
function cccDigit(sum: number): number {
  const d = 11 - (sum % 11);
  return d === 11 ? 0 : d === 10 ? 1 : d;
}
function spain(b: string): boolean {
  const first = weighted(b, 0, CCC_WEIGHTS.slice(2));
  return cccDigit(first) === digit(b, 8) && cccDigit(weighted(b, 10, CCC_WEIGHTS)) === digit(b, 9);
}

/** ISO 7064 MOD 97-10 over the whole BBAN (its last two digits are the check). */
function bbanMod97Is1(b: string): boolean {
  return mod97(b) === 1;
}

/** RIB-style key of Mauritania and Tunisia: the whole BBAN ≡ 0 (mod 97). */
function bbanMod97Is0(b: string): boolean {
  return mod97(b) === 0;
}

/** Norway: MOD 11 with weights 5,4,3,2,7,6,5,4,3,2 (a remainder giving 10 is never issued). */
function norway(b: string): boolean {
  const r = weighted(b, 0, [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]) % 11;
  const d = r === 0 ? 0 : 11 - r;
  return d !== 10 && d === digit(b, 10);
}

/**
 * Finland and Åland: the Luhn (weights 2,1 from the right) check digit of the domestic account
 * number, which the BBAN carries in its 14-digit machine format. The domestic rule (Finance Finland,
 * "Finnish account number structure") has two short formats: bank groups 4 and 5 (savings,
 * cooperative and OP banks) fill the zeros after the 7th digit, all others after the 6th; both
 * become the same 14 digits, so the check over the BBAN is the same for every group. AX (Åland)
 * IBANs are Finnish accounts and take the same rule (registry territory of FI).
 * The rule covers the bank groups of the domestic standard: 1–6 and 8. Group 7 codes went to
 * payment and e-money institutions and foreign banks' branches (713 Citibank, 717 Bigbank,
 * 798, 799 Holvi, ...), many after Finland retired the domestic account number for IBAN in 2014;
 * their IBAN-only accounts need not end in a domestic Luhn digit, so the check does not judge
 * group 7: ISO 7064 mod-97 still does.
 */
function finland(b: string): boolean {
  if (b.charCodeAt(0) === 55 /* '7': outside the domestic bank groups */) return true;
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    let d = digit(b, 13 - i);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Estonia: 7-3-1 weights from the right over the account number (BBAN positions 3..15). */
function estonia(b: string): boolean {
  let sum = 0;
  const w = [7, 3, 1];
  for (let i = 14, k = 0; i >= 2; i--, k++) sum += digit(b, i) * w[k % 3]!;
  return mod10Complement(sum) === digit(b, 15);
}

/** Croatia: ISO 7064 MOD 11,10 on the bank code (7 digits) and on the account (10 digits). */
function croatia(b: string): boolean {
  return iso7064Mod1110(b, 0, 7) && iso7064Mod1110(b, 7, 17);
}

/** Czechia and Slovakia: the prefix (6) and the account (10) are each ≡ 0 (mod 11) under fixed weights. */
const CZ_WEIGHTS = [6, 3, 7, 9, 10, 5, 8, 4, 2, 1];
function czechSlovak(b: string): boolean {
  return weighted(b, 4, CZ_WEIGHTS.slice(4)) % 11 === 0 && weighted(b, 10, CZ_WEIGHTS) % 11 === 0;
}

/** Hungary: 9-7-3-1 weights; one check digit after bank+branch, one after the account (8 or 16 digits). */
const HU_WEIGHTS = [9, 7, 3, 1, 9, 7, 3, 1, 9, 7, 3, 1, 9, 7, 3, 1];
function hungary(b: string): boolean {
  if (weighted(b, 0, HU_WEIGHTS.slice(0, 8)) % 10 !== 0) return false;
  // A 16-digit account number is padded with eight zeros to the BBAN's 24 digits.
  const accountLength = b.endsWith('00000000') ? 8 : 16;
  return weighted(b, 8, HU_WEIGHTS.slice(0, accountLength)) % 10 === 0;
}

/** Poland: the eighth digit of the bank-branch number, weights 3,9,7,1,3,9,7. */
function poland(b: string): boolean {
  return mod10Complement(weighted(b, 0, [3, 9, 7, 1, 3, 9, 7])) === digit(b, 7);
}

/** Albania: the eighth digit of the bank-branch code, weights 9,7,3,1,9,7,3. */
function albania(b: string): boolean {
  return mod10Complement(weighted(b, 0, [9, 7, 3, 1, 9, 7, 3])) === digit(b, 7);
}

/** Country (or territory) → national check over its BBAN. */
export const NATIONAL_CHECKS: ReadonlyMap<string, (bban: string) => boolean> = new Map<string, (bban: string) => boolean>([
  ['BE', belgium],
  ['FR', ribKey],
  ['MC', ribKey],
  ['ES', spain],
  ['IT', cin],
  ['SM', cin],
  ['PT', bbanMod97Is1],
  ['NO', norway],
  ['FI', finland],
  ['EE', estonia],
  ['HR', croatia],
  ['CZ', czechSlovak],
  ['SK', czechSlovak],
  ['HU', hungary],
  ['PL', poland],
  ['SI', bbanMod97Is1],
  ['ME', bbanMod97Is1],
  ['MK', bbanMod97Is1],
  ['RS', bbanMod97Is1],
  ['BA', bbanMod97Is1],
  ['TL', bbanMod97Is1],
  ['AL', albania],
  ['MR', bbanMod97Is0],
  ['TN', bbanMod97Is0],
]);
