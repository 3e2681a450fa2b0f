/** API-138 IBAN validation: registry, normalisation, mod-97, national check digits, every eval vector. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ibanStatus } from '../src/services/sepa-vop/core.ts';
import { isIbanCountry, normalizeIban, validateIban } from '../src/services/sepa-vop/iban.ts';
import { mod97 } from '../src/services/sepa-vop/national-checks.ts';
import { IBAN_REGISTRY, IBAN_REGISTRY_SOURCE } from '../src/services/sepa-vop/registry.ts';

/** Builds an IBAN with correct ISO check digits around a BBAN. */
function withCheckDigits(country: string, bban: string): string {
  const cd = 98 - mod97(`${bban}${country}00`);
  return `${country}${String(cd).padStart(2, '0')}${bban}`;
}

/** A valid IBAN per country with national check digits, and the BBAN index of one check character. */
const NATIONAL: readonly [string, number][] = [
  ['BE68539007547034', 10],
  ['FR1420041010050500013M02606', 21],
  ['MC5811222000010123456789030', 22],
  ['ES9121000418450200051332', 8],
  ['ES9121000418450200051332', 9],
  ['IT60X0542811101000000123456', 0],
  ['SM86U0322509800000000270100', 0],
  ['PT50000201231234567890154', 20],
  ['NO9386011117947', 10],
  ['FI2112345600000785', 13],
  ['EE382200221020145685', 15],
  ['HR1210010051863000160', 6],
  ['HR1210010051863000160', 16],
  ['CZ6508000000192000145399', 9],
  ['CZ6508000000192000145399', 19],
  ['SK3112000000198742637541', 19],
  ['HU42117730161111101800000000', 7],
  ['HU42117730161111101800000000', 15],
  ['PL61109010140000071219812874', 7],
  ['SI56263300012039086', 14],
  ['ME25540300002379920109', 17],
  ['MK07250120000058984', 14],
  ['RS35260005601001611379', 17],
  ['BA391290079401028494', 15],
  ['TL380080012345678910157', 18],
  ['AL47212110090000000235698741', 7],
  ['MR1300020001010000123456753', 22],
  ['TN5910006035183598478831', 19],
];

function bump(ch: string): string {
  const c = ch.charCodeAt(0);
  if (c >= 48 && c <= 57) return String((c - 48 + 1) % 10);
  return String.fromCharCode(c === 90 ? 65 : c + 1);
}

describe('IBAN registry table', () => {
  it('names its source and release and lists the 89 countries of the SWIFT registry', () => {
    assert.match(IBAN_REGISTRY_SOURCE.release, /Release \d+/);
    const swift = IBAN_REGISTRY.filter((e) => e.registry === 'swift');
    assert.equal(swift.length, 89);
    assert.equal(new Set(swift.map((e) => e.country)).size, 89);
    for (const e of swift) assert.match(e.source, /SWIFT IBAN Registry Release \d+/, e.country);
  });

  it('has BBAN structures that add up to each country length', () => {
    for (const e of IBAN_REGISTRY) {
      const sum = [...e.bban.matchAll(/(\d+)!([nac])/g)].reduce((s, m) => s + Number(m[1]), 0);
      assert.equal(sum + 4, e.length, e.country);
      assert.ok(e.length >= 15 && e.length <= 34, e.country);
    }
  });

  it('accepts registry territories with their parent structure (GP, RE under FR; AX under FI)', () => {
    for (const t of ['GP', 'RE', 'MQ', 'GF', 'AX']) assert.ok(isIbanCountry(t), t);
    const bban = '20041010050500013M02606';
    assert.equal(validateIban(withCheckDigits('GP', bban)).valid, true);
    assert.equal(validateIban(withCheckDigits('RE', bban)).valid, true);
  });
});

