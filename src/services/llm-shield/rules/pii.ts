/**
 * PII (PII_LEAK) with validation, not bare patterns: RE2 finds candidates in the light view and a
 * validator decides. Cards need an issuer prefix and Luhn, IBANs pass the API-138 core
 * (ISO 13616 mod-97 and national check digits), phone numbers pass libphonenumber-js (or carry a
 * phone label such as "Phone:"/"Fax" next to a plausible local number), IPs parse, national IDs
 * pass their checksum; weak-checksum IDs (9/11 plain digits) also need their name nearby.
 */
import RE2 from 're2';
import ipaddr from 'ipaddr.js';
import { createPhonePattern, findPhones, foldDigits } from './phone.ts';
import { validateIban } from '../../sepa-vop/iban.ts';
import {
  digitsOnly,
  isBeNationalNumber,
  isDeTaxId,
  isEsDniNie,
  isFrNir,
  isItCodiceFiscale,
  isNlBsn,
  isPaymentCard,
  isPlPesel,
  isUsSsn,
  luhn,
} from '../pii/validators.ts';

export type PiiEntity = 'EMAIL' | 'PHONE_NUMBER' | 'CREDIT_CARD' | 'IBAN' | 'IP_ADDRESS' | 'US_SSN' | 'NATIONAL_ID';

export interface PiiHit {
  readonly entity: PiiEntity;
  readonly rule: string;
  readonly confidence: number;
  /** light-view offsets */
  readonly start: number;
  readonly end: number;
  /** canonical value, used in memory only to number equal values alike */
  readonly key: string;
}

export interface PiiPatterns {
  /** all candidate patterns in one RE2.Set: one pass says which families can match at all */
  readonly set: InstanceType<typeof RE2.Set>;
  readonly order: readonly RE2[];
  readonly iban: RE2;
  readonly card: RE2;
  readonly email: RE2;
  readonly ssn: RE2;
  readonly frNir: RE2;
  readonly itCf: RE2;
  readonly esId: RE2;
  readonly digits9or11: RE2;
  readonly ipv4: RE2;
  readonly ipv6: RE2;
  readonly phone: RE2;
}

export function createPiiPatterns(): PiiPatterns {
  const patterns = {
    iban: new RE2(String.raw`\b[A-Z]{2}\d{2}(?:[ -]?[A-Z0-9]{4}){2,7}(?:[ -]?[A-Z0-9]{1,3})?\b`, 'g'),
    card: new RE2(String.raw`\b\d(?:[ -]?\d){11,18}\b`, 'g'),
    email: new RE2(String.raw`[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*\.[A-Za-z]{2,24}\b`, 'g'),
    ssn: new RE2(String.raw`\b\d{3}([- ])\d{2}([- ])\d{4}\b`, 'g'),
    frNir: new RE2(String.raw`\b[1-478] ?\d{2} ?\d{2} ?(?:\d{2}|2[ABab]) ?\d{3} ?\d{3} ?\d{2}\b`, 'g'),
    itCf: new RE2(String.raw`\b[A-Za-z]{6}\d{2}[A-Za-z]\d{2}[A-Za-z]\d{3}[A-Za-z]\b`, 'g'),
    esId: new RE2(String.raw`\b(?:\d{8}|[XYZxyz]-?\d{7})-?[A-Za-z]\b`, 'g'),
    digits9or11: new RE2(String.raw`\b(?:\d{11}|\d{9}|\d{2}\.\d{2}\.\d{2}-\d{3}\.\d{2}|\d{4}[ .]\d{2}[ .]\d{3})\b`, 'g'),
    ipv4: new RE2(String.raw`\b(?:\d{1,3}\.){3}\d{1,3}\b`, 'g'),
    ipv6: new RE2(String.raw`(?:[0-9A-Fa-f]{1,4})?(?::[0-9A-Fa-f]{0,4}){2,7}(?:%[0-9A-Za-z]{1,16})?`, 'g'),
    phone: createPhonePattern(),
  };
  const order = Object.values(patterns);
  return { ...patterns, order, set: new RE2.Set(order.map((r) => r.source)) };
}

