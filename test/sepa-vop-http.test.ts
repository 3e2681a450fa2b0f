/** API-138 over real sockets: both routes, statuses, validation, JWKS, configured key/directory/log, zero retention. */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { verifyAuditLog } from '../src/services/sepa-vop/audit-log.ts';
import { sepaVopFactory } from '../src/services/sepa-vop/index.ts';
import { verifySealedBody } from '../src/services/sepa-vop/seal.ts';
import { startTestGateway, type TestGateway } from './helpers/gateway.ts';

const LABEL = '[API-138] SEPA Verification of Payee';
const ROUTES = ['/v1/sepa/vop', '/v1/api/138-sepa-vop'];
const gateway = { factories: [sepaVopFactory] };

type Body = Record<string, unknown> & { name_match: Record<string, unknown>; audit_seal: Record<string, unknown> };

describe('API-138 over HTTP (shipped directory, generated key)', () => {
  let gw: TestGateway;
  let jwks: { keys: Record<string, unknown>[] };
  before(async () => {
    gw = await startTestGateway({ gateway });
    jwks = (await (await gw.get('/v1/audit/keys')).json()) as typeof jwks;
  });
  after(() => gw.close());

  it('publishes the JWKS at GET /v1/audit/keys with the envelope and no api label', async () => {
    const res = await gw.get('/v1/audit/keys');
    assert.equal(res.status, 200);
    const body = (await res.json()) as Record<string, unknown> & { keys: Record<string, unknown>[] };
    assert.equal(body.success, true);
    assert.equal(body.api, undefined);
    assert.equal(typeof body.latency_ms, 'number');
    assert.equal(body.keys.length, 1);
    assert.deepEqual(Object.keys(body.keys[0]!).sort(), ['alg', 'crv', 'kid', 'kty', 'use', 'x']);
    assert.deepEqual({ ...body.keys[0], x: undefined, kid: undefined }, { kty: 'OKP', crv: 'Ed25519', use: 'sig', alg: 'EdDSA', x: undefined, kid: undefined });
  });

  const cases: [string, Record<string, unknown>, string, string, boolean][] = [
    ['verified payee', { iban: 'DE89 3704 0044 0532 0130 00', beneficiary_name: 'Max Mustermann' }, 'SUCCESS_VERIFIED', 'MTCH', true],
    ['verified payee, pasted with IBAN prefix and BIC', { iban: 'iban de89-3704-0044-0532-0130-00', beneficiary_name: 'mustermann, max', bic: 'cobadeff' }, 'SUCCESS_VERIFIED', 'MTCH', true],
    ['close match', { iban: 'DE89370400440532013000', beneficiary_name: 'M. Mustermann' }, 'CLOSE_MATCH', 'CMTC', false],
    ['mismatch', { iban: 'DE89370400440532013000', beneficiary_name: 'Erika Musterfrau' }, 'NAME_MISMATCH', 'NMTC', false],
    ['valid IBAN unknown to the directory', { iban: 'GB33BUKB20201555555555', beneficiary_name: 'Jane Doe' }, 'NAME_NOT_VERIFIABLE', 'NOAP', false],
    ['closed account', { iban: 'LU28 0019 4006 4475 0000', beneficiary_name: 'Example Holdings S.A.' }, 'NAME_NOT_VERIFIABLE', 'NOAP', false],
    ['bad checksum', { iban: 'DE89370400440532013001', beneficiary_name: 'Max Mustermann' }, 'INVALID_IBAN_CHECKSUM', 'NOAP', false],
    ['bad national check digits', { iban: 'ES2121000418450200051331', beneficiary_name: 'Max Mustermann' }, 'INVALID_IBAN_CHECKSUM', 'NOAP', false],
    ['wrong length', { iban: 'DE8937040044053201300', beneficiary_name: 'Max Mustermann' }, 'INVALID_IBAN_FORMAT', 'NOAP', false],
    ['empty IBAN string', { iban: '', beneficiary_name: 'Max Mustermann' }, 'INVALID_IBAN_FORMAT', 'NOAP', false],
    ['national-format IBAN outside the SWIFT registry (outside SEPA)', { iban: 'SN08SN0100152000048500003035', beneficiary_name: 'Max Mustermann' }, 'NAME_NOT_VERIFIABLE', 'NOAP', false],
    ['country with no IBAN format', { iban: 'XX89370400440532013000', beneficiary_name: 'Max Mustermann' }, 'UNSUPPORTED_COUNTRY', 'NOAP', false],
    ['BIC of another country', { iban: 'DE89370400440532013000', beneficiary_name: 'Max Mustermann', bic: 'BNPAFRPP' }, 'INVALID_BIC', 'NOAP', false],
    ['BIC of another bank than the directory', { iban: 'DE89370400440532013000', beneficiary_name: 'Max Mustermann', bic: 'DEUTDEFF' }, 'INVALID_BIC', 'NOAP', false],
    ['malformed BIC', { iban: 'DE89370400440532013000', beneficiary_name: 'Max Mustermann', bic: 'COBADEF' }, 'INVALID_BIC', 'NOAP', false],
  ];
  for (const [why, request, status, code, valid] of cases) {
    it(`answers 200 ${status}/${code} for a ${why}, the same on both routes, with a verifiable seal`, async () => {
      const bodies: Body[] = [];
      for (const route of ROUTES) {
        const res = await gw.post(route, request);
        assert.equal(res.status, 200);
        const body = (await res.json()) as Body;
        assert.equal(body.success, true);
        assert.equal(body.api, LABEL);
        assert.equal(body.status, status);
        assert.equal(body.valid, valid);
        assert.equal(body.name_match.code, code);
        assert.equal(body.epc_standard, 'EPC042-25');
        const registryOf: Record<string, string | null> = { SN: 'national', XX: null, '': null };
        assert.equal(body.registry, (body.country as string) in registryOf ? registryOf[body.country as string] : 'swift');
        assert.equal(body.dora_audit_signed, true);
        assert.equal(body.checksum_modulo_97, (body.errors as string[]).length === 0 ? 'PASSED (0 errors)' : `FAILED (${(body.errors as string[]).length} error${(body.errors as string[]).length === 1 ? '' : 's'})`);
        assert.deepEqual(verifySealedBody(body, jwks), { ok: true, kid: jwks.keys[0]!.kid });
        bodies.push(body);
      }
      const strip = (b: Body): unknown => ({ ...b, latency_ms: 0, signed_at: 0, audit_seal: 0 });
      assert.deepEqual(strip(bodies[0]!), strip(bodies[1]!));
    });
  }

  it('suggests the holder name on CLOSE_MATCH only', async () => {
    const close = (await (await gw.post(ROUTES[0]!, { iban: 'DE89370400440532013000', beneficiary_name: 'Max Musterman' })).json()) as Body;
    assert.equal(close.name_match.suggested_name, 'Max Mustermann');
    const match = (await (await gw.post(ROUTES[0]!, { iban: 'DE89370400440532013000', beneficiary_name: 'Max Mustermann' })).json()) as Body;
    assert.equal('suggested_name' in match.name_match, false);
  });

  const invalid: [string, unknown][] = [
    ['missing beneficiary_name', { iban: 'DE89370400440532013000' }],
    ['empty beneficiary_name', { iban: 'DE89370400440532013000', beneficiary_name: '' }],
    ['blank beneficiary_name', { iban: 'DE89370400440532013000', beneficiary_name: '   ' }],
    ['over-long beneficiary_name', { iban: 'DE89370400440532013000', beneficiary_name: 'x'.repeat(141) }],
    ['non-string iban', { iban: 12345, beneficiary_name: 'Max' }],
    ['missing iban', { beneficiary_name: 'Max' }],
    ['over-long iban', { iban: 'D'.repeat(101), beneficiary_name: 'Max' }],
    ['non-string bic', { iban: 'DE89370400440532013000', beneficiary_name: 'Max', bic: 7 }],
  ];
  for (const [why, body] of invalid) {
    it(`answers 400 VALIDATION_FAILED for ${why}`, async () => {
      const res = await gw.post(ROUTES[1]!, body);
      assert.equal(res.status, 400);
      const err = (await res.json()) as { success: boolean; api: string; error: { code: string; details: { path: string }[] } };
      assert.equal(err.success, false);
      assert.equal(err.api, LABEL);
      assert.equal(err.error.code, 'VALIDATION_FAILED');
      assert.ok(err.error.details.length >= 1);
    });
  }

  it('accepts a 140-character name', async () => {
    const res = await gw.post(ROUTES[0]!, { iban: 'DE89370400440532013000', beneficiary_name: 'x'.repeat(140) });
    assert.equal(res.status, 200);
  });

  it('never writes an IBAN or a name to the log', async () => {
    await gw.post(ROUTES[0]!, { iban: 'FR14 2004 1010 0505 0001 3M02 606', beneficiary_name: 'Zyxwvut Qwertyuiop' });
    const logs = gw.logs.join('\n');
    for (const secret of ['Zyxwvut', 'Qwertyuiop', '20041010050500013M02606', 'FR14', 'Mustermann', 'DE89370400440532013000']) assert.ok(!logs.includes(secret), secret);
  });
});

