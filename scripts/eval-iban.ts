/**
 * npm run eval:iban [-- --file F ... | --dir D]: agreement of API-138's IBAN validation with
 * labelled IBAN vectors (JSON Lines). Default: eval/data/iban/iban_dev.jsonl and
 * iban_dev_corrupted.jsonl. `--file` may repeat; `--dir` takes every *.jsonl of D.
 *
 * A record needs `iban` (string) and `label` (`valid`/`invalid`); `reason` (checksum, length,
 * format, unknown_country, country_specific_rule), `source` (or `dataset`) and `registry` are
 * optional. Records without a usable `iban` or `label` are skipped and counted by cause.
 *
 * A vector agrees when the validity matches its label and, for an invalid one with a reason, the
 * status class matches it (checksum → INVALID_IBAN_CHECKSUM; length, format → INVALID_IBAN_FORMAT;
 * unknown_country → UNSUPPORTED_COUNTRY; country_specific_rule → INVALID_IBAN_CHECKSUM with the
 * national check digits failed). Countries with a national IBAN format outside the SWIFT registry
 * are validated like registry countries (CONTRACT.md API-138), so their labels count as they are.
 *
 * Prints pooled numbers, then per source and per registry (`swift`, `national`, `none` as our table
 * classifies the country), and every disagreement. Exits 1 when any vector disagrees.
 * `--peer` adds ibantools' validity agreement on the same vectors beside ours (a disagreement
 * check against a peer validator; ibantools is a devDependency).
 */
import { jsonObjects } from './lib/jsonl.ts';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ibanStatus } from '../src/services/sepa-vop/core.ts';
import { validateIban } from '../src/services/sepa-vop/iban.ts';

const argv = process.argv.slice(2);
const peerIndex = argv.indexOf('--peer');
if (peerIndex >= 0) argv.splice(peerIndex, 1);
const peer = peerIndex >= 0 ? await import('ibantools') : null;
/** ibantools' verdict on the same string (its own normalisation: spaces and hyphens removed). */
const peerValid = (raw: string): boolean => peer !== null && peer.validateIBAN(peer.electronicFormatIBAN(raw) ?? '').valid;

const EXPECTED_STATUS: Readonly<Record<string, string>> = {
  checksum: 'INVALID_IBAN_CHECKSUM',
  length: 'INVALID_IBAN_FORMAT',
  format: 'INVALID_IBAN_FORMAT',
  unknown_country: 'UNSUPPORTED_COUNTRY',
  country_specific_rule: 'INVALID_IBAN_CHECKSUM',
};

function parseArgs(argv: readonly string[]): string[] {
  const files: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = argv[i + 1];
    if ((a === '--file' || a === '--dir') && value === undefined) throw new Error(`${a} needs a path`);
    if (a === '--file') files.push(argv[++i]!);
    else if (a === '--dir') {
      const dir = argv[++i]!;
      for (const f of readdirSync(dir).filter((n) => n.endsWith('.jsonl')).sort()) files.push(path.join(dir, f));
    } else if (!a.startsWith('--')) {
      // Older form: a bare directory.
      for (const f of readdirSync(a).filter((n) => n.endsWith('.jsonl')).sort()) files.push(path.join(a, f));
    } else throw new Error(`unknown option ${a} (use --file F or --dir D)`);
  }
  if (files.length > 0) return files;
  const dir = new URL('../eval/data/iban/', import.meta.url).pathname;
  return ['iban_dev.jsonl', 'iban_dev_corrupted.jsonl'].map((f) => path.join(dir, f));
}

interface Tally {
  n: number;
  agree: number;
}
const bump = (m: Map<string, Tally>, key: string, ok: boolean): void => {
  const t = m.get(key) ?? { n: 0, agree: 0 };
  t.n++;
  if (ok) t.agree++;
  m.set(key, t);
};
const pct = (t: Tally): string => `${t.agree}/${t.n} = ${t.n === 0 ? '-' : ((100 * t.agree) / t.n).toFixed(2)}%`;

const pooled: Tally = { n: 0, agree: 0 };
const peerPooled: Tally = { n: 0, agree: 0 };
const peerPerSource = new Map<string, Tally>();
const perSource = new Map<string, Tally>();
const perRegistry = new Map<string, Tally>();
const perFile = new Map<string, Tally>();
const skipped = new Map<string, number>();
const disagreements: string[] = [];
const skip = (why: string): void => void skipped.set(why, (skipped.get(why) ?? 0) + 1);

for (const file of parseArgs(argv)) {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    console.error(`${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    process.exitCode = 2;
    continue;
  }
  for (const { record: v } of jsonObjects(text, skip)) {
    if (typeof v.iban !== 'string') {
      skip('iban missing or not a string');
      continue;
    }
    if (v.label !== 'valid' && v.label !== 'invalid') {
      skip('label missing or not valid/invalid');
      continue;
    }
    const reason = typeof v.reason === 'string' ? v.reason : null;
    const source = typeof v.source === 'string' ? v.source : typeof v.dataset === 'string' ? v.dataset : '(no source)';
    const r = validateIban(v.iban);
    const status = r.valid ? 'VALID' : ibanStatus(r.errors);
    const expected = v.label === 'valid' ? 'VALID' : reason !== null && EXPECTED_STATUS[reason] !== undefined ? EXPECTED_STATUS[reason]! : 'INVALID';
    let ok = expected === 'INVALID' ? !r.valid : status === expected;
    if (ok && reason === 'country_specific_rule') ok = r.errors.includes('INVALID_NATIONAL_CHECK_DIGITS');
    pooled.n++;
    if (ok) pooled.agree++;
    bump(perSource, source, ok);
    bump(perRegistry, r.registry ?? 'none', ok);
    bump(perFile, path.basename(file), ok);
    if (peer !== null) {
      const peerOk = peerValid(v.iban) === (v.label === 'valid');
      peerPooled.n++;
      if (peerOk) peerPooled.agree++;
      bump(peerPerSource, source, peerOk);
    }
    if (!ok) disagreements.push(`  ${v.iban} (${source}; label ${v.label}${reason ? `/${reason}` : ''}): got ${status} [${r.errors.join(', ')}], expected ${expected}`);
  }
}

console.log(`pooled: agreement ${pct(pooled)} (validity, and status class where a reason is given)`);
const table = (title: string, m: Map<string, Tally>): void => {
  console.log(`${title}:`);
  for (const [k, t] of [...m].sort((a, b) => b[1].n - a[1].n)) console.log(`  ${k.padEnd(44)} ${pct(t)}`);
};
if (peer !== null) console.log(`peer ibantools (validity only): ${pct(peerPooled)}`);
table('per file', perFile);
table('per source', perSource);
if (peer !== null) table('per source, peer ibantools (validity only)', peerPerSource);
table('per registry (our table: swift, national, none)', perRegistry);
const skippedTotal = [...skipped.values()].reduce((a, b) => a + b, 0);
console.log(`skipped: ${skippedTotal}${skippedTotal ? ` (${[...skipped].map(([k, n]) => `${n} ${k}`).join('; ')})` : ''}`);
if (disagreements.length > 0) console.log(`disagreements:\n${disagreements.join('\n')}`);
if (pooled.agree !== pooled.n && process.exitCode === undefined) process.exitCode = 1;
