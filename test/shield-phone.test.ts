/**
 * Phone numbers of every country (issue 19 item 4): numbers of 25 countries, each written the
 * ways people write them (international with spaces, dashes or dots, 00 instead of +, national
 * with the trunk prefix, brackets, an extension), are redacted as <PHONE_NUMBER_n>; numbers that
 * only look like phone numbers (dates, times, amounts, order numbers, references, IDs) are not.
 * Every number below is valid in libphonenumber's full metadata (they are its example numbers and
 * well-known public switchboards), written by hand in each country's customary formats.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createShield } from '../src/services/llm-shield/core.ts';

const shield = createShield({ model: null });

const PHONES: Record<string, readonly string[]> = {
  'United States': ['+1 201-555-0123', '(201) 555-0123', '201.555.0123', '+1 (201) 555-0123 ext. 42', '1-201-555-0123'],
  'United Kingdom': ['+44 7400 123456', '07400 123456', '+44 (0)20 7946 0958', '0044 20 7946 0958', '020-7946-0958'],
  Germany: ['+49 1512 3456789', '01512 3456789', '+49 (0)30 901820', '030 / 901820', '0049-30-901820'],
  France: ['+33 6 12 34 56 78', '06 12 34 56 78', '06.12.34.56.78', '+33 (0)1 42 68 53 00', '0033 1 42 68 53 00'],
  Italy: ['+39 312 345 6789', '312 345 6789', '+39 06 6982 1234', '06-6982-1234'],
  Spain: ['+34 612 34 56 78', '612 34 56 78', '612 345 678', '+34 912-345-678', '0034 912 345 678'],
  Netherlands: ['+31 6 12345678', '06-12345678', '+31 20 123 4567', '020-123 4567'],
  Brazil: ['+55 11 96123 4567', '(11) 96123-4567', '+55 (21) 2345-6789', '(21) 2345-6789'],
  India: ['+91 81234 56789', '081234 56789', '+91-22-2345-6789', '022 2345 6789'],
  Japan: ['+81 90 1234 5678', '090-1234-5678', '03-1234-5678', '+81 3-1234-5678'],
  Australia: ['+61 412 345 678', '0412 345 678', '(02) 9876 5432', '+61 2 9876 5432'],
  China: ['+86 131 2345 6789', '131 2345 6789', '010-6552 9988', '+86 10 6552 9988'],
  Russia: ['+7 912 345 67 89', '8 (912) 345-67-89', '+7 (495) 123-45-67', '8 495 123 45 67'],
  Mexico: ['+52 222 123 4567', '222 123 4567', '(55) 1234-5678', '+52 55 1234 5678'],
  Poland: ['+48 512 345 678', '512 345 678', '+48 22 123 45 67', '0048 512-345-678'],
  Switzerland: ['+41 78 123 45 67', '078 123 45 67', '+41 44 668 18 00', '044 668 18 00'],
  Sweden: ['+46 70 123 45 67', '070-123 45 67', '08-123 456 78', '+46 8 123 456 78'],
  'South Africa': ['+27 71 123 4567', '071 123 4567', '021 123 4567', '+27 21 123 4567'],
  'South Korea': ['+82 10 2000 0000', '010-2000-0000', '02-312-3456', '+82 2-312-3456'],
  Turkey: ['+90 501 234 56 78', '0501 234 56 78', '0212 123 45 67', '+90 212 123 45 67'],
  Argentina: ['+54 9 11 2345 6789', '011 4123-4567', '+54 11 4123-4567'],
  Belgium: ['+32 450 00 12 34', '0450 00 12 34', '0450/00.12.34'],
  'United Arab Emirates': ['+971 50 123 4567', '050 123 4567', '00971 50 123 4567'],
  'New Zealand': ['+64 21 123 4567', '021 123 4567'],
  Malaysia: ['+60 12 345 6789', '012-345 6789'],
};

/** Sentences that carry a number in each language's own words. */
const FRAMES = ['Please call {} tomorrow.', 'Kontakt: {}', 'Mon numéro est le {}, merci.', '电话：{}', 'тел.: {}'];

