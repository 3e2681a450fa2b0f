/**
 * API-138: IBAN formats outside the SWIFT registry (`registry: "national"`) and national check
 * digits against real account numbers from independent sources.
 *
 * Sources of the IBANs below (read from the public repositories, cited per row by key):
 *   IT = Simplify/ibantools test/IBANToolsTest.ts (isValidIBAN table)
 *   SW = mdomke/schwifty tests/test_iban.py (valid list; also eval/data/iban/iban_dev.jsonl)
 *   SN = arthurdejong/python-stdnum tests/test_iban.doctest (also eval/data/iban/iban_dev.jsonl)
 *   PI = globalcitizen/php-iban utils/example-ibans/<cc>-ibans (IBANs people pasted from invoices,
 *        bank letters and web pages; written here in electronic format)
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import { toOpenApiSchema } from '../src/schema/openapi.ts';
import { verifyPayee } from '../src/services/sepa-vop/core.ts';
import { loadDirectoryText } from '../src/services/sepa-vop/directory.ts';
import { validateIban } from '../src/services/sepa-vop/iban.ts';
import { mod97, NATIONAL_CHECKS } from '../src/services/sepa-vop/national-checks.ts';
import { IBAN_REGISTRY } from '../src/services/sepa-vop/registry.ts';
import { VopResponseSchema } from '../src/services/sepa-vop/schema.ts';

type Row = readonly [iban: string, source: 'IT' | 'SW' | 'SN' | 'PI'];

/** Published IBANs of national-format countries: at least two sources per country where two exist. */
const NATIONAL_FORMAT: Readonly<Record<string, readonly Row[]>> = {
  AO: [['AO44123412341234123412341', 'IT'], ['AO06004400006729503010102', 'SW'], ['AO06005100001432784710124', 'PI'], ['AO06000600000173927530298', 'PI']],
  BF: [['BF42BF0840101300463574000390', 'IT'], ['BF42BF0840101300463574000390', 'SW']],
  BJ: [['BJ83A12312341234123412341234', 'IT'], ['BJ66BJ0610100100144390000769', 'SW']],
  CF: [['CF4220001000010120069700160', 'IT'], ['CF4220001000010120069700160', 'SW']],
  CG: [['CG3930011000101013451300019', 'IT'], ['CG3930013020003710721836132', 'PI'], ['CG3930011000101013451300019', 'SW']],
  CI: [['CI77A12312341234123412341234', 'IT'], ['CI93CI0080111301134291200589', 'SW']],
  CM: [['CM1512341234123412341234123', 'IT'], ['CM2110002000300277976315008', 'SW']],
  CV: [['CV64000300008885500810176', 'IT'], ['CV64000500000020108215144', 'SW']],
  DZ: [['DZ580002100001113000000570', 'IT'], ['DZ580002100001113000000570', 'SW']],
  GA: [['GA2140021010032001890020126', 'IT'], ['GA2142001007341520000106963', 'PI'], ['GA2140002000055602673300064', 'PI']],
  GQ: [['GQ7050002001003715228190196', 'IT'], ['GQ7050002001003715228190196', 'SW']],
  GW: [['GW04GW1430010181800637601', 'IT'], ['GW04GW1430010181800637601', 'PI']],
  IR: [['IR081234123412341234123412', 'IT'], ['IR710570029971601460641001', 'SW'], ['IR190540201180020043831008', 'PI'], ['IR800180000000000829264358', 'PI']],
  KM: [['KM4600005000010010904400137', 'IT'], ['KM4600005000010010904400137', 'SW']],
  MA: [['MA64011519000001205000534921', 'IT'], ['MA64011519000001205000534921', 'PI']],
  MG: [['MG4012341234123412341234123', 'IT'], ['MG4600005030071289421016045', 'SW']],
  ML: [['ML75A12312341234123412341234', 'IT'], ['ML13ML0160120102600100668497', 'SW']],
  MZ: [['MZ97123412341234123412341', 'IT'], ['MZ59000301080016367102371', 'SW']],
  NE: [['NE58NE0380100100130305000268', 'IT'], ['NE58NE0380100100130305000268', 'PI']],
  SN: [['SN08SN0100152000048500003035', 'IT'], ['SN08SN0100152000048500003035', 'SW']],
  TD: [['TD8960002000010271091600153', 'IT'], ['TD8960002000010271091600153', 'SW']],
  TG: [['TG53TG0090604310346500400070', 'IT'], ['TG53TG0090604310346500400070', 'PI']],
};

