/**
 * npm run audit:verify -- AUDIT_LOG_FILE [--head sha256:…]
 *
 * Verifies the hash chain of an API-138 audit log (AUDIT_LOG): every record's hash, `prev` links
 * and consecutive `seq`. Any edited, removed, inserted or reordered record fails with its line
 * number. Records cut off the end leave a shorter valid chain: pass the head hash you kept
 * elsewhere with --head to detect that too. Exit 0 = intact, 1 = tampered, 2 = usage error.
 */
import { readFileSync } from 'node:fs';
import { verifyAuditLog } from '../src/services/sepa-vop/audit-log.ts';

function usage(message: string): never {
  console.error(`${message}\nusage: npm run audit:verify -- AUDIT_LOG_FILE [--head sha256:...]`);
  process.exit(2);
}

const args = process.argv.slice(2);
let file: string | undefined;
let expectedHead: string | undefined;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--head') expectedHead = args[++i] ?? usage('--head needs a hash');
  else if (file === undefined) file = args[i];
  else usage(`unexpected argument ${args[i]}`);
}
if (file === undefined) usage('missing AUDIT_LOG_FILE');
let text: string;
try {
  text = readFileSync(file, 'utf8');
} catch (err) {
  usage(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
}
const verdict = verifyAuditLog(text);
if (!verdict.ok) {
  console.log(`FAILED at line ${verdict.line}: ${verdict.reason} (${verdict.records} records verified before it)`);
  process.exitCode = 1;
} else if (expectedHead !== undefined && verdict.head !== expectedHead) {
  console.log(`FAILED: the chain is intact but its head ${verdict.head} is not the expected ${expectedHead} (records cut off or appended)`);
  process.exitCode = 1;
} else {
  console.log(`OK: ${verdict.records} records, chain intact, head ${verdict.head}`);
}
