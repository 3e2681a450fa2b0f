/**
 * npm run eval:iban [-- DIR]: agreement of API-138's IBAN validation with the labelled vectors of
 * eval/data/iban/ (iban_dev.jsonl, iban_dev_corrupted.jsonl, or every *.jsonl of DIR).
 *
 * A vector agrees when the validity matches its label and the status matches its reason
 * (checksum → INVALID_IBAN_CHECKSUM; length, format → INVALID_IBAN_FORMAT; unknown_country →
 * UNSUPPORTED_COUNTRY; country_specific_rule → INVALID_IBAN_CHECKSUM with national check digits
 * failed). Policy for `registry: outside_swift_registry` vectors (African "experimental" IBANs):
 * a country that is not in the SWIFT registry is UNSUPPORTED_COUNTRY, so that is what agrees; the
 * script also reports how many of them pass the generic ISO 7064 check, and the raw agreement
 * with the labels. Exits 1 when agreement is below 100%.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ibanStatus } from '../src/services/sepa-vop/core.ts';
import { isIbanCountry, validateIban } from '../src/services/sepa-vop/iban.ts';

interface Vector {
  iban: string;
  label: 'valid' | 'invalid';
  reason: string | null;
  country: string;
  registry: string;
}

const EXPECTED_STATUS: Record<string, string> = {
  checksum: 'INVALID_IBAN_CHECKSUM',
  length: 'INVALID_IBAN_FORMAT',
  format: 'INVALID_IBAN_FORMAT',
  unknown_country: 'UNSUPPORTED_COUNTRY',
  country_specific_rule: 'INVALID_IBAN_CHECKSUM',
};

const dir = process.argv[2] ?? new URL('../eval/data/iban/', import.meta.url).pathname;
const files = process.argv[2] ? readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort() : ['iban_dev.jsonl', 'iban_dev_corrupted.jsonl'];

let allAgree = true;
for (const file of files) {
  const vectors = readFileSync(path.join(dir, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Vector);
  let agree = 0;
  let rawAgree = 0;
  let outside = 0;
  let outsideGeneric = 0;
  let outsideValid = 0;
  const disagreements: string[] = [];
  for (const v of vectors) {
    const r = validateIban(v.iban);
    const status = r.valid ? 'VALID' : ibanStatus(r.errors);
    const policyOutside = v.registry === 'outside_swift_registry' && !isIbanCountry(r.country);
    let expected: string;
    if (policyOutside) {
      outside++;
      if (v.label === 'valid') outsideValid++;
      if (v.label === 'valid' && !r.errors.includes('INVALID_CHECKSUM') && !r.errors.includes('INVALID_STRUCTURE')) outsideGeneric++;
      expected = 'UNSUPPORTED_COUNTRY';
    } else {
      expected = v.label === 'valid' ? 'VALID' : EXPECTED_STATUS[v.reason ?? ''] ?? 'INVALID';
    }
    let ok = status === expected;
    if (ok && v.reason === 'country_specific_rule') ok = r.errors.includes('INVALID_NATIONAL_CHECK_DIGITS');
    if (ok) agree++;
    else disagreements.push(`  ${v.iban} (label ${v.label}${v.reason ? `/${v.reason}` : ''}): got ${status} [${r.errors.join(', ')}], expected ${expected}`);
    if (r.valid === (v.label === 'valid')) rawAgree++;
  }
  const pct = (n: number): string => `${((100 * n) / vectors.length).toFixed(1)}%`;
  console.log(`${file}: agreement ${agree}/${vectors.length} = ${pct(agree)} (validity and status class)`);
  if (outside > 0) {
    console.log(`  outside the SWIFT registry: ${outside} vectors answered UNSUPPORTED_COUNTRY (policy); ${outsideGeneric}/${outsideValid} of those labelled valid pass the generic ISO 7064 mod-97 check`);
    console.log(`  raw label agreement (counting those as their label): ${rawAgree}/${vectors.length} = ${pct(rawAgree)}`);
  }
  for (const d of disagreements) console.log(d);
  if (agree !== vectors.length) allAgree = false;
}
process.exitCode = allAgree ? 0 : 1;