describe('every registry country', () => {
  // Deterministic generator of BBANs that follow a registry structure.
  let seed = 7;
  const rnd = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  const DIGITS = '0123456789';
  const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  function randomBban(spec: string): string {
    let out = '';
    for (const m of spec.matchAll(/(\d+)!([nac])/g)) {
      const pool = m[2] === 'n' ? DIGITS : m[2] === 'a' ? LETTERS : DIGITS + LETTERS;
      for (let i = 0; i < Number(m[1]); i++) out += pool[rnd(pool.length)];
    }
    return out;
  }

  for (const entry of IBAN_REGISTRY) {
    it(`${entry.country}: a structured BBAN with ISO check digits passes every generic check; a wrong class or length fails`, () => {
      for (let k = 0; k < 20; k++) {
        const iban = withCheckDigits(entry.country, randomBban(entry.bban));
        const errors = validateIban(iban).errors.filter((e) => e !== 'INVALID_NATIONAL_CHECK_DIGITS');
        assert.deepEqual(errors, [], iban);
      }
      const bban = randomBban(entry.bban);
      // Put a character of the wrong class at the first position that only takes digits or only letters.
      const classes = [...entry.bban.matchAll(/(\d+)!([nac])/g)].flatMap((m) => Array<string>(Number(m[1])).fill(m[2]!));
      const pos = classes.findIndex((c) => c !== 'c');
      if (pos >= 0) {
        const wrong = classes[pos] === 'n' ? 'A' : '0';
        const bad = withCheckDigits(entry.country, bban.slice(0, pos) + wrong + bban.slice(pos + 1));
        assert.ok(validateIban(bad).errors.includes('INVALID_STRUCTURE'), bad);
      }
      assert.ok(validateIban(withCheckDigits(entry.country, `${bban}0`)).errors.includes('INVALID_LENGTH'));
      assert.ok(validateIban(withCheckDigits(entry.country, bban.slice(1))).errors.includes('INVALID_LENGTH'));
    });
  }
});

describe('normalisation', () => {
  const table: [string, string][] = [
    ['DE89 3704 0044 0532 0130 00', 'DE89370400440532013000'],
    ['de89370400440532013000', 'DE89370400440532013000'],
    ['IBAN DE89 3704 0044 0532 0130 00', 'DE89370400440532013000'],
    ['iban: de89-3704-0044-0532-0130-00', 'DE89370400440532013000'],
    ['DE89.3704.0044.0532.0130.00', 'DE89370400440532013000'],
    ['\tDE89\u00a03704 0044 0532 0130 00 ', 'DE89370400440532013000'],
    ['DE89 / 3704 / 0044 / 0532 / 0130 / 00', 'DE89370400440532013000'],
    ['DE89 (3704) 0044 0532 0130-00', 'DE89370400440532013000'],
    ['DE: 89 3704 0044; 0532 0130 00', 'DE89370400440532013000'],
  ];
  for (const [raw, electronic] of table) {
    it(`turns ${JSON.stringify(raw)} into the electronic format`, () => {
      assert.equal(normalizeIban(raw), electronic);
      const r = validateIban(raw);
      assert.deepEqual(r, { valid: true, iban: electronic, country: 'DE', errors: [], registry: 'swift' });
    });
  }
});

describe('ISO 7064 mod-97 without big integers', () => {
  it('agrees with BigInt arithmetic on random 30-digit and alphanumeric strings', () => {
    let seed = 12345;
    const rnd = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let k = 0; k < 2000; k++) {
      let s = '';
      for (let i = 0; i < 30; i++) s += rnd() < 0.2 ? String.fromCharCode(65 + Math.floor(rnd() * 26)) : String(Math.floor(rnd() * 10));
      const digits = s.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
      assert.equal(mod97(s), Number(BigInt(digits) % 97n), s);
    }
  });

  it('rejects check digits 00, 01 and 99 even where the remainder would be 1', () => {
    for (const cd of ['00', '01', '99']) {
      const r = validateIban(`GB${cd}WEST12345698765432`);
      assert.ok(r.errors.includes('INVALID_CHECKSUM'), cd);
    }
  });
});