/**
 * Real account numbers of every country with national check digits, from at least two independent
 * sources each (MR: the registry example is the only published one; both sources carry it).
 */
const NATIONAL_DIGITS: Readonly<Record<string, readonly Row[]>> = {
  BE: [['BE68539007547034', 'IT'], ['BE68539007547034', 'SW']],
  FR: [['FR1420041010050500013M02606', 'IT'], ['FR22200410100505QZABCMGEF65', 'IT'], ['FR3330002005500000157841Z25', 'IT'], ['FR1420041010050500013M02606', 'SN']],
  MC: [['MC5811222000010123456789030', 'IT'], ['MC1112739000700011111000H79', 'IT'], ['MC1112739000700011111000H79', 'SN'], ['MC5811222000010123456789030', 'SW']],
  ES: [['ES9121000418450200051332', 'IT'], ['ES4901825500610201630983', 'IT'], ['ES6000491500051234567892', 'IT'], ['ES9121000418450200051332', 'SN']],
  IT: [['IT60X0542811101000000123456', 'SN'], ['IT18T0538703601000000198036', 'PI'], ['IT94I0306940101100100003599', 'PI'], ['IT63M0335901600100000131525', 'PI']],
  SM: [['SM86U0322509800000000270100', 'SN'], ['SM49J0854009803000551148910', 'PI'], ['SM36H0606709801000000796301', 'PI'], ['SM57A0317809800000010049344', 'PI']],
  PT: [['PT50002600000524218600185', 'IT'], ['PT50000405010020500101441', 'IT'], ['PT50000201231234567890154', 'SN']],
  NO: [['NO9386011117947', 'SN'], ['NO1797500633224', 'PI'], ['NO2370010204168', 'PI'], ['NO8942004151326', 'PI'], ['NO9832271000153', 'PI']],
  EE: [['EE443300338400100007', 'IT'], ['EE901700017000000006', 'IT'], ['EE975500000550008329', 'IT'], ['EE382200221020145685', 'SN']],
  HR: [['HR1210010051863000160', 'IT'], ['HR1210010051863000160', 'SN']],
  CZ: [['CZ6508000000192000145399', 'IT'], ['CZ6508000000192000145399', 'SN']],
  SK: [['SK3112000000198742637541', 'IT'], ['SK3112000000198742637541', 'SN']],
  HU: [['HU42117730161111101800000000', 'IT'], ['HU51100320000122013950000249', 'IT'], ['HU43100320000122032850002447', 'IT'], ['HU90100320000160120200000000', 'IT'], ['HU42117730161111101800000000', 'SN']],
  PL: [['PL10105000997603123456789123', 'IT'], ['PL61109010140000071219812874', 'SN']],
  SI: [['SI56191000000123438', 'IT'], ['SI56051008000032875', 'IT'], ['SI56263300012039086', 'IT'], ['SI56191000000123438', 'SN']],
  ME: [['ME25505000012345678951', 'IT'], ['ME25907000000005800138', 'IT'], ['ME25505000012345678951', 'SN']],
  MK: [['MK07250120000058984', 'IT'], ['MK07500120050057453', 'IT'], ['MK07250120000058984', 'SN']],
  RS: [['RS35260005601001611379', 'IT'], ['RS35260005601001611379', 'SN']],
  BA: [['BA391290079401028494', 'IT'], ['BA391990440001200279', 'IT'], ['BA391290079401028494', 'SN']],
  TL: [['TL380080012345678910157', 'IT'], ['TL380080012345678910157', 'SN']],
  AL: [['AL47212110090000000235698741', 'SN'], ['AL85202110370000000006205792', 'PI'], ['AL4920511021633875CLTJCLALLD', 'PI'], ['AL9421511031ALL1000003739100', 'PI']],
  MR: [['MR1300020001010000123456753', 'SN'], ['MR1300020001010000123456753', 'PI']],
  TN: [['TN5910006035183598478831', 'SN'], ['TN5905037000105500059681', 'PI'], ['TN5901001020111200503889', 'PI'], ['TN5914207207100707129648', 'PI']],
  FI: [['FI2112345600000785', 'IT'], ['FI5542345670000081', 'IT'], ['FI0488000710574083', 'IT'], ['FI2112345600000785', 'SN'], ['FI2480001670522110', 'PI'], ['FI1151050610001888', 'PI']],
};