const CARD_LABELS = ['card', 'visa', 'mastercard', 'amex', 'credit', 'debit', 'kreditkarte', 'carte', 'tarjeta', 'carta', 'kaart', 'karta', 'cartão'];
const ID_CONTEXT: Record<string, readonly string[]> = {
  de: ['steuer', 'identifikationsnummer', 'idnr', 'tax id', 'tin'],
  pl: ['pesel'],
  nl: ['bsn', 'burgerservicenummer', 'sofinummer', 'sofi-nummer'],
  be: ['rijksregister', 'national number', 'numéro national', 'numero national', 'insz', 'niss', 'registre national'],
};

/** Does one of `words` occur (case-insensitive) within `radius` characters before `start` or after `end`? */
function near(text: string, start: number, end: number, words: readonly string[], radius = 40): boolean {
  const around = (text.slice(Math.max(0, start - radius), start) + ' ' + text.slice(end, end + 16)).toLowerCase();
  return words.some((w) => around.includes(w));
}

/**
 * Characters already claimed by an earlier (stronger) PII family. A bitmap over the text keeps the
 * overlap test proportional to the candidate's length, so thousands of hits stay linear.
 */
class Claims {
  readonly #taken: Uint8Array;
  constructor(length: number) {
    this.#taken = new Uint8Array(length + 1);
  }
  overlaps(s: number, e: number): boolean {
    for (let i = s; i < e; i++) if (this.#taken[i] === 1) return true;
    return false;
  }
  add(s: number, e: number): void {
    this.#taken.fill(1, s, e);
  }
}

function eachMatch(re: RE2, text: string, fn: (m: RegExpExecArray) => void): void {
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) fn(m);
}