describe('API-138 configured: AUDIT_SIGNING_KEY, PAYEE_DIRECTORY, AUDIT_LOG', () => {
  it('signs with the configured key, reads the configured directory and appends to the audit log', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'vop-'));
    const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const csv = path.join(dir, 'payees.csv');
    writeFileSync(csv, 'iban,name,closed\nNL91 ABNA 0417 1643 00,Zwaan Holding B.V.,false\n');
    const logFile = path.join(dir, 'audit.log');
    const env = { AUDIT_SIGNING_KEY: pem, PAYEE_DIRECTORY: csv, AUDIT_LOG: logFile };

    const first = await startTestGateway({ env, gateway });
    const kid1 = ((await (await first.get('/v1/audit/keys')).json()) as { keys: { kid: string }[] }).keys[0]!.kid;
    const res = (await (await first.post('/v1/sepa/vop', { iban: 'NL91ABNA0417164300', beneficiary_name: 'Zwaan Holding BV' }, { 'x-request-id': 'audit-req-1' })).json()) as Body;
    assert.equal(res.status, 'SUCCESS_VERIFIED');
    const gone = (await (await first.post('/v1/sepa/vop', { iban: 'DE89370400440532013000', beneficiary_name: 'Max Mustermann' })).json()) as Body;
    assert.equal(gone.status, 'NAME_NOT_VERIFIABLE', 'the shipped directory is replaced, not merged');
    assert.ok(!first.logs.join('\n').includes('AUDIT_SIGNING_KEY is not set'));
    await first.close();

    const second = await startTestGateway({ env, gateway });
    const kid2 = ((await (await second.get('/v1/audit/keys')).json()) as { keys: { kid: string }[] }).keys[0]!.kid;
    assert.equal(kid1, kid2, 'same key across restarts');
    await second.post('/v1/sepa/vop', { iban: 'NL91ABNA0417164300', beneficiary_name: 'Zwaan Holding' });
    await second.close();

    const text = readFileSync(logFile, 'utf8');
    const verdict = verifyAuditLog(text);
    assert.deepEqual(verdict.ok && verdict.records, 3);
    const first_ = JSON.parse(text.split('\n')[0]!) as Record<string, unknown>;
    assert.equal(first_.request_id, 'audit-req-1');
    assert.equal(first_.digest, res.audit_seal.digest);
    for (const secret of ['NL91', 'ABNA0417164300', 'Zwaan']) assert.ok(!text.includes(secret), secret);
  });

  it('refuses to boot on a malformed directory, naming PAYEE_DIRECTORY and the line', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'vop-'));
    const csv = path.join(dir, 'payees.csv');
    writeFileSync(csv, 'iban,name\nNL91ABNA0417164300,Zwaan\nNL91ABNA0417164301,Other\n');
    await assert.rejects(startTestGateway({ env: { PAYEE_DIRECTORY: csv }, gateway }), /PAYEE_DIRECTORY: .*line 3: invalid IBAN/);
  });

  it('keeps the JWKS public (not metered, no key) when AUTH_MODE=required, while the service needs a key', async () => {
    const gw = await startTestGateway({ env: { AUTH_MODE: 'required' }, gateway });
    try {
      assert.equal((await gw.get('/v1/audit/keys')).status, 200);
      const res = await gw.post('/v1/sepa/vop', { iban: 'DE89370400440532013000', beneficiary_name: 'Max Mustermann' });
      assert.equal(res.status, 401);
    } finally {
      await gw.close();
    }
  });

  it('refuses to boot on a bad AUDIT_SIGNING_KEY', async () => {
    await assert.rejects(startTestGateway({ env: { AUDIT_SIGNING_KEY: 'garbage' }, gateway }), /AUDIT_SIGNING_KEY/);
  });
});