describe('every failed check is reported', () => {
  const table: [string, string[], string][] = [
    ['XX89370400440532013000', ['UNSUPPORTED_COUNTRY', 'INVALID_CHECKSUM'], 'UNSUPPORTED_COUNTRY'],
    ['DE8937040044053201300', ['INVALID_LENGTH', 'INVALID_CHECKSUM'], 'INVALID_IBAN_FORMAT'],
    ['DE89AA040044053201300', ['INVALID_LENGTH', 'INVALID_STRUCTURE', 'INVALID_CHECKSUM'], 'INVALID_IBAN_FORMAT'],
    ['DEAA370400440532013000', ['INVALID_STRUCTURE', 'INVALID_CHECKSUM'], 'INVALID_IBAN_FORMAT'],
    ['DE89370400440532013001', ['INVALID_CHECKSUM'], 'INVALID_IBAN_CHECKSUM'],
    ['DE89 3704 0044 0532 0130 0#', ['INVALID_STRUCTURE', 'INVALID_CHECKSUM'], 'INVALID_IBAN_FORMAT'],
    ['ES2121000418450200051331', ['INVALID_NATIONAL_CHECK_DIGITS'], 'INVALID_IBAN_CHECKSUM'],
    ['BE68539007547035', ['INVALID_CHECKSUM', 'INVALID_NATIONAL_CHECK_DIGITS'], 'INVALID_IBAN_CHECKSUM'],
    ['', ['INVALID_STRUCTURE', 'INVALID_CHECKSUM'], 'INVALID_IBAN_FORMAT'],
    ['12', ['INVALID_STRUCTURE', 'INVALID_CHECKSUM'], 'INVALID_IBAN_FORMAT'],
  ];
  for (const [iban, errors, status] of table) {
    it(`${JSON.stringify(iban)} fails ${errors.join(' + ')} (${status})`, () => {
      const r = validateIban(iban);
      assert.equal(r.valid, false);
      assert.deepEqual(r.errors, errors);
      assert.equal(ibanStatus(r.errors), status);
    });
  }
});

describe('national check digits', () => {
  for (const [iban, index] of NATIONAL) {
    const country = iban.slice(0, 2);
    it(`${country}: a valid IBAN passes and a wrong check character at BBAN[${index}] fails only the national check`, () => {
      assert.deepEqual(validateIban(iban).errors, []);
      const bban = iban.slice(4).toUpperCase();
      const broken = withCheckDigits(country, bban.slice(0, index) + bump(bban[index]!) + bban.slice(index + 1));
      assert.deepEqual(validateIban(broken).errors, ['INVALID_NATIONAL_CHECK_DIGITS'], broken);
    });
  }
});

describe('eval vectors (eval/data/iban)', () => {
  const dir = new URL('../eval/data/iban/', import.meta.url);
  const expected: Record<string, string> = { checksum: 'INVALID_IBAN_CHECKSUM', length: 'INVALID_IBAN_FORMAT', format: 'INVALID_IBAN_FORMAT', unknown_country: 'UNSUPPORTED_COUNTRY', country_specific_rule: 'INVALID_IBAN_CHECKSUM' };
  for (const file of ['iban_dev.jsonl', 'iban_dev_corrupted.jsonl']) {
    it(`agrees with every vector of ${file}, national formats included (validity and status class)`, () => {
      const rows = readFileSync(new URL(file, dir), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { iban: string; label: string; reason: string | null; registry: string; country: string });
      let national = 0;
      for (const row of rows) {
        const r = validateIban(row.iban);
        if (r.registry === 'national') national++;
        if (row.label === 'valid') assert.deepEqual(r.errors, [], row.iban);
        else assert.equal(ibanStatus(r.errors), expected[row.reason!], row.iban);
      }
      if (file === 'iban_dev.jsonl') assert.ok(national >= 20, `national-format vectors: ${national}`);
      assert.ok(isIbanCountry('AO') && !isIbanCountry('QQ'));
    });
  }
});
