/**
 * API-138 SEPA Verification of Payee. The factory loads the payee directory (PAYEE_DIRECTORY or
 * the shipped synthetic one), the signing key (AUDIT_SIGNING_KEY or a fresh one, with a warning)
 * and the optional audit log (AUDIT_LOG); a bad value of any of them stops the boot with a message
 * naming the variable. Everything runs inline on the event loop.
 */
import type { ServiceDeps, ServiceFactory, ServiceModule } from '../types.ts';
import { openAuditLog, type AuditLog } from './audit-log.ts';
import { createVopService } from './core.ts';
import { DEFAULT_DIRECTORY_PATH, loadDirectoryFile, type PayeeDirectory } from './directory.ts';
import { auditKeysRoute, VOP_LABEL, vopRoute } from './route.ts';
import { createSealer, parseSigningKey } from './seal.ts';

export { validateIban } from './iban.ts';

export interface SepaVopOptions {
  /** Default: loaded from PAYEE_DIRECTORY or the shipped synthetic directory. */
  readonly directory?: PayeeDirectory;
  /** RFC 3339 clock for `signed_at` (tests). */
  readonly now?: () => string;
}

export function createSepaVopService(deps: ServiceDeps, options: SepaVopOptions = {}): ServiceModule {
  const { payeeDirectory, auditSigningKey, auditLog: auditLogPath } = deps.config.sepa;
  let directory = options.directory;
  if (directory === undefined) {
    try {
      directory = loadDirectoryFile(payeeDirectory ?? DEFAULT_DIRECTORY_PATH);
    } catch (err) {
      throw new Error(`PAYEE_DIRECTORY: ${(err as Error).message}`, { cause: err });
    }
  }
  const sealer = createSealer(auditSigningKey === null ? null : parseSigningKey(auditSigningKey));
  if (sealer.ephemeral) {
    deps.logger.warn({ service: 'API-138', kid: sealer.kid }, 'AUDIT_SIGNING_KEY is not set: sealing with a key generated at boot; seals will not verify after a restart');
  }
  let log: AuditLog | null = null;
  if (auditLogPath !== null) {
    log = openAuditLog(auditLogPath, (err) => deps.logger.error({ service: 'API-138', code: (err as NodeJS.ErrnoException).code }, 'AUDIT_LOG write failed'));
  }
  deps.logger.info({ service: 'API-138', payees: directory.size, default_directory: payeeDirectory === null && options.directory === undefined, audit_log: log !== null }, 'payee directory loaded');

  const service = createVopService({ directory, sealer, api: VOP_LABEL, auditLog: log, ...(options.now ? { now: options.now } : {}) });
  return {
    id: 'API-138',
    routes: [vopRoute(service), auditKeysRoute(sealer)],
    health: () => (log === null || log.healthy() ? 'up' : 'degraded'),
    close: () => log?.close(),
  };
}

export const sepaVopFactory: ServiceFactory = (deps) => createSepaVopService(deps);
