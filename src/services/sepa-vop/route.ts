/**
 * HTTP binding of API-138: POST /v1/sepa/vop (and its alias) and GET /v1/audit/keys (the JWKS of
 * the seal; no service id, so not metered). The core runs inline: a verification is microseconds.
 */
import type { RouteDef } from '../../server/types.ts';
import type { VopService } from './core.ts';
import type { Sealer } from './seal.ts';
import { JwksResponseSchema, VopRequestSchema, VopResponseSchema, type VopRequestBody } from './schema.ts';

export const VOP_LABEL = '[API-138] SEPA Verification of Payee';

export function vopRoute(service: VopService): RouteDef {
  return {
    method: 'POST',
    paths: ['/v1/sepa/vop', '/v1/api/138-sepa-vop'],
    api: VOP_LABEL,
    service: 'API-138',
    summary: 'Verify a payee: IBAN, BIC and account holder name (EPC VoP), with an Ed25519 audit seal',
    description:
      'A failed verification is a success body: see `status` and `name_match`. The seal covers the body without `audit_seal` and `latency_ms` (RFC 8785, SHA-256, Ed25519); keys at GET /v1/audit/keys.',
    tags: ['API-138'],
    body: VopRequestSchema,
    response: VopResponseSchema,
    handler: (ctx) => {
      // The adapter validated the body against VopRequestSchema before calling.
      const { iban, beneficiary_name, bic } = ctx.body as VopRequestBody;
      return { ...service.verify(bic === undefined ? { iban, beneficiary_name } : { iban, beneficiary_name, bic }, ctx.requestId) };
    },
  };
}

export function auditKeysRoute(sealer: Sealer): RouteDef {
  const body = Object.freeze({ keys: [sealer.jwk] });
  return {
    method: 'GET',
    paths: ['/v1/audit/keys'],
    summary: 'Public keys of the API-138 audit seal (JWKS, RFC 7517)',
    tags: ['API-138'],
    response: JwksResponseSchema,
    handler: () => ({ keys: body.keys }),
  };
}