describe('phone numbers of every country', () => {
  let i = 0;
  for (const [country, forms] of Object.entries(PHONES)) {
    it(`redacts ${country} numbers written ${forms.length} ways`, () => {
      for (const form of forms) {
        const text = FRAMES[i++ % FRAMES.length]!.replace('{}', form);
        const v = shield.screen(text);
        const want = text.replace(form, '<PHONE_NUMBER_1>');
        assert.equal(v.sanitized_text, want, `${country}: ${form}`);
        assert.equal(v.threat_type, 'PII_LEAK', `${country}: ${form}`);
      }
    });
  }

  it('finds a number written in Arabic-Indic or Devanagari digits next to a phone word', () => {
    for (const text of ['هاتف: ٠٥٠ ١٢٣ ٤٥٦٧', 'फ़ोन: ०८१२३४ ५६७८९']) {
      assert.match(shield.screen(text).sanitized_text, /<PHONE_NUMBER_1>$/, text);
    }
  });

  it('reads "call me" in other languages, and a phone word after the number, as a label for bare digits', () => {
    for (const text of [
      'Ruf mich unter 015123456789 an.',
      'Bel me op 0612345678.',
      'Позвоните мне по 89123456789.',
      '09012345678にお電話ください。',
      '01020000000로 연락주세요.',
      'मुझे 9876543210 पर कॉल करें',
      'Anna 0612345678 (mobile)',
    ]) {
      assert.match(shield.screen(text).sanitized_text, /<PHONE_NUMBER_1>/, text);
    }
  });

  it('numbers two different numbers apart and the same number alike', () => {
    const v = shield.screen('Call +44 20 7946 0958 or 020 7946 0958, else +33 6 12 34 56 78.');
    assert.equal(v.sanitized_text, 'Call <PHONE_NUMBER_1> or <PHONE_NUMBER_2>, else <PHONE_NUMBER_3>.');
  });
});

describe('numbers that only look like phone numbers', () => {
  const LOOKALIKES = [
    'The meeting is on 2024-03-15 at 10:30.',
    'Born 15.03.1984 in Lyon.',
    'Due 03/15/2024 10:30 UTC.',
    'Open 10:00-12:00 and 14:00-18:00.',
    'It costs $1,234,567.89 in total.',
    'Le prix: € 1.234.567 TTC.',
    'Population: 8 336 817.',
    'Your order #123456789 has shipped.',
    'Invoice 2024-000123 is overdue.',
    'ISBN 978-3-16-148410-0',
    'Tracking number 1Z999AA10123456784.',
    'Upgrade to version 1.2.3.4 first.',
    'Coordinates 48.8566, 2.3522',
    'ZIP 94105-1234',
    'From 1999-2004 she lived abroad.',
    'SKU 4006381333931 is out of stock.',
    'order number 4512 3398 7710',
    'reference 2023/12/0045',
    'pi is 3.14159265',
    'Ticket 2024 0512 3344 was closed.',
    'Account 12345678 is closed.',
    'Budget between 1,000,000 and 2,000,000.',
    'Case no. 2019-CV-01234',
    'Bestellnummer 4711-0815-42',
    'Timestamp 1700000000 in seconds.',
    // a call verb or a phone word after the digits is a weaker label: amounts, IDs and years stay
    'Ruf: 1.234.567 Punkte',
    'Appel 12.345.678 rejeté',
    'Bel Air had 2.345.678 visitors.',
    'Chiamata 2023-000123 chiusa',
    'Order 12345678, call us if it is late.',
    '注文番号 12345678 の電話',
    'Population 1.234.567 (home of the tigers)',
    'Llamas: 1.234.567 en Perú.',
  ];
  for (const text of LOOKALIKES) {
    it(`leaves "${text}" alone`, () => {
      const v = shield.screen(text);
      assert.ok(!v.findings.some((f) => f.rule.startsWith('pii.phone')), JSON.stringify(v.findings));
      assert.equal(v.sanitized_text, text);
    });
  }
});
