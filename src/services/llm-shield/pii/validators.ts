/**
 * Checksum validators behind the PII detectors: a candidate is PII only when its check digits
 * hold, so order numbers and timestamps that merely look like cards or IDs are not redacted.
 * Every function takes the candidate as written and strips separators itself.
 */

export function digitsOnly(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) out += s[i];
  }
  return out;
}

/** Luhn (ISO/IEC 7812-1) over a digit string. */
export function luhn(d: string): boolean {
  let sum = 0;
  let dbl = false;
  for (let i = d.length - 1; i >= 0; i--) {
    let v = d.charCodeAt(i) - 48;
    if (dbl) {
      v *= 2;
      if (v > 9) v -= 9;
    }
    sum += v;
    dbl = !dbl;
  }
  return d.length > 0 && sum % 10 === 0;
}

/** Payment card: 12-19 digits (12 only for Maestro), a known issuer prefix (ISO/IEC 7812 IIN ranges) and Luhn. */
export function isPaymentCard(raw: string): boolean {
  const d = digitsOnly(raw);
  if (d.length < 12 || d.length > 19 || !luhn(d)) return false;
  const p2 = Number(d.slice(0, 2));
  const p3 = Number(d.slice(0, 3));
  const p4 = Number(d.slice(0, 4));
  if (d.length === 12) return p2 === 50 || (p2 >= 56 && p2 <= 69); // only Maestro issues 12 digits
  if (d[0] === '4') return d.length === 13 || d.length === 16 || d.length === 19; // Visa
  if ((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) return d.length === 16; // Mastercard
  if (p2 === 34 || p2 === 37) return d.length === 15; // Amex
  if (p4 === 6011 || p2 === 65 || (p3 >= 644 && p3 <= 649)) return d.length >= 16; // Discover
  if ((p4 >= 3528 && p4 <= 3589) || p4 === 1800 || p4 === 2131) return d.length >= 15; // JCB
  if ((p3 >= 300 && p3 <= 305) || p2 === 36 || p2 === 38 || p2 === 39 || p3 === 309) return d.length >= 14; // Diners
  if (p2 === 62) return d.length >= 16; // UnionPay
  if (p2 === 50 || (p2 >= 56 && p2 <= 69)) return d.length >= 12; // Maestro
  return false;
}

/** US SSN (SSA rules): area not 000/666/9xx, group not 00, serial not 0000. */
export function isUsSsn(raw: string): boolean {
  const d = digitsOnly(raw);
  if (d.length !== 9) return false;
  const area = d.slice(0, 3);
  return area !== '000' && area !== '666' && area[0] !== '9' && d.slice(3, 5) !== '00' && d.slice(5) !== '0000';
}

/** German tax id (Steuerliche Identifikationsnummer): ISO 7064 MOD 11,10 and the digit-repetition rule. */
export function isDeTaxId(raw: string): boolean {
  const d = digitsOnly(raw);
  if (d.length !== 11 || d[0] === '0') return false;
  const counts = new Array<number>(10).fill(0);
  for (let i = 0; i < 10; i++) counts[d.charCodeAt(i) - 48]!++;
  const repeated = counts.filter((c) => c >= 2);
  if (repeated.length !== 1 || repeated[0]! > 3) return false;
  let product = 10;
  for (let i = 0; i < 10; i++) {
    let sum = (d.charCodeAt(i) - 48 + product) % 10;
    if (sum === 0) sum = 10;
    product = (sum * 2) % 11;
  }
  let check = 11 - product;
  if (check === 10) check = 0;
  return check === d.charCodeAt(10) - 48;
}

/** French NIR (numéro de sécurité sociale): key = 97 - (number mod 97); Corsica 2A/2B per INSEE. */
export function isFrNir(raw: string): boolean {
  let s = '';
  for (let i = 0; i < raw.length; i++) if (raw[i] !== ' ' && raw[i] !== '.' && raw[i] !== '-') s += raw[i]!.toUpperCase();
  if (s.length !== 15) return false;
  let body = s.slice(0, 13);
  if (body.slice(5, 7) === '2A') body = body.slice(0, 5) + '19' + body.slice(7);
  else if (body.slice(5, 7) === '2B') body = body.slice(0, 5) + '18' + body.slice(7);
  if (digitsOnly(body).length !== 13 || digitsOnly(s.slice(13)).length !== 2) return false;
  const month = Number(body.slice(3, 5));
  if (!((month >= 1 && month <= 12) || (month >= 20 && month <= 42) || month >= 50)) return false;
  const key = 97 - Number(BigInt(body) % 97n);
  return key === Number(s.slice(13));
}

const CF_ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];

/** Italian codice fiscale (DM 23/12/1976): the 16th character is the check letter. */
export function isItCodiceFiscale(raw: string): boolean {
  const s = raw.toUpperCase();
  if (s.length !== 16) return false;
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    const c = s.charCodeAt(i);
    const v = c >= 48 && c <= 57 ? c - 48 : c - 65;
    if (v < 0 || v > 25) return false;
    sum += i % 2 === 0 ? CF_ODD[v]! : v;
  }
  return String.fromCharCode(65 + (sum % 26)) === s[15];
}

const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

/** Spanish DNI (8 digits + letter) and NIE (X/Y/Z + 7 digits + letter): mod 23 letter. */
export function isEsDniNie(raw: string): boolean {
  let s = '';
  for (let i = 0; i < raw.length; i++) if (raw[i] !== '-' && raw[i] !== ' ' && raw[i] !== '.') s += raw[i]!.toUpperCase();
  if (s.length !== 9) return false;
  const lead = 'XYZ'.indexOf(s[0]!);
  const num = lead >= 0 ? String(lead) + s.slice(1, 8) : s.slice(0, 8);
  if (digitsOnly(num).length !== 8) return false;
  return DNI_LETTERS[Number(num) % 23] === s[8];
}

/** Dutch BSN: the "11-proof" with weights 9..2 and -1. */
export function isNlBsn(raw: string): boolean {
  const d = digitsOnly(raw);
  if (d.length !== 9) return false;
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += (9 - i) * (d.charCodeAt(i) - 48);
  sum -= d.charCodeAt(8) - 48;
  return sum % 11 === 0 && sum !== 0;
}

const PESEL_WEIGHTS = [1, 3, 7, 9, 1, 3, 7, 9, 1, 3];

/** Polish PESEL: weighted checksum and a real birth date (month encodes the century). */
export function isPlPesel(raw: string): boolean {
  const d = digitsOnly(raw);
  if (d.length !== 11) return false;
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += PESEL_WEIGHTS[i]! * (d.charCodeAt(i) - 48);
  if ((10 - (sum % 10)) % 10 !== d.charCodeAt(10) - 48) return false;
  const month = Number(d.slice(2, 4)) % 20;
  const day = Number(d.slice(4, 6));
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

/** Belgian national register number: 97 - (first 9 digits mod 97), with the 2000+ variant. */
export function isBeNationalNumber(raw: string): boolean {
  const d = digitsOnly(raw);
  if (d.length !== 11) return false;
  const check = Number(d.slice(9));
  const base = Number(d.slice(0, 9));
  return 97 - (base % 97) === check || 97 - ((2_000_000_000 + base) % 97) === check;
}