/** The example IBAN of every country of the SWIFT IBAN Registry, Release 103 (as published in the registry). */
const SWIFT_RELEASE_103_EXAMPLES: readonly string[] = [
  'AD1200012030200359100100', 'AE070331234567890123456', 'AL47212110090000000235698741', 'AT611904300234573201',
  'AZ21NABZ00000000137010001944', 'BA391290079401028494', 'BE68539007547034', 'BG80BNBG96611020345678', 'BH67BMAG00001299123456',
  'BI4210000100010000332045181', 'BR6699999A03000010009795493C1', 'BY13NBRB3600900000002Z00AB00', 'CH9300762011623852957',
  'CR05015202001026284066', 'CY17002001280000001200527600', 'CZ6508000000192000145399', 'DE89370400440532013000',
  'DJ2100010000000154000100186', 'DK5000400440116243', 'DO28BAGR00000001212453611324', 'EE382200221020145685',
  'EG380019000500000000263180002', 'ES9121000418450200051332', 'FI2112345600000785', 'FK88SC123456789012', 'FO6264600001631634',
  'FR1420041010050500013M02606', 'GB29NWBK60161331926819', 'GE29NB0000000101904917', 'GI75NWBK000000007099453',
  'GL8964710001000206', 'GR1601101250000000012300695', 'GT82TRAJ01020000001210029690', 'HN88CABF00000000000250005469',
  'HR1210010051863000160', 'HU42117730161111101800000000', 'IE29AIBK93115212345678', 'IL620108000000099999999',
  'IQ98NBIQ850123456789012', 'IS140159260076545510730339', 'IT60X0542811101000000123456', 'JO94CBJO0010000000000131000302',
  'KW81CBKU0000000000001234560101', 'KZ86125KZT5004100100', 'LB62099900000001001901229114', 'LC55HEMM000100010012001200023015',
  'LI21088100002324013AA', 'LT121000011101001000', 'LU280019400644750000', 'LV80BANK0000435195001', 'LY83002048000020100120361',
  'MC5811222000010123456789030', 'MD24AG000225100013104168', 'ME25505000012345678951', 'MK07250120000058984',
  'MN121234123456789123', 'MR1300020001010000123456753', 'MT84MALT011000012345MTLCAST001S', 'MU17BOMM0101101030300200000MUR',
  'NI45BAPR00000013000003558124', 'NL91ABNA0417164300', 'NO9386011117947', 'OM810180000001299123456', 'PK36SCBL0000001123456702',
  'PL61109010140000071219812874', 'PS92PALS000000000400123456702', 'PT50000201231234567890154', 'QA58DOHB00001234567890ABCDEFG',
  'RO49AAAA1B31007593840000', 'RS35260005601001611379', 'RU0304452522540817810538091310419', 'SA0380000000608010167519',
  'SC18SSCB11010000000000001497USD', 'SD2129010501234001', 'SE4550000000058398257466', 'SI56263300012039086',
  'SK3112000000198742637541', 'SM86U0322509800000000270100', 'SO211000001001000100141', 'ST23000100010051845310146',
  'SV62CENR00000000000000700025', 'TL380080012345678910157', 'TN5910006035183598478831', 'TR330006100519786457841326',
  'UA213223130000026007233566001', 'VA59001123000012345678', 'VG96VPVG0000012345678901', 'XK051212012345678906',
  'YE15CBYE0001018861234567891234',
];

function withCheckDigits(country: string, bban: string): string {
  const cd = 98 - mod97(`${bban}${country}00`);
  return `${country}${String(cd).padStart(2, '0')}${bban}`;
}
function bumpDigit(s: string, i: number): string {
  return s.slice(0, i) + String((Number(s[i]) + 1) % 10) + s.slice(i + 1);
}