/** Every validated PII value of `text` (light view), non-overlapping. */
export function findPii(light: string, p: PiiPatterns, maxPhoneChecks?: number): PiiHit[] {
  const out: PiiHit[] = [];
  const text = foldDigits(light);
  // Cheap gates: most prompts hold no '@' and few digits, so most RE2 passes are skipped.
  let digits = 0;
  let colons = 0;
  let upper = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) digits++;
    else if (c === 58) colons++;
    else if (c >= 65 && c <= 90) upper++;
  }
  const hasAt = text.includes('@');
  const matched = new Set(p.set.match(text).map((i) => p.order[i]!));
  const each = (re: RE2, txt: string, fn: (m: RegExpExecArray) => void): void => {
    if (matched.has(re)) eachMatch(re, txt, fn);
  };
  const claims = new Claims(text.length);
  const take = (entity: PiiEntity, rule: string, confidence: number, start: number, end: number, key: string): void => {
    if (claims.overlaps(start, end)) return;
    claims.add(start, end);
    out.push({ entity, rule, confidence, start, end, key });
  };
  if (digits >= 6 && upper >= 2) each(p.iban, text, (m) => {
    const v = validateIban(m[0]);
    if (v.valid) take('IBAN', 'pii.iban_mod97', 0.95, m.index, m.index + m[0].length, v.iban);
  });
  if (digits >= 12) each(p.card, text, (m) => {
    const d = digitsOnly(m[0]);
    // A known issuer prefix, or any Luhn-valid 13-19 digits next to a card label.
    const labelled = d.length >= 13 && luhn(d) && near(text, m.index, m.index + m[0].length, CARD_LABELS, 32);
    if (isPaymentCard(m[0]) || labelled) take('CREDIT_CARD', 'pii.card_luhn', 0.9, m.index, m.index + m[0].length, d);
  });
  if (hasAt) each(p.email, text, (m) => {
    const v = m[0];
    const at = v.indexOf('@');
    if (v.startsWith('.') || v[at - 1] === '.' || v.includes('..')) return;
    take('EMAIL', 'pii.email', 0.95, m.index, m.index + v.length, v.toLowerCase());
  });
  if (digits >= 9) each(p.ssn, text, (m) => {
    if (m[1] !== m[2]) return;
    if (!isUsSsn(m[0])) return;
    if (m[1] === ' ' && !near(text, m.index, m.index + m[0].length, ['ssn', 'social security', 'social-security'])) return;
    take('US_SSN', 'pii.us_ssn', 0.85, m.index, m.index + m[0].length, digitsOnly(m[0]));
  });
  if (digits >= 13) each(p.frNir, text, (m) => {
    if (isFrNir(m[0])) take('NATIONAL_ID', 'pii.fr_nir', 0.9, m.index, m.index + m[0].length, digitsOnly(m[0]) + m[0].slice(-2));
  });
  if (digits >= 7 && upper >= 0) each(p.itCf, text, (m) => {
    if (isItCodiceFiscale(m[0])) take('NATIONAL_ID', 'pii.it_codice_fiscale', 0.9, m.index, m.index + m[0].length, m[0].toUpperCase());
  });
  if (digits >= 7) each(p.esId, text, (m) => {
    if (isEsDniNie(m[0])) take('NATIONAL_ID', 'pii.es_dni_nie', 0.85, m.index, m.index + m[0].length, m[0].toUpperCase());
  });
  if (digits >= 9) each(p.digits9or11, text, (m) => {
    const v = m[0];
    const s = m.index;
    const e = s + v.length;
    const d = digitsOnly(v);
    if (d.length === 11) {
      if (isPlPesel(v) && near(text, s, e, ID_CONTEXT.pl!)) return take('NATIONAL_ID', 'pii.pl_pesel', 0.85, s, e, d);
      if (isDeTaxId(v) && near(text, s, e, ID_CONTEXT.de!)) return take('NATIONAL_ID', 'pii.de_tax_id', 0.85, s, e, d);
      if (isBeNationalNumber(v) && near(text, s, e, ID_CONTEXT.be!)) return take('NATIONAL_ID', 'pii.be_national_number', 0.85, s, e, d);
    } else if (d.length === 9 && isNlBsn(v) && near(text, s, e, ID_CONTEXT.nl!)) {
      take('NATIONAL_ID', 'pii.nl_bsn', 0.85, s, e, d);
    }
  });
  if (digits >= 4) each(p.ipv4, text, (m) => {
    const v = m[0];
    if (!ipaddr.IPv4.isValidFourPartDecimal(v)) return;
    // part of a longer dotted run (a version string such as 1.2.3.4.5)
    const before = text.charCodeAt(m.index - 1);
    const after = text.charCodeAt(m.index + v.length);
    if (before === 46 || (after === 46 && text.charCodeAt(m.index + v.length + 1) >= 48 && text.charCodeAt(m.index + v.length + 1) <= 57)) return;
    // "Version 10.4.2.1", "v1.2.3.4": a version number, not an address
    if (near(text, m.index, m.index, ['version', 'v.', 'release', 'build'], 12) || text[m.index - 1] === 'v') return;
    take('IP_ADDRESS', 'pii.ipv4', 0.85, m.index, m.index + v.length, v);
  });
  if (colons >= 2) each(p.ipv6, text, (m) => {
    const v = m[0];
    if (v.length < 3 || !v.includes('::') && v.split(':').length < 8) return;
    if (!ipaddr.IPv6.isValid(v.split('%')[0]!)) return;
    take('IP_ADDRESS', 'pii.ipv6', 0.85, m.index, m.index + v.length, ipaddr.IPv6.parse(v.split('%')[0]!).toNormalizedString());
  });
  if (digits >= 7) {
    for (const h of findPhones(text, p.phone, (s, e) => claims.overlaps(s, e), maxPhoneChecks)) {
      take('PHONE_NUMBER', h.valid ? 'pii.phone_valid' : 'pii.phone_labelled', h.valid ? 0.85 : 0.7, h.start, h.end, h.key);
    }
  }
  return out;
}
