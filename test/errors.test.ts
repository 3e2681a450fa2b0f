import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { createError, deserializeError, ERROR_CATALOGUE, GatewayError, serializeError } from '../src/errors.ts';

/** CONTRACT.md §3: the status of each code. */
const CONTRACT_STATUS: Record<string, number> = {
  INVALID_JSON: 400, VALIDATION_FAILED: 400, UNAUTHORIZED: 401, FORBIDDEN: 403, NOT_FOUND: 404, METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408, PAYLOAD_TOO_LARGE: 413, UNSUPPORTED_MEDIA_TYPE: 415, URL_BLOCKED: 422, QUOTA_EXCEEDED: 429,
  RATE_LIMITED: 429, UPSTREAM_FAILED: 502, OVERLOADED: 503, UPSTREAM_TIMEOUT: 504, INTERNAL: 500,
};

describe('error catalogue', () => {
  it('has exactly the codes of the contract, each with its status', () => {
    assert.deepEqual(Object.keys(ERROR_CATALOGUE).sort(), Object.keys(CONTRACT_STATUS).sort());
    for (const [code, entry] of Object.entries(ERROR_CATALOGUE)) assert.equal(entry.status, CONTRACT_STATUS[code], code);
  });

  it('is documented: docs/api.md lists every code with its status', () => {
    const doc = readFileSync(new URL('../docs/api.md', import.meta.url), 'utf8');
    for (const [code, entry] of Object.entries(ERROR_CATALOGUE)) assert.match(doc, new RegExp(`\\| ${entry.status} \\| \`${code}\` \\|`), code);
  });

  it('round-trips a coded error through its serialised form', () => {
    const err = createError('VALIDATION_FAILED', 'bad', { details: [{ path: '/a', message: 'm' }] });
    const back = deserializeError(serializeError(err));
    assert.ok(back instanceof GatewayError);
    assert.equal(back.code, 'VALIDATION_FAILED');
    assert.equal(back.status, 400);
    assert.deepEqual(back.details, [{ path: '/a', message: 'm' }]);
    assert.equal(deserializeError({ code: 'NOPE' as never, message: 'x' }).code, 'INTERNAL');
  });
});
