/**
 * Phone numbers of every country (PII_LEAK, `<PHONE_NUMBER_n>`). One RE2 pass finds candidates
 * (digits with the separators people write: spaces, dots, dashes, slashes, brackets, an
 * extension); libphonenumber-js with its full metadata (`/max`: per-type number patterns, not
 * lengths only) decides:
 *
 * - `+CC …` / `00CC …` (international): valid for the country its calling code names.
 * - national forms have no country in them, so a short list of default countries is tried, chosen
 *   by the number's first digit: a leading 0 is the trunk prefix of most of the world (Europe,
 *   Asia, Oceania, Africa, Latin America), a leading 8 is Russia's and its neighbours', anything
 *   else is tried against the plans without a trunk prefix (North America, Spain, Portugal,
 *   Poland, the Nordics, Greece, Mexico, China's mobiles…). The first region where it is valid wins.
 *
 * What is not a phone number, although some country's plan would accept its digits: dates and
 * times, amounts (a currency sign or code beside it, thousands groups), a number led by an ID
 * word (order, invoice, ticket, ISBN, #, …) unless a phone word is nearer, a year-led reference
 * (2024-000123), and bare digit runs without a phone word. Cards, IBANs and national IDs are
 * claimed by their own validators before this runs.
 *
 * Cost: one linear RE2 pass; per candidate at most the regions of its list (each a few µs), and
 * at most `maxChecks` libphonenumber calls per text.
 */
import RE2 from 're2';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';

export function createPhonePattern(): RE2 {
  return new RE2(
    String.raw`(?:\+|\b)(?:\d[\d ().\-/]{4,22}\d|\(\d{1,5}\)[\d ().\-/]{3,20}\d)(?:[ ,]{0,2}(?:x|ext\.?|extension|ext\.? no\.?|poste|durchwahl|доб\.?|内線)[ :.]{0,2}\d{1,6})?`,
    'gi',
  );
}

/** Trunk prefix 0, most populous first (the list is cut short by the first valid region). */
const TRUNK_0: readonly CountryCode[] = [
  'GB', 'DE', 'FR', 'IT', 'IN', 'JP', 'BR', 'TR', 'KR', 'AU', 'NL', 'BE', 'CH', 'AT', 'SE', 'ZA', 'AR', 'CN', 'NZ', 'MY',
  'AE', 'EG', 'NG', 'ID', 'PH', 'TH', 'FI', 'IE', 'UA', 'IL',
];
/** Trunk prefix 8 (Russia, Belarus, Kazakhstan); North America for 8xx toll-free. */
const TRUNK_8: readonly CountryCode[] = ['RU', 'US', 'BY', 'KZ'];
/** Plans without a trunk prefix, where a national number starts with its area or mobile code. */
const NO_TRUNK: readonly CountryCode[] = ['US', 'CA', 'MX', 'ES', 'IT', 'PL', 'PT', 'CN', 'BR', 'AR', 'DK', 'NO', 'GR', 'CZ', 'SK', 'LU', 'SG', 'HK', 'RU', 'IN'];

/** Words that say the digits next to them are a phone number. */
const PHONE_WORDS = [
  'phone', 'tel', 'mobile', 'cell', 'fax', 'call', 'ring', 'dial', 'whatsapp', 'sms', 'text me', 'hotline', 'helpline', 'landline', 'contact',
  'telefon', 'handy', 'rufnummer', 'téléphone', 'portable', 'joindre', 'teléfono', 'telefono', 'móvil', 'movil', 'cellulare', 'telefoon', 'mobiel',
  'telemóvel', 'celular', 'telefone', 'комер', 'тел', 'моб', '电话', '手机', '電話', '携帯', '전화', 'هاتف', 'फ़ोन', 'फोन', 'telp', 'điện thoại',
];
/**
 * "Call me" in those languages, and phone words that follow the number (where the verb comes last:
 * "…にお電話ください", "…로 연락주세요", "… पर कॉल करें", or a bracketed "(mobile)"). Weaker than
 * PHONE_WORDS: they let a bare digit run through when libphonenumber finds it valid, but do not
 * turn an amount, a year-led reference or an invalid number into a phone number ("Ruf: 1.234.567
 * Punkte" is a reputation score; "Appel 12.345.678" an appeal).
 */
