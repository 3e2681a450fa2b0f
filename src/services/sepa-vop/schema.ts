/**
 * API-138 request and response schemas (TypeBox): the single source of the validator and of the
 * OpenAPI document. An IBAN that is not an IBAN is a verification outcome (status
 * INVALID_IBAN_*), so `iban` only has to be a bounded string; the name is 1–140 characters with
 * at least one non-space.
 */
import { Type, type Static } from '@sinclair/typebox';

/** Longest `iban` string accepted: 34 characters plus separators and an `IBAN ` prefix, generously. */
export const MAX_IBAN_INPUT = 100;
/** CONTRACT.md §5: beneficiary_name is 1–140 characters. */
export const MAX_NAME_LENGTH = 140;
/** Longest `bic` string accepted (11 characters plus separators, generously). */
export const MAX_BIC_INPUT = 35;

export const VopRequestSchema = Type.Object(
  {
    iban: Type.String({ maxLength: MAX_IBAN_INPUT, description: 'IBAN; spaces, hyphens, dots, lower case and a leading "IBAN" are accepted', examples: ['DE89 3704 0044 0532 0130 00'] }),
    beneficiary_name: Type.String({ minLength: 1, maxLength: MAX_NAME_LENGTH, pattern: '\\S', description: 'Name of the payee as the payer typed it', examples: ['Max Mustermann'] }),
    bic: Type.Optional(Type.String({ maxLength: MAX_BIC_INPUT, description: 'BIC (ISO 9362) of the payee\'s bank, 8 or 11 characters; empty = not given' })),
  },
  {
    additionalProperties: true,
    examples: [
      { iban: 'DE89 3704 0044 0532 0130 00', beneficiary_name: 'Max Mustermann' },
      { iban: 'DE89370400440532013000', beneficiary_name: 'M. Mustermann', bic: 'COBADEFFXXX' },
      { iban: 'ES21 2100 0418 4502 0005 1331', beneficiary_name: 'José García' },
    ],
  },
);
export type VopRequestBody = Static<typeof VopRequestSchema>;

const Status = Type.Union(
  ['SUCCESS_VERIFIED', 'CLOSE_MATCH', 'NAME_MISMATCH', 'NAME_NOT_VERIFIABLE', 'INVALID_IBAN_FORMAT', 'INVALID_IBAN_CHECKSUM', 'UNSUPPORTED_COUNTRY', 'INVALID_BIC'].map((s) => Type.Literal(s)),
);

export const VopResponseSchema = Type.Object({
  valid: Type.Boolean({ description: 'true only when status is SUCCESS_VERIFIED' }),
  status: Status,
  checksum_modulo_97: Type.String({ description: '"PASSED (0 errors)" or "FAILED (n errors)" over country, length, structure, mod-97 and national check digits', examples: ['PASSED (0 errors)'] }),
  errors: Type.Array(
    Type.Union(['UNSUPPORTED_COUNTRY', 'INVALID_LENGTH', 'INVALID_STRUCTURE', 'INVALID_CHECKSUM', 'INVALID_NATIONAL_CHECK_DIGITS'].map((s) => Type.Literal(s))),
    { description: 'Every failed IBAN check' },
  ),
  iban: Type.String({ description: 'Electronic format' }),
  country: Type.String(),
  // One string enum (not a union of literals) so that the OpenAPI 3.0 form is {type, enum, nullable};
  // OpenAPI 3.0.3 wants null inside the enum of a nullable enum.
  registry: Type.Union([Type.Unsafe<'swift' | 'national'>({ type: 'string', enum: ['swift', 'national', null] }), Type.Null()], {
    description: 'Source of the country\'s IBAN format: "swift" (SWIFT IBAN registry), "national" (a national format outside it: valid account number, outside SEPA, status at best NAME_NOT_VERIFIABLE), null (no IBAN format: UNSUPPORTED_COUNTRY)',
  }),
  epc_standard: Type.Literal('EPC042-25'),
  name_match: Type.Object({
    result: Type.Union(['MATCH', 'CLOSE_MATCH', 'NO_MATCH', 'NOT_POSSIBLE'].map((s) => Type.Literal(s))),
    code: Type.Union(['MTCH', 'CMTC', 'NMTC', 'NOAP'].map((s) => Type.Literal(s))),
    score: Type.Number({ minimum: 0, maximum: 1 }),
    suggested_name: Type.Optional(Type.String({ description: "The account holder's name (CLOSE_MATCH only)" })),
  }),
  dora_audit_signed: Type.Boolean(),
  signed_at: Type.String({ format: 'date-time' }),
  audit_seal: Type.Object({
    alg: Type.Literal('Ed25519'),
    kid: Type.String({ description: 'RFC 7638 thumbprint of the public key' }),
    signed_at: Type.String({ format: 'date-time' }),
    digest: Type.String({ description: '"sha256:" + hex SHA-256 of the RFC 8785 canonical body without audit_seal and latency_ms' }),
    signature: Type.String({ description: 'base64url Ed25519 signature of the ASCII digest' }),
  }),
});

export const JwksResponseSchema = Type.Object({
  keys: Type.Array(
    Type.Object({
      kty: Type.Literal('OKP'),
      crv: Type.Literal('Ed25519'),
      x: Type.String(),
      kid: Type.String(),
      use: Type.Literal('sig'),
      alg: Type.Literal('EdDSA'),
    }),
  ),
});