describe('national IBAN formats outside the SWIFT registry', () => {
  const national = IBAN_REGISTRY.filter((e) => e.registry === 'national');

  it('every table row names its source; national rows name at least two validators', () => {
    for (const e of IBAN_REGISTRY) assert.ok(e.source.length > 10, e.country);
    for (const e of national) assert.ok(e.source.split(',').length >= 2, `${e.country}: ${e.source}`);
    assert.equal(new Set(IBAN_REGISTRY.map((e) => e.country)).size, IBAN_REGISTRY.length, 'no country twice');
  });

  it('covers every national-format country with published examples, and only those', () => {
    assert.deepEqual(national.map((e) => e.country).sort(), Object.keys(NATIONAL_FORMAT).sort());
  });

  for (const [country, rows] of Object.entries(NATIONAL_FORMAT)) {
    it(`${country}: published IBANs are valid with registry "national"; length, structure and mod-97 are checked`, () => {
      for (const [iban, source] of rows) {
        const r = validateIban(iban);
        assert.deepEqual([r.errors, r.registry], [[], 'national'], `${iban} (${source})`);
      }
      const [iban] = rows[0]!;
      assert.deepEqual(validateIban(bumpDigit(iban, iban.length - 1)).errors, ['INVALID_CHECKSUM']);
      assert.ok(validateIban(withCheckDigits(country, `${iban.slice(4)}1`)).errors.includes('INVALID_LENGTH'));
      // The last BBAN position is a digit in every national format.
      assert.ok(validateIban(withCheckDigits(country, `${iban.slice(4, -1)}A`)).errors.includes('INVALID_STRUCTURE'));
    });
  }

  it('UEMOA bank codes: both the one-letter (A1231…) and the two-letter (SN010…) forms, nothing else alphabetic', () => {
    assert.equal(validateIban(withCheckDigits('SN', 'A12312341234123412341234')).valid, true);
    assert.equal(validateIban(withCheckDigits('SN', 'SN0100152000048500003035')).valid, true);
    assert.deepEqual(validateIban(withCheckDigits('SN', 'SNA100152000048500003035')).errors, ['INVALID_STRUCTURE']);
  });

  it('SWIFT countries say registry "swift"; codes with no IBAN format stay UNSUPPORTED_COUNTRY with registry null', () => {
    assert.equal(validateIban('DE89370400440532013000').registry, 'swift');
    assert.equal(validateIban(withCheckDigits('GP', '20041010050500013M02606')).registry, 'swift');
    for (const code of ['US', 'XX', 'QQ', 'CN']) {
      const r = validateIban(withCheckDigits(code, '12345678901234567890'));
      assert.deepEqual([r.errors, r.registry], [['UNSUPPORTED_COUNTRY'], null], code);
    }
  });

  it('the OpenAPI form of `registry` takes "swift", "national" and null, nothing else', () => {
    const schema = toOpenApiSchema(VopResponseSchema) as { properties: Record<string, object> };
    const check = new Ajv({ strict: false }).compile(schema.properties.registry!);
    assert.deepEqual(['swift', 'national', null, 'SWIFT', ''].map((v) => check(v)), [true, true, true, false, false]);
  });

  it('a valid national-format IBAN is at best NAME_NOT_VERIFIABLE, even when the directory holds it', () => {
    const iban = 'CI93CI0080111301134291200589';
    const directory = loadDirectoryText(`iban,name\n${iban},Kouassi Yao\n`);
    const out = verifyPayee({ iban, beneficiary_name: 'Kouassi Yao' }, directory);
    assert.deepEqual([out.status, out.valid, out.registry, out.name_match.code], ['NAME_NOT_VERIFIABLE', false, 'national', 'NOAP']);
    const bad = verifyPayee({ iban: bumpDigit(iban, 27), beneficiary_name: 'Kouassi Yao' }, directory);
    assert.equal(bad.status, 'INVALID_IBAN_CHECKSUM');
  });
});

describe('SWIFT registry, Release 103', () => {
  it('accepts the example IBAN of each of the 89 countries, with registry "swift" (BR: alphanumeric bank identifier)', () => {
    assert.equal(new Set(SWIFT_RELEASE_103_EXAMPLES.map((e) => e.slice(0, 2))).size, 89);
    for (const iban of SWIFT_RELEASE_103_EXAMPLES) {
      const r = validateIban(iban);
      assert.deepEqual([r.errors, r.registry], [[], 'swift'], iban);
    }
    assert.deepEqual(validateIban(withCheckDigits('BR', '99999A0300001000979549AC1')).errors, ['INVALID_STRUCTURE']);
  });
});

describe('national check digits against real account numbers', () => {
  it('every country with a national check has real IBANs from at least two independent sources', () => {
    for (const country of NATIONAL_CHECKS.keys()) {
      const rows = NATIONAL_DIGITS[country];
      assert.ok(rows, `${country} has vectors`);
      assert.ok(new Set(rows.map((r) => r[1])).size >= 2, `${country}: two sources`);
    }
  });

  for (const [country, rows] of Object.entries(NATIONAL_DIGITS)) {
    it(`${country}: ${rows.length} published IBANs pass every check, national digits included`, () => {
      for (const [iban, source] of rows) assert.deepEqual(validateIban(iban).errors, [], `${iban} (${source})`);
    });
  }
});