const CALL_VERBS = ['anruf', 'ruf', 'appel', 'llame', 'llamar', 'llámame', 'llámenos', 'chiam', 'bel', 'bellen', 'ligue', 'ligar', 'позвон', 'звон', '拨打', '致电', '連絡', '연락', 'اتصل', 'कॉल'];
const AFTER_WORDS = ['電話', '电话', '連絡', '연락', '전화', 'कॉल', 'फोन', 'फ़ोन', '携帯', '手机', '(mobile', '(cell', '(tel', '(phone', '(fax'];
/** Characters after the number that are read for AFTER_WORDS. */
const AFTER_WINDOW = 12;
/** Weaker: "number" alone, "reach me", "office": only count when no ID word is nearer. */
const WEAK_WORDS = ['number', 'reach', 'office', 'desk', 'registered', 'nummer', 'numéro', 'número', 'numero', 'номер'];
/** Words that make the digits after them an identifier, an amount or a date. */
const ID_WORDS = [
  'order', 'invoice', 'ticket', 'ref', 'reference', 'isbn', 'issn', 'ean', 'upc', 'sku', 'serial', 'tracking', 'account', 'acct', 'customer', 'case',
  'booking', 'confirmation', 'policy', 'contract', 'id', 'no.', 'nr.', 'n°', 'nº', '#', 'lot', 'batch', 'version', 'build', 'release', 'page', 'pages',
  'room', 'flight', 'zip', 'postcode', 'rfc', 'patent', 'doi', 'pmid', 'arxiv', 'bestell', 'rechnung', 'kunden', 'facture', 'commande', 'pedido',
  'factura', 'ordine', 'fattura', 'заказ', 'счет', '订单', '注文',
];
const CURRENCY = /[$€£¥₹₽₩₺¢]|\b(?:usd|eur|gbp|jpy|chf|cny|inr|rub|brl|mxn|aud|cad|dollars?|euros?|pounds?|yen)\b/i;

export interface PhoneHit {
  readonly start: number;
  readonly end: number;
  /** digits of the number without extension (keys equal numbers alike) */
  readonly key: string;
  readonly valid: boolean;
}

const isLetter = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 0xc0 && c < 0x2e80);

/**
 * The last position (in `before`, lower case) where one of `words` ends, or -1. A word starts at
 * a word boundary; words under 4 letters must end at one too ("tel" is not "television", "id" is
 * not "did"), longer ones may go on ("telefonnummer", "calling").
 */
function lastIndexOfAny(before: string, words: readonly string[]): number {
  let best = -1;
  for (const w of words) {
    const first = w.charCodeAt(0);
    const last = w.charCodeAt(w.length - 1);
    for (let i = before.lastIndexOf(w); i >= 0; i = i === 0 ? -1 : before.lastIndexOf(w, i - 1)) {
      if (isLetter(first) && i > 0 && isLetter(before.charCodeAt(i - 1))) continue;
      if (isLetter(last) && w.length < 4 && isLetter(before.charCodeAt(i + w.length))) continue;
      if (i + w.length > best) best = i + w.length;
      break;
    }
  }
  return best;
}

/** Whether one of AFTER_WORDS starts within AFTER_WINDOW characters after `end`, before any digit. */
function phoneWordAfter(text: string, end: number): boolean {
  let after = text.slice(end, end + AFTER_WINDOW).toLowerCase();
  const digit = after.search(/\d/);
  if (digit >= 0) after = after.slice(0, digit);
  return AFTER_WORDS.some((w) => after.includes(w));
}

/**
 * libphonenumber calls per text: 32, plus one per 16 characters. A call costs ~15 µs and a
 * national number may try a whole region list, so this bounds a text full of digit groups to a
 * few µs per character; real texts stay far below it (2 KB of prose holds a handful of numbers).
 */
const CHECKS_BASE = 32;

const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/** Zero of each decimal-digit block NFKC leaves alone (Arabic-Indic, Persian, Devanagari, Bengali, Thai, …). */
const DIGIT_ZEROS = [0x660, 0x6f0, 0x7c0, 0x966, 0x9e6, 0xa66, 0xae6, 0xb66, 0xbe6, 0xc66, 0xce6, 0xd66, 0xde6, 0xe50, 0xed0, 0xf20, 0x1040, 0x1090, 0x17e0, 0x1810];

/**
 * `text` with every decimal digit of another script written as its ASCII digit (same length, so
 * offsets hold): "٠١٠١٢٣٤٥٦٧٨" is a phone number as much as "01012345678". Returns `text` itself
 * when it has none.
 */
export function foldDigits(text: string): string {
  let out: string[] | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x660 || c > 0x1819) continue;
    for (const z of DIGIT_ZEROS) {
      if (c >= z && c <= z + 9) {
        out ??= text.split('');
        out[i] = String.fromCharCode(48 + c - z);
        break;
      }
    }
  }
  return out === null ? text : out.join('');
}

/**
 * Phone numbers in `text` (light view, digits folded to ASCII). `overlaps` says whether another
 * detector already claimed a range.
 */
