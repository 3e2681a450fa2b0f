/**
 * npm run verify-seal -- RESPONSE.json [--jwks JWKS.json | --jwks http://host:port/v1/audit/keys]
 *
 * Checks the audit seal of a saved API-138 response body against a JWKS (default:
 * http://127.0.0.1:8080/v1/audit/keys, the local gateway). Exit 0 = the seal verifies,
 * 1 = it does not (body altered, wrong key, bad signature), 2 = usage or input error.
 */
import { readFileSync } from 'node:fs';
import { verifySealedBody } from '../src/services/sepa-vop/seal.ts';

const DEFAULT_JWKS = 'http://127.0.0.1:8080/v1/audit/keys';

function usage(message: string): never {
  console.error(`${message}\nusage: npm run verify-seal -- RESPONSE.json [--jwks FILE|URL]`);
  process.exit(2);
}

const args = process.argv.slice(2);
let file: string | undefined;
let jwksSource = DEFAULT_JWKS;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--jwks') jwksSource = args[++i] ?? usage('--jwks needs a file or URL');
  else if (file === undefined) file = args[i];
  else usage(`unexpected argument ${args[i]}`);
}
if (file === undefined) usage('missing RESPONSE file');

async function readJson(source: string): Promise<unknown> {
  if (/^https?:\/\//.test(source)) {
    const res = await fetch(source);
    if (!res.ok) throw new Error(`GET ${source}: HTTP ${res.status}`);
    return res.json();
  }
  return JSON.parse(readFileSync(source, 'utf8'));
}

let body: unknown;
let jwks: unknown;
try {
  body = JSON.parse(readFileSync(file, 'utf8'));
} catch (err) {
  usage(`cannot read ${file} as JSON: ${(err as Error).message}`);
}
try {
  jwks = await readJson(jwksSource);
} catch (err) {
  usage(`cannot read the JWKS from ${jwksSource}: ${(err as Error).message}`);
}
const verdict = verifySealedBody(body, (jwks ?? {}) as { keys?: unknown });
if (verdict.ok) {
  console.log(`OK: seal verifies (kid ${verdict.kid})`);
} else {
  console.log(`FAILED: ${verdict.reason}`);
  process.exitCode = 1;
}
