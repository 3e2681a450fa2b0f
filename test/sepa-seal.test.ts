/** API-138 audit seal: RFC 8785 canonical JSON, Ed25519 seal, verify-seal CLI, hash-chained audit log. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { GENESIS_HASH, openAuditLog, verifyAuditLog } from '../src/services/sepa-vop/audit-log.ts';
import { canonicalize } from '../src/services/sepa-vop/canonical-json.ts';
import { createVopService } from '../src/services/sepa-vop/core.ts';
import { loadDirectoryFile, DEFAULT_DIRECTORY_PATH } from '../src/services/sepa-vop/directory.ts';
import { createSealer, jwkThumbprint, parseSigningKey, sealDigest, verifySealedBody } from '../src/services/sepa-vop/seal.ts';

const run = promisify(execFile);
const ROOT = new URL('..', import.meta.url).pathname;
const LABEL = '[API-138] SEPA Verification of Payee';

describe('RFC 8785 canonical JSON', () => {
  const table: [unknown, string][] = [
    [{ b: 2, a: 1 }, '{"a":1,"b":2}'],
    [{ a: [3, { d: null, c: true }] }, '{"a":[3,{"c":true,"d":null}]}'],
    // RFC 8785 §3.2.3 sorts by UTF-16 code units: "\u20ac" (Euro) < "\ud83d\ude00" (emoji) < "\ufb33".
    [{ '\ufb33': 3, '\ud83d\ude00': 2, '\u20ac': 1, '1': 0 }, '{"1":0,"\u20ac":1,"\ud83d\ude00":2,"\ufb33":3}'],
    // Numbers: ECMAScript shortest form (RFC 8785 appendix B samples).
    [[1e21, 1e-7, 333333333.3333333, -0, 4.5, 1e23, 0.000001], '[1e+21,1e-7,333333333.3333333,0,4.5,1e+23,0.000001]'],
    ['\u0000\n"\\\u001f\u2028é', '"\\u0000\\n\\"\\\\\\u001f\u2028é"'],
    [{ skip: undefined, keep: 'x' }, '{"keep":"x"}'],
  ];
  for (const [value, expected] of table) {
    it(`canonicalizes ${expected}`, () => assert.equal(canonicalize(value), expected));
  }
  it('refuses values JSON cannot carry', () => {
    assert.throws(() => canonicalize({ a: Number.NaN }), TypeError);
    assert.throws(() => canonicalize({ a: 1n }), TypeError);
  });
});

function sealedResponse(sealer = createSealer(null)): { body: Record<string, unknown>; jwks: { keys: unknown[] } } {
  const service = createVopService({ directory: loadDirectoryFile(DEFAULT_DIRECTORY_PATH), sealer, api: LABEL, now: () => '2026-01-02T03:04:05.678Z' });
  const fields = service.verify({ iban: 'DE89 3704 0044 0532 0130 00', beneficiary_name: 'Max Mustermann' }, 'req-1');
  // The wire body as the adapter writes it.
  const body = JSON.parse(JSON.stringify({ success: true, api: LABEL, ...fields, latency_ms: 0.123 })) as Record<string, unknown>;
  return { body, jwks: { keys: [sealer.jwk] } };
}

describe('audit seal', () => {
  it('signs the body with success, api and signed_at, and without audit_seal and latency_ms', () => {
    const { body, jwks } = sealedResponse();
    const seal = body.audit_seal as Record<string, string>;
    assert.equal(body.signed_at, seal.signed_at);
    assert.equal(body.dora_audit_signed, true);
    const { audit_seal: _s, latency_ms: _l, ...signed } = body;
    assert.equal(signed.success, true);
    assert.equal(signed.api, LABEL);
    assert.match(seal.digest!, /^sha256:[0-9a-f]{64}$/);
    assert.equal(seal.digest, sealDigest(body));
    assert.match(seal.signature!, /^[A-Za-z0-9_-]{86}$/);
    assert.deepEqual(verifySealedBody(body, jwks), { ok: true, kid: seal.kid });
  });

  it('does not depend on key order or latency_ms', () => {
    const { body, jwks } = sealedResponse();
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    reordered.latency_ms = 99;
    assert.equal(verifySealedBody(reordered, jwks).ok, true);
  });

  it('fails when any single character of the saved response changes', () => {
    const { body, jwks } = sealedResponse();
    const text = JSON.stringify(body);
    const flips: [string, string][] = [
      ['"SUCCESS_VERIFIED"', '"SUCCESS_VERIFIEE"'],
      ['DE89370400440532013000', 'DE89370400440532013001'],
      ['"country":"DE"', '"country":"DF"'],
      ['"score":1', '"score":0'],
      ['EPC042-25', 'EPC042-26'],
      ['"signed_at":"2026-01-02T03:04:05.678Z","audit', '"signed_at":"2026-01-02T03:04:06.678Z","audit'],
      ['"code":"MTCH"', '"code":"MTCI"'],
      ['"valid":true', '"valid":1'],
      [`"api":"${LABEL}"`, `"api":"${LABEL.replace('138', '139')}"`],
    ];
    for (const [from, to] of flips) {
      assert.ok(text.includes(from), from);
      assert.equal(verifySealedBody(JSON.parse(text.replace(from, to)), jwks).ok, false, `${from} → ${to}`);
    }
    // Signature itself.
    const seal = body.audit_seal as Record<string, string>;
    const sig = seal.signature!;
    const badSig = { ...body, audit_seal: { ...seal, signature: (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1) } };
    assert.equal(verifySealedBody(badSig, jwks).ok, false);
  });

  it('fails with another key, or a JWKS whose kid is not the thumbprint', () => {
    const { body } = sealedResponse();
    const other = createSealer(null);
    assert.equal(verifySealedBody(body, { keys: [other.jwk] }).ok, false);
    const seal = body.audit_seal as Record<string, string>;
    assert.equal(verifySealedBody(body, { keys: [{ ...other.jwk, kid: seal.kid }] }).ok, false);
  });

  it('uses the RFC 7638 thumbprint as kid and a PKCS#8 key from AUDIT_SIGNING_KEY', () => {
    // RFC 8037 appendix A.3: thumbprint of its Ed25519 example key.
    assert.equal(jwkThumbprint('11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo'), 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k');
    const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const a = createSealer(parseSigningKey(pem));
    const b = createSealer(parseSigningKey(pem.replace(/\n/g, '\\n')));
    assert.equal(a.kid, b.kid);
    assert.equal(a.ephemeral, false);
    assert.throws(() => parseSigningKey('not a key'), /AUDIT_SIGNING_KEY/);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    assert.throws(() => parseSigningKey(rsa), /AUDIT_SIGNING_KEY: expected an Ed25519 key/);
  });

  it('npm run verify-seal exits 0 on a saved response and 1 after one character is flipped', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'seal-'));
    const { body, jwks } = sealedResponse();
    const file = path.join(dir, 'response.json');
    const jwksFile = path.join(dir, 'jwks.json');
    writeFileSync(file, JSON.stringify(body));
    writeFileSync(jwksFile, JSON.stringify(jwks));
    const ok = await run(process.execPath, ['--import', 'tsx', 'scripts/verify-seal.ts', file, '--jwks', jwksFile], { cwd: ROOT });
    assert.match(ok.stdout, /^OK/);
    const text = JSON.stringify(body);
    assert.ok(text.includes('DE89370400440532013000'));
    writeFileSync(file, text.replace('DE89370400440532013000', 'DE89370400440532013001'));
    await assert.rejects(run(process.execPath, ['--import', 'tsx', 'scripts/verify-seal.ts', file, '--jwks', jwksFile], { cwd: ROOT }), (err: { code: number; stdout: string }) => {
      assert.equal(err.code, 1);
      assert.match(err.stdout, /FAILED: digest mismatch/);
      return true;
    });
  });
});

describe('hash-chained audit log', () => {
  async function writeLog(n: number): Promise<string> {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'audit-')), 'audit.log');
    const log = openAuditLog(file, (err) => assert.fail(err));
    for (let i = 0; i < n; i++) log.append({ time: `2026-01-01T00:00:0${i}.000Z`, requestId: `r${i}`, kid: 'k', digest: `sha256:${String(i).repeat(64).slice(0, 64)}` });
    await log.close();
    return file;
  }

  it('chains records from the genesis hash and holds no IBAN or name', async () => {
    const file = await writeLog(3);
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.equal(lines.length, 3);
    assert.equal(lines[0]!.prev, GENESIS_HASH);
    assert.equal(lines[1]!.prev, lines[0]!.hash);
    assert.deepEqual(Object.keys(lines[0]!).sort(), ['digest', 'hash', 'kid', 'prev', 'request_id', 'seq', 'time']);
    assert.deepEqual(verifyAuditLog(readFileSync(file, 'utf8')), { ok: true, records: 3, head: lines[2]!.hash });
  });

  it('continues the chain after a restart and refuses to extend a tampered file', async () => {
    const file = await writeLog(2);
    const again = openAuditLog(file, (err) => assert.fail(err));
    again.append({ time: '2026-01-01T00:00:09.000Z', requestId: 'r9', kid: 'k', digest: `sha256:${'a'.repeat(64)}` });
    await again.close();
    assert.equal(verifyAuditLog(readFileSync(file, 'utf8')).ok, true);
    writeFileSync(file, readFileSync(file, 'utf8').replace('"r0"', '"rX"'));
    assert.throws(() => openAuditLog(file, () => {}), /AUDIT_LOG: existing log fails verification at line 1/);
  });

  const tamper: [string, (lines: string[]) => string[], number][] = [
    ['an edited record', (l) => l.map((x, i) => (i === 2 ? x.replace('"r2"', '"r7"') : x)), 3],
    ['a removed record', (l) => l.filter((_, i) => i !== 1), 2],
    ['two swapped records', (l) => [l[0]!, l[2]!, l[1]!, l[3]!], 2],
    ['an edited digest', (l) => l.map((x, i) => (i === 3 ? x.replace(/sha256:3/, 'sha256:4') : x)), 4],
  ];
  for (const [why, edit, line] of tamper) {
    it(`npm run audit:verify detects ${why} (line ${line})`, async () => {
      const file = await writeLog(4);
      const lines = readFileSync(file, 'utf8').trim().split('\n');
      writeFileSync(file, `${edit(lines).join('\n')}\n`);
      const v = verifyAuditLog(readFileSync(file, 'utf8'));
      assert.equal(v.ok, false);
      assert.equal(!v.ok && v.line, line);
      await assert.rejects(run(process.execPath, ['--import', 'tsx', 'scripts/audit-verify.ts', file], { cwd: ROOT }), (err: { code: number; stdout: string }) => {
        assert.equal(err.code, 1);
        assert.match(err.stdout, new RegExp(`FAILED at line ${line}`));
        return true;
      });
    });
  }

  it('npm run audit:verify accepts an intact log and checks an expected head', async () => {
    const file = await writeLog(4);
    const ok = await run(process.execPath, ['--import', 'tsx', 'scripts/audit-verify.ts', file], { cwd: ROOT });
    assert.match(ok.stdout, /^OK: 4 records/);
    const head = verifyAuditLog(readFileSync(file, 'utf8'));
    assert.ok(head.ok);
    // Cutting the last record leaves a valid chain; the kept head exposes it.
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    writeFileSync(file, `${lines.slice(0, 3).join('\n')}\n`);
    await assert.rejects(run(process.execPath, ['--import', 'tsx', 'scripts/audit-verify.ts', file, '--head', head.head], { cwd: ROOT }), { code: 1 });
  });
});
