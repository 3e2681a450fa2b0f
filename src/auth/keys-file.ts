/**
 * The key file (`API_KEYS_FILE`, CONTRACT.md §4): API keys stored only as SHA-256 hashes, each
 * with a tenant id and a plan. The gateway reads it (key-store.ts), `npm run keys` writes it.
 *
 *   {"version": 1, "keys": [{"id": "<16 hex>", "sha256": "<64 hex>", "tenant": "acme",
 *     "plan": "pack1", "created_at": "2026-11-21T18:00:00.000Z", "revoked_at": null, "label": null}]}
 *
 * `id` is the first 16 hex digits of the hash: a stable public handle (logs, `keys revoke`, usage
 * counters) that reveals nothing usable about the 256-bit key. Writes are atomic (temp file +
 * rename) under an exclusive lock file, so the watching gateway never reads half a file.
 */
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { PLAN_NAMES, type PlanName } from '../config.ts';

export const KEY_PREFIX = 'gwk_';
export const TENANT_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const HEX64 = /^[0-9a-f]{64}$/;

export interface KeyEntry {
  readonly id: string;
  readonly sha256: string;
  readonly tenant: string;
  readonly plan: PlanName;
  readonly created_at: string;
  readonly revoked_at: string | null;
  readonly label: string | null;
}

export interface KeysFile {
  readonly version: 1;
  readonly keys: readonly KeyEntry[];
}

export class KeysFileError extends Error {
  override name = 'KeysFileError';
}

/** A new key: prefix + 43 base64url characters (256 random bits). */
export function generateKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

/** Lower-case hex SHA-256 of the key's UTF-8 bytes. */
export function hashKeyHex(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function keyIdOf(sha256Hex: string): string {
  return sha256Hex.slice(0, 16);
}

/** Parses and validates the file's text; throws KeysFileError naming the first bad entry. */
export function parseKeysFile(text: string, source = 'API_KEYS_FILE'): KeysFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new KeysFileError(`${source} is not valid JSON`);
  }
  if (!raw || typeof raw !== 'object' || !Array.isArray((raw as { keys?: unknown }).keys)) {
    throw new KeysFileError(`${source} must be an object {"version": 1, "keys": [...]}`);
  }
  const version = (raw as { version?: unknown }).version;
  if (version !== undefined && version !== 1) throw new KeysFileError(`${source}: unsupported version ${JSON.stringify(version)}`);
  const seen = new Set<string>();
  const keys = ((raw as { keys: unknown[] }).keys).map((e, i): KeyEntry => {
    const bad = (what: string): never => {
      throw new KeysFileError(`${source}: keys[${i}] ${what}`);
    };
    if (!e || typeof e !== 'object') bad('is not an object');
    const o = e as Record<string, unknown>;
    const sha = typeof o.sha256 === 'string' ? o.sha256.toLowerCase() : bad('needs "sha256": 64 hex digits');
    if (!HEX64.test(sha)) bad('needs "sha256": 64 hex digits');
    if (seen.has(sha)) bad('repeats a key hash');
    seen.add(sha);
    if (typeof o.tenant !== 'string' || !TENANT_PATTERN.test(o.tenant)) bad('needs "tenant": 1-64 of A-Z a-z 0-9 . _ -');
    if (typeof o.plan !== 'string' || !PLAN_NAMES.includes(o.plan as PlanName)) bad(`needs "plan": one of ${PLAN_NAMES.join(', ')}`);
    if (o.revoked_at !== undefined && o.revoked_at !== null && typeof o.revoked_at !== 'string') bad('"revoked_at" must be a date string or null');
    return {
      id: keyIdOf(sha),
      sha256: sha,
      tenant: o.tenant as string,
      plan: o.plan as PlanName,
      created_at: typeof o.created_at === 'string' ? o.created_at : '',
      revoked_at: typeof o.revoked_at === 'string' ? o.revoked_at : null,
      label: typeof o.label === 'string' ? o.label : null,
    };
  });
  return { version: 1, keys };
}

/** Reads the file; a missing file is an empty key set. */
export function readKeysFile(file: string): KeysFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, keys: [] };
    throw new KeysFileError(`${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return parseKeysFile(text, file);
}

/** Writes the whole file atomically: temp file in the same directory, fsync, rename. Mode 0600. */
export function writeFileAtomic(file: string, data: string | Uint8Array): void {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  try {
    const dirFd = openSync(path.dirname(path.resolve(file)), 'r');
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
  } catch {
    // Directory fsync is not supported everywhere; the rename itself is atomic.
  }
}

/**
 * Read-modify-write of the key file under `<file>.lock` (created exclusively), so two concurrent
 * `npm run keys` never lose each other's key. A lock older than 30 s is considered stale.
 */
export function updateKeysFile(file: string, change: (current: KeysFile) => KeysFile): KeysFile {
  const lock = `${file}.lock`;
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const deadline = Date.now() + 5000;
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx', 0o600));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      try {
        if (Date.now() - statSync(lock).mtimeMs > 30_000) rmSync(lock, { force: true });
      } catch {
        // The lock vanished between the two calls: retry.
      }
      if (Date.now() > deadline) throw new KeysFileError(`${file} is locked by another process (${lock})`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    }
  }
  try {
    const next = change(readKeysFile(file));
    writeFileAtomic(file, `${JSON.stringify(next, null, 2)}\n`);
    return next;
  } finally {
    rmSync(lock, { force: true });
  }
}
