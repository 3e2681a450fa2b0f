/**
 * API-138 core: Verification of Payee over plain data. Pure apart from the clock and the seal,
 * which the service object owns; tests and benchmarks call `verifyPayee` and `createVopService`
 * directly, without HTTP.
 *
 * Order of the checks (the first failing one sets `status`):
 *   IBAN (country → UNSUPPORTED_COUNTRY; length/structure → INVALID_IBAN_FORMAT; mod-97/national
 *   check digits → INVALID_IBAN_CHECKSUM) → BIC (INVALID_BIC) → national format outside the SWIFT
 *   registry (NAME_NOT_VERIFIABLE: a valid account number, but outside SEPA, so no VoP answer) →
 *   directory (NAME_NOT_VERIFIABLE when unknown or closed) → name matching (SUCCESS_VERIFIED,
 *   CLOSE_MATCH, NAME_MISMATCH).
 */
import { bic8, checkBic } from './bic.ts';
import type { PayeeDirectory } from './directory.ts';
import { validateIban } from './iban.ts';
import type { IbanRegistryKind } from './registry.ts';
import { matchNames, prepareName, type NameMatch } from './name-match.ts';
import type { AuditLog } from './audit-log.ts';
import type { AuditSeal, Sealer } from './seal.ts';

export const EPC_STANDARD = 'EPC042-25';

export type VopStatus =
  | 'SUCCESS_VERIFIED'
  | 'CLOSE_MATCH'
  | 'NAME_MISMATCH'
  | 'NAME_NOT_VERIFIABLE'
  | 'INVALID_IBAN_FORMAT'
  | 'INVALID_IBAN_CHECKSUM'
  | 'UNSUPPORTED_COUNTRY'
  | 'INVALID_BIC';

export interface VopRequest {
  iban: string;
  beneficiary_name: string;
  bic?: string;
}

/** The verification fields of the response (everything but `signed_at`, the seal flag and the seal). */
export interface VopOutcome {
  valid: boolean;
  status: VopStatus;
  checksum_modulo_97: string;
  errors: string[];
  iban: string;
  country: string;
  /** `swift` (SWIFT IBAN registry), `national` (national format outside it), null (no IBAN format). */
  registry: IbanRegistryKind | null;
  epc_standard: typeof EPC_STANDARD;
  name_match: NameMatch;
}

export interface SealedVop extends VopOutcome {
  dora_audit_signed: true;
  signed_at: string;
  audit_seal: AuditSeal;
}

const NOT_POSSIBLE: NameMatch = Object.freeze({ result: 'NOT_POSSIBLE', code: 'NOAP', score: 0 }) as NameMatch;

/** Status of a failed IBAN check: the first failing check in country → length/structure → check digits order. */
export function ibanStatus(errors: readonly string[]): VopStatus {
  if (errors.includes('UNSUPPORTED_COUNTRY')) return 'UNSUPPORTED_COUNTRY';
  if (errors.includes('INVALID_LENGTH') || errors.includes('INVALID_STRUCTURE')) return 'INVALID_IBAN_FORMAT';
  return 'INVALID_IBAN_CHECKSUM';
}

/**
 * Verifies one payee against the directory.
 * @example verifyPayee({ iban: 'DE89 3704 0044 0532 0130 00', beneficiary_name: 'Max Mustermann' }, directory).status // 'SUCCESS_VERIFIED'
 */
export function verifyPayee(req: VopRequest, directory: PayeeDirectory): VopOutcome {
  const check = validateIban(req.iban);
  const n = check.errors.length;
  const base = {
    checksum_modulo_97: n === 0 ? 'PASSED (0 errors)' : `FAILED (${n} error${n === 1 ? '' : 's'})`,
    errors: check.errors,
    iban: check.iban,
    country: check.country,
    registry: check.registry,
    epc_standard: EPC_STANDARD,
  } as const;
  const outcome = (status: VopStatus, name_match: NameMatch): VopOutcome => ({ valid: status === 'SUCCESS_VERIFIED', status, ...base, name_match: { ...name_match } });

  if (!check.valid) return outcome(ibanStatus(check.errors), NOT_POSSIBLE);

  const payee = directory.get(check.iban);
  const rawBic = req.bic?.trim() ?? '';
  if (rawBic !== '') {
    const bic = checkBic(rawBic, check.country);
    // A BIC that names another institution than the directory's for this account is wrong too.
    if (!bic.valid || (payee?.bic != null && bic8(payee.bic) !== bic8(bic.bic))) return outcome('INVALID_BIC', NOT_POSSIBLE);
  }

  // EPC VoP covers SEPA accounts only; a national-format IBAN is a valid account number outside it.
  if (check.registry === 'national') return outcome('NAME_NOT_VERIFIABLE', NOT_POSSIBLE);
  if (payee === undefined || payee.closed) return outcome('NAME_NOT_VERIFIABLE', NOT_POSSIBLE);

  const match = matchNames(prepareName(req.beneficiary_name), payee.name);
  const status: VopStatus = match.result === 'MATCH' ? 'SUCCESS_VERIFIED' : match.result === 'CLOSE_MATCH' ? 'CLOSE_MATCH' : 'NAME_MISMATCH';
  return outcome(status, match);
}

export interface VopServiceOptions {
  readonly directory: PayeeDirectory;
  readonly sealer: Sealer;
  /** The route's `api` label: part of the signed body. */
  readonly api: string;
  readonly auditLog?: AuditLog | null;
  /** RFC 3339 UTC time of the seal; injectable for tests. */
  readonly now?: () => string;
}

export interface VopService {
  /** Verifies and seals; `requestId` goes into the audit log only. */
  verify(req: VopRequest, requestId: string): SealedVop;
}

/**
 * Verification plus the audit seal over the exact body the adapter will send:
 * {success: true, api, ...fields} without `audit_seal` and `latency_ms`.
 */
export function createVopService(options: VopServiceOptions): VopService {
  const now = options.now ?? (() => new Date().toISOString());
  const { sealer, api, directory } = options;
  const log = options.auditLog ?? null;
  return {
    verify(req, requestId) {
      const signed_at = now();
      const fields = { ...verifyPayee(req, directory), dora_audit_signed: true as const, signed_at };
      const audit_seal = sealer.seal({ success: true, api, ...fields }, signed_at);
      log?.append({ time: signed_at, requestId, kid: audit_seal.kid, digest: audit_seal.digest });
      return { ...fields, audit_seal };
    },
  };
}