export function findPhones(text: string, re: RE2, overlaps: (s: number, e: number) => boolean, maxChecks = CHECKS_BASE + (text.length >> 4)): PhoneHit[] {
  const out: PhoneHit[] = [];
  let checks = 0;
  // the same digits written the same way get the same answer (a contact list repeats its numbers)
  const memo = new Map<string, boolean>();
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    let v = m[0];
    let s = m.index;
    // "(0)96" trunk prefixes and a leading "(" belong to the number; a trailing ")" does not
    while (v.endsWith(')') && !v.includes('(')) v = v.slice(0, -1);
    const extAt = v.search(/[ ,]*(?:x|ext|extension|poste|durchwahl|доб|内線)/i);
    const main = extAt > 0 ? v.slice(0, extAt) : v;
    const d = main.replace(/\D/g, '');
    if (d.length < 7 || d.length > 15) continue;
    const e = s + v.length;
    if (overlaps(s, e)) continue;
    // glued to letters or more digits: part of a code ("AB1234567", "12345678-9-X")
    const before = text.charCodeAt(s - 1);
    const after = text.charCodeAt(e);
    if ((before >= 65 && before <= 90) || (before >= 97 && before <= 122) || (after >= 65 && after <= 90) || (after >= 97 && after <= 122)) continue;
    if (text[s - 1] === '.' && isDigit(text.charCodeAt(s - 2)) || text[e] === '.' && isDigit(text.charCodeAt(e + 1)) || text[e] === ',' && isDigit(text.charCodeAt(e + 1))) continue;
    const intl = main.startsWith('+') || /^00[1-9]/.test(main);
    const lower = text.slice(Math.max(0, s - 32), s).toLowerCase();
    const weakAt = lastIndexOfAny(lower, WEAK_WORDS);
    const idAt = lastIndexOfAny(lower, ID_WORDS);
    const phoneAt = lastIndexOfAny(lower, PHONE_WORDS);
    // a verb, or a phone word after the number when no ID word leads it ("注文番号 12345678 の電話")
    const called = lastIndexOfAny(lower, CALL_VERBS) > idAt || (idAt < 0 && phoneWordAfter(text, e));
    // An ID word between the phone word and the number wins ("Tel. order no. 12345678" is an
    // order); a weak word ("number", "registered") counts only with no ID word near ("order number").
    const labelled = phoneAt > idAt || (weakAt >= 0 && idAt < 0);
    const weak = labelled;
    if (isDateLike(main) || (!labelled && isAmountLike(main))) continue;
    if (!intl && !labelled && idAt >= 0) continue;
    if (CURRENCY.test(text.slice(Math.max(0, s - 5), s)) || CURRENCY.test(text.slice(e, e + 5))) continue;
    // A bare run of digits ("Invoice 111222333") is a phone number only next to a phone word.
    const written = intl || main.startsWith('(') || text[s - 1] === '(' || d.length !== main.replace(/\s+$/, '').length;
    if (!written && !labelled && !weak && !called) continue;
    // A reference led by a year ("2024-000123", "2023/12/0045") needs a phone word.
    if (!intl && !labelled && /^(?:19|20)\d\d[-/. ]/.test(main)) continue;
    let valid = memo.get(main) ?? false;
    if (memo.has(main)) {
      /* answered above */
    } else if (intl) {
      if (++checks > maxChecks) break;
      valid = parsePhoneNumberFromString(main.startsWith('00') ? '+' + main.slice(2) : main)?.isValid() ?? false;
    } else {
      const regions = d.startsWith('0') ? TRUNK_0 : d.startsWith('8') ? TRUNK_8 : NO_TRUNK;
      for (const region of regions) {
        if (++checks > maxChecks) break;
        if (parsePhoneNumberFromString(main, region)?.isValid()) {
          valid = true;
          break;
        }
      }
    }
    if (checks <= maxChecks) memo.set(main, valid);
    if (!valid && !(labelled && d.length <= 12)) continue;
    if (text[s - 1] === '(' && !v.startsWith('(')) (s -= 1), (v = '(' + v);
    out.push({ start: s, end: s + v.length, key: d, valid });
  }
  return out;
}

/**
 * "2020-06-20 14:11", "28.07.1980", "7/28/80", "10:00-12:00": the digit groups of a date or a time.
 * A date is three groups joined by the same separator (- . /) and then nothing or a space; a fourth
 * group with that separator makes it a number grouped in pairs ("06.12.34.56.78").
 */
function isDateLike(v: string): boolean {
  if (/\d:\d\d/.test(v)) return true;
  const m = /^(\d{1,4})([-./])(\d{1,2})\2(\d{1,4})(.?)/.exec(v);
  if (m === null || m[5] === m[2] || (m[5] !== '' && m[5] !== ' ')) return false;
  const [a, c] = [m[1]!.length, m[4]!.length];
  return (a === 4 && c <= 2) || (a <= 2 && (c === 2 || c === 4));
}

/** "1.234.567", "12 345 678", "3.14159": thousands groups or a decimal number, not a phone number. */
function isAmountLike(v: string): boolean {
  if (/^\d+\.\d+$/.test(v)) return true;
  if (v.startsWith('+') || v.startsWith('0') || v.startsWith('(')) return false;
  // dots group thousands in most of Europe; a space does too, but "612 345 678" is how Spain and
  // Poland write a phone number, so a space-grouped run counts as an amount only after 1-2 digits
  return /^\d{1,3}(?:\.\d{3})+$/.test(v) || /^\d{1,2}(?: \d{3})+$/.test(v);
}
