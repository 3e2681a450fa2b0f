/** API-138 BIC checks and the payee directory (CSV loading, malformed rows with line numbers). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkBic } from '../src/services/sepa-vop/bic.ts';
import { DEFAULT_DIRECTORY_PATH, DirectoryError, loadDirectoryFile, loadDirectoryText, parseCsv } from '../src/services/sepa-vop/directory.ts';

describe('BIC (ISO 9362)', () => {
  const table: [string, string | undefined, boolean, string?][] = [
    ['COBADEFFXXX', 'DE', true],
    ['COBADEFF', 'DE', true],
    ['cobadeff xxx', 'DE', true],
    ['DEUTDEDB110', 'DE', true],
    ['BNPAFRPP', 'FR', true],
    ['BNPAFRPP', 'GP', true],
    ['BNPAFRPP', 'RE', true],
    ['BNPAFRPP', 'MQ', true],
    ['BFCORERX', 'FR', true],
    ['AABAFI22', 'AX', true],
    ['DABADKKK', 'FO', true],
    ['COBADEFF', 'FR', false, 'BIC_COUNTRY_MISMATCH'],
    ['BNPAFRPP', 'MC', false, 'BIC_COUNTRY_MISMATCH'],
    ['COBADEFFXX', 'DE', false, 'INVALID_BIC_FORMAT'],
    ['COBADEF', 'DE', false, 'INVALID_BIC_FORMAT'],
    ['COBA1EFF', 'DE', false, 'INVALID_BIC_FORMAT'],
    ['COBADEFF-XX', 'DE', false, 'INVALID_BIC_FORMAT'],
    ['COBAQQFF', undefined, false, 'UNKNOWN_BIC_COUNTRY'],
    ['COBADEFF', undefined, true],
  ];
  for (const [bic, country, valid, error] of table) {
    it(`${bic} with an IBAN of ${country ?? '(none)'} → ${valid ? 'valid' : error}`, () => {
      const r = checkBic(bic, country);
      assert.equal(r.valid, valid);
      assert.equal(r.error, error);
    });
  }
});

describe('CSV parsing', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, and reports start lines', () => {
    const recs = parseCsv('iban,name\r\nA,"Smith, John"\n\nB,"say ""hi""\nthere"\nC,plain\n');
    assert.deepEqual(
      recs.map((r) => [r.line, r.fields]),
      [
        [1, ['iban', 'name']],
        [2, ['A', 'Smith, John']],
        [4, ['B', 'say "hi"\nthere']],
        [6, ['C', 'plain']],
      ],
    );
  });
  it('flags an unterminated quote', () => {
    const recs = parseCsv('iban,name\nA,"open\n');
    assert.equal(recs[1]!.error, 'unterminated quoted field');
  });
});

describe('payee directory', () => {
  it('loads the shipped synthetic directory with closed accounts and BICs', () => {
    const dir = loadDirectoryFile(DEFAULT_DIRECTORY_PATH);
    assert.ok(dir.size >= 20);
    assert.equal(dir.get('DE89370400440532013000')?.name.original, 'Max Mustermann');
    assert.equal(dir.get('DE89370400440532013000')?.bic, 'COBADEFFXXX');
    assert.equal(dir.get('LU280019400644750000')?.closed, true);
  });

  it('accepts IBANs in any spacing, columns in any order, and optional columns', () => {
    const dir = loadDirectoryText('name,IBAN\n"Mustermann, Max",de89 3704-0044.0532 0130 00\n');
    assert.equal(dir.get('DE89370400440532013000')?.name.original, 'Mustermann, Max');
    assert.equal(dir.get('DE89370400440532013000')?.closed, false);
    assert.equal(dir.get('DE89370400440532013000')?.bic, null);
  });

  const bad: [string, string, number[]][] = [
    ['invalid IBAN', 'iban,name\nDE89370400440532013000,Max\nDE00370400440532013000,Erika\n', [3]],
    ['empty name', 'iban,name\nDE89370400440532013000,  \n', [2]],
    ['wrong field count', 'iban,name\nDE89370400440532013000,Max,extra\n', [2]],
    ['duplicate IBAN', 'iban,name\nDE89370400440532013000,Max\nDE89 3704 0044 0532 0130 00,Max\n', [3]],
    ['bad closed flag', 'iban,name,closed\nDE89370400440532013000,Max,maybe\n', [2]],
    ['BIC of another country', 'iban,name,bic\nDE89370400440532013000,Max,BNPAFRPP\n', [2]],
    ['several bad rows', 'iban,name\nx,Max\nGB82WEST12345698765432,Jane\n\ny,\n', [2, 5]],
    ['missing header columns', 'account,holder\nDE89370400440532013000,Max\n', [1]],
  ];
  for (const [why, text, lines] of bad) {
    it(`reports a malformed directory (${why}) with line numbers ${lines.join(', ')} and no row content`, () => {
      assert.throws(
        () => loadDirectoryText(text),
        (err: unknown) => {
          assert.ok(err instanceof DirectoryError);
          assert.deepEqual([...err.lines], lines);
          for (const l of lines) assert.match(err.message, new RegExp(`line ${l}\\b`));
          assert.doesNotMatch(err.message, /Max|Erika|Jane|DE89|DE00/);
          return true;
        },
      );
    });
  }
});
