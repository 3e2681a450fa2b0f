/**
 * The audit seal of API-138 (CONTRACT.md §5):
 *
 *   digest    = "sha256:" + hex SHA-256 of the RFC 8785 canonical JSON of the response body
 *               without `audit_seal` and `latency_ms` (so with `success`, `api` and `signed_at`)
 *   signature = base64url (no padding) Ed25519 signature of the ASCII bytes of `digest`
 *   kid       = RFC 7638 JWK thumbprint of the public key (SHA-256, base64url)
 *
 * Anyone holding the JWKS of GET /v1/audit/keys can check a saved response (`verifySealedBody`).
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { canonicalize } from './canonical-json.ts';

export interface PublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  use: 'sig';
  alg: 'EdDSA';
}

export interface AuditSeal {
  alg: 'Ed25519';
  kid: string;
  signed_at: string;
  digest: string;
  signature: string;
}

export interface Sealer {
  readonly kid: string;
  readonly jwk: PublicJwk;
  /** True when the key was generated at boot (no AUDIT_SIGNING_KEY). */
  readonly ephemeral: boolean;
  /** Seals a body that already holds `signed_at`; returns the seal to add as `audit_seal`. */
  seal(body: Record<string, unknown>, signedAt: string): AuditSeal;
}

/** RFC 7638 thumbprint of an Ed25519 public key: required members only, lexicographic order. */
export function jwkThumbprint(x: string): string {
  return createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`).digest('base64url');
}

/** "sha256:" + hex SHA-256 of the canonical JSON of `body` minus `audit_seal` and `latency_ms`. */
export function sealDigest(body: Record<string, unknown>): string {
  const { audit_seal: _seal, latency_ms: _latency, ...signed } = body;
  return `sha256:${createHash('sha256').update(canonicalize(signed)).digest('hex')}`;
}

/**
 * Reads `AUDIT_SIGNING_KEY`: a PKCS#8 PEM Ed25519 private key (literal `\n` accepted for one-line
 * environment values). Throws an Error naming the variable when the value is not such a key.
 */
export function parseSigningKey(pem: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem.includes('\\n') ? pem.replace(/\\n/g, '\n') : pem, format: 'pem' });
  } catch {
    throw new Error('AUDIT_SIGNING_KEY: not a PKCS#8 PEM private key');
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`AUDIT_SIGNING_KEY: expected an Ed25519 key, got ${key.asymmetricKeyType ?? 'unknown'}`);
  return key;
}

/** A sealer over `privateKey`, or over a fresh key pair when it is null. */
export function createSealer(privateKey: KeyObject | null): Sealer {
  const ephemeral = privateKey === null;
  const priv = privateKey ?? generateKeyPairSync('ed25519').privateKey;
  const x = (createPublicKey(priv).export({ format: 'jwk' }) as { x: string }).x;
  const kid = jwkThumbprint(x);
  const jwk: PublicJwk = { kty: 'OKP', crv: 'Ed25519', x, kid, use: 'sig', alg: 'EdDSA' };
  return {
    kid,
    jwk,
    ephemeral,
    seal(body, signedAt) {
      const digest = sealDigest(body);
      const signature = sign(null, Buffer.from(digest, 'ascii'), priv).toString('base64url');
      return { alg: 'Ed25519', kid, signed_at: signedAt, digest, signature };
    },
  };
}

export type SealVerdict = { ok: true; kid: string } | { ok: false; reason: string };

/**
 * Checks a saved response body against a JWKS: seal shape, `signed_at` inside the body, digest,
 * key (by kid, whose thumbprint must match) and signature.
 */
export function verifySealedBody(body: unknown, jwks: { keys?: unknown }): SealVerdict {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, reason: 'the response is not a JSON object' };
  const seal = (body as Record<string, unknown>).audit_seal as Partial<AuditSeal> | undefined;
  if (typeof seal !== 'object' || seal === null) return { ok: false, reason: 'no audit_seal in the response' };
  if (seal.alg !== 'Ed25519' || typeof seal.kid !== 'string' || typeof seal.digest !== 'string' || typeof seal.signature !== 'string' || typeof seal.signed_at !== 'string') {
    return { ok: false, reason: 'audit_seal is malformed' };
  }
  if ((body as Record<string, unknown>).signed_at !== seal.signed_at) return { ok: false, reason: 'signed_at of the body and of the seal differ' };
  let digest: string;
  try {
    digest = sealDigest(body as Record<string, unknown>);
  } catch {
    return { ok: false, reason: 'the body is not plain JSON' };
  }
  if (digest !== seal.digest) return { ok: false, reason: 'digest mismatch: the body was altered' };
  const keys = Array.isArray(jwks.keys) ? (jwks.keys as Record<string, unknown>[]) : [];
  const jwk = keys.find((k) => k?.kid === seal.kid);
  if (jwk === undefined) return { ok: false, reason: `no key with kid ${seal.kid} in the JWKS` };
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') return { ok: false, reason: 'the JWKS key is not an Ed25519 public key' };
  if (jwkThumbprint(jwk.x) !== seal.kid) return { ok: false, reason: 'the key thumbprint does not match its kid' };
  let good: boolean;
  try {
    const pub = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' });
    good = verify(null, Buffer.from(seal.digest, 'ascii'), pub, Buffer.from(seal.signature, 'base64url'));
  } catch {
    good = false;
  }
  return good ? { ok: true, kid: seal.kid } : { ok: false, reason: 'signature does not verify' };
}