describe('Mauritania and Tunisia: the RIB-style key (BBAN ≡ 0 mod 97) fixes the IBAN check digits', () => {
  // With BBAN ≡ 0 (mod 97) the ISO check digits depend on the country code alone: MR13 and TN59,
  // as the registry's examples and every published TN IBAN (php-iban's list) show.
  for (const [country, cd] of [['MR', '13'], ['TN', '59']] as const) {
    it(`${country}: any BBAN with a correct key gives check digits ${cd}; another key fails the national check`, () => {
      let seed = 11;
      for (let k = 0; k < 50; k++) {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        const body = String(seed).padStart(10, '0').repeat(3).slice(0, country === 'MR' ? 21 : 18);
        const key = String(97 - mod97(`${body}00`)).padStart(2, '0').replace(/^97$/, '00');
        const iban = withCheckDigits(country, body + key);
        assert.equal(iban.slice(2, 4), cd, iban);
        assert.deepEqual(validateIban(iban).errors, [], iban);
        assert.deepEqual(validateIban(withCheckDigits(country, body + (key === '01' ? '02' : '01'))).errors, ['INVALID_NATIONAL_CHECK_DIGITS']);
      }
    });
  }
});

describe('Hungary: the account check digit over an 8-digit or a 16-digit account number', () => {
  const table: readonly [string, string, number][] = [
    ['HU42117730161111101800000000', '8-digit account, padded with eight zeros (IT, SN)', 15],
    ['HU90100320000160120200000000', '8-digit account (IT)', 15],
    ['HU51100320000122013950000249', '16-digit account (IT)', 23],
    ['HU69107000246667654851100005', '16-digit account (PI)', 23],
  ];
  for (const [iban, what, checkIndex] of table) {
    it(`${iban}: ${what} passes; its account check digit changed fails only the national check`, () => {
      assert.deepEqual(validateIban(iban).errors, []);
      const broken = withCheckDigits('HU', bumpDigit(iban.slice(4), checkIndex));
      assert.deepEqual(validateIban(broken).errors, ['INVALID_NATIONAL_CHECK_DIGITS'], broken);
    });
  }
});

describe('Finland and Åland: Luhn over the 14-digit machine format, bank groups 1–6 and 8', () => {
  // Group 1/2 (Nordea) and 3x: short form 123456-785 pads after the 6th digit.
  // Groups 4 and 5 (savings, POP, OP): 423456-781 pads after the 7th digit (4234567-81 → 42345670000081).
  const table: readonly [string, string][] = [
    ['FI2112345600000785', 'group 1, zeros after the 6th digit (IT, SN)'],
    ['FI5542345670000081', 'group 4, zeros after the 7th digit (IT)'],
    ['FI1151050610001888', 'group 5 (OP), zeros after the 7th digit (PI)'],
    ['FI8840551020170183', 'group 4 (Aktia 405) (PI)'],
    ['FI2480001670522110', 'group 8 (Danske) (PI)'],
    ['FI3215723000030072', 'group 1 (PI)'],
  ];
  for (const [iban, what] of table) {
    it(`${iban}: ${what} passes; a changed Luhn digit fails only the national check`, () => {
      assert.deepEqual(validateIban(iban).errors, []);
      const broken = withCheckDigits('FI', bumpDigit(iban.slice(4), 13));
      assert.deepEqual(validateIban(broken).errors, ['INVALID_NATIONAL_CHECK_DIGITS'], broken);
      const aland = withCheckDigits('AX', iban.slice(4));
      assert.deepEqual([validateIban(aland).errors, validateIban(aland).registry], [[], 'swift'], aland);
      assert.deepEqual(validateIban(withCheckDigits('AX', bumpDigit(iban.slice(4), 13))).errors, ['INVALID_NATIONAL_CHECK_DIGITS']);
    });
  }

  it('group 7 (payment institutions, foreign banks) is not judged by the domestic Luhn rule: FI68 7982 … (IT) is valid', () => {
    assert.deepEqual(validateIban('FI6879826661004681').errors, []);
    assert.deepEqual(validateIban(withCheckDigits('AX', '79826661004681')).errors, []);
    // mod-97 still catches a changed digit there.
    assert.deepEqual(validateIban(bumpDigit('FI6879826661004681', 10)).errors, ['INVALID_CHECKSUM']);
  });
});
