/**
 * API-138 IBAN validation vs ibantools (peer library), same run, on every vector of
 * eval/data/iban/ (288 strings as pasted: spaces, lower case). Both sides normalise the
 * input and validate; ours also checks national check digits for 24 countries, the national
 * formats outside the SWIFT registry, and lists every failed check. Correctness is asserted before timing. Also times the whole core (directory
 * lookup + name matching) and the seal, to show where a request's time goes.
 */
import { readFileSync } from 'node:fs';
import { Bench } from 'tinybench';
import * as ibantools from 'ibantools';
import { createVopService, verifyPayee } from '../../src/services/sepa-vop/core.ts';
import { DEFAULT_DIRECTORY_PATH, loadDirectoryFile } from '../../src/services/sepa-vop/directory.ts';
import { validateIban } from '../../src/services/sepa-vop/iban.ts';
import { createSealer } from '../../src/services/sepa-vop/seal.ts';
import { printReport } from '../lib/harness.ts';

interface Vector {
  iban: string;
  label: string;
}
const dir = new URL('../../eval/data/iban/', import.meta.url);
const vectors = ['iban_dev.jsonl', 'iban_dev_corrupted.jsonl'].flatMap((f) =>
  readFileSync(new URL(f, dir), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Vector),
);
const inputs = vectors.map((v) => v.iban);

// Correctness before timing.
let oursAgree = 0;
let theirsAgree = 0;
for (const v of vectors) {
  const expected = v.label === 'valid';
  if (validateIban(v.iban).valid === expected) oursAgree++;
  if (ibantools.validateIBAN(ibantools.electronicFormatIBAN(v.iban) ?? '').valid === expected) theirsAgree++;
}
console.assert(oursAgree === vectors.length, `validateIban agrees with every vector (${oursAgree}/${vectors.length})`);

const directory = loadDirectoryFile(DEFAULT_DIRECTORY_PATH);
const service = createVopService({ directory, sealer: createSealer(null), api: '[API-138] SEPA Verification of Payee' });
const requests = [
  { iban: 'DE89 3704 0044 0532 0130 00', beneficiary_name: 'Max Mustermann' },
  { iban: 'DE89370400440532013000', beneficiary_name: 'M. Mustermann' },
  { iban: 'CZ65 0800 0000 1920 0014 5399', beneficiary_name: 'Acme a.s.' },
  { iban: 'GB33BUKB20201555555555', beneficiary_name: 'Jane Doe' },
];
console.assert(verifyPayee(requests[0]!, directory).status === 'SUCCESS_VERIFIED', 'first request verifies');

let sink = 0;
const bench = new Bench({ time: 1500, warmupTime: 300 });
bench
  .add('validateIban (ours), 288 vectors', () => {
    for (const s of inputs) sink += validateIban(s).errors.length;
  })
  .add('ibantools electronicFormatIBAN + validateIBAN, 288 vectors', () => {
    for (const s of inputs) sink += ibantools.validateIBAN(ibantools.electronicFormatIBAN(s) ?? '').errorCodes.length;
  })
  .add('verifyPayee core (IBAN + BIC + directory + names), 4 requests', () => {
    for (const r of requests) sink += verifyPayee(r, directory).name_match.score;
  })
  .add('verify + seal (Ed25519), 4 requests', () => {
    for (const r of requests) sink += service.verify(r, 'bench').audit_seal.signature.length;
  });
await bench.run();
if (sink === -1) console.log(sink);

const stat = (name: string) => {
  const t = bench.tasks.find((x) => x.name === name)!;
  return t.result as unknown as { latency: { mean: number; p50?: number; p99?: number }; throughput: { mean: number } };
};
const per = (name: string): number => (name.includes('288') ? inputs.length : requests.length);
const rows = bench.tasks.map((t) => {
  const r = stat(t.name);
  const n = per(t.name);
  return {
    label: t.name,
    opsPerSec: r.throughput.mean * n,
    p50Ms: (r.latency.p50 ?? r.latency.mean) / n,
    p99Ms: (r.latency.p99 ?? r.latency.mean) / n,
    extra: { 'µs per item': (1e6 / (r.throughput.mean * n)).toFixed(2) },
  };
});
const ours = stat('validateIban (ours), 288 vectors').throughput.mean;
const theirs = stat('ibantools electronicFormatIBAN + validateIBAN, 288 vectors').throughput.mean;
printReport({
  name: 'API-138 IBAN validation vs ibantools (eval vectors, per IBAN)',
  service: 'API-138',
  rows,
  ratios: { 'ours / ibantools (IBANs per second)': ours / theirs },
  notes: [
    `agreement with the eval labels (validity): ours ${oursAgree}/${vectors.length}, ibantools ${theirsAgree}/${vectors.length}`,
    'ours also checks national check digits (24 countries) and reports every failed check; ibantools checks national digits for fewer countries',
  ],
});
