/**
 * Durable usage counts: the memory store is written to `DATA_DIR/usage.snapshot` every few
 * seconds (when something changed) and on shutdown, atomically (temp file, fsync, rename), so a
 * crash loses at most one interval of counts and never leaves a half-written file in place.
 *
 * File layout: one header line, then the body.
 *
 *   {"format":"gateway-usage","version":1,"written_at":"2026-11-21T18:00:00.000Z","bytes":123,"sha256":"<hex of body>"}\n
 *   {"2026-11":{"key:3f2a9c0d11e4b7a2":{"plan":9871,"svc:API-01":4120}}}
 *
 * The checksum covers the body's exact bytes, so a torn, truncated or edited file is detected at
 * boot. The previous good file is kept as `<file>.prev`. At boot:
 *   current valid                  -> restore it
 *   current corrupt, previous good -> restore the previous one, log an error, keep the corrupt
 *                                     file as `<file>.corrupt-<time>` for inspection
 *   current missing, previous good -> restore the previous one (a crash between the two renames)
 *   corrupt with no good previous  -> refuse to boot with a message: counts are never silently zeroed
 *   nothing at all                 -> first start, counts begin at zero
 */
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../observability/logger.ts';
import type { MemoryUsageStore, UsageData } from './usage-store.ts';

const FORMAT = 'gateway-usage';
const PERIOD = /^\d{4}-\d{2}$/;

export type SnapshotRead =
  | { readonly kind: 'missing' }
  | { readonly kind: 'ok'; readonly data: UsageData; readonly writtenAt: string }
  | { readonly kind: 'corrupt'; readonly reason: string };

export class UsageSnapshotError extends Error {
  override name = 'UsageSnapshotError';
}

/** Serialises counters into the file format (header line + body). */
export function encodeSnapshot(data: UsageData, writtenAt: Date = new Date()): Buffer {
  const body = Buffer.from(JSON.stringify(data), 'utf8');
  const header = { format: FORMAT, version: 1, written_at: writtenAt.toISOString(), bytes: body.length, sha256: createHash('sha256').update(body).digest('hex') };
  return Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`, 'utf8'), body]);
}

/** Verifies and decodes a snapshot's bytes; never throws. */
export function decodeSnapshot(bytes: Buffer): SnapshotRead {
  const nl = bytes.indexOf(0x0a);
  if (nl === -1) return { kind: 'corrupt', reason: 'no header line (truncated file)' };
  let header: { format?: unknown; version?: unknown; written_at?: unknown; bytes?: unknown; sha256?: unknown };
  try {
    header = JSON.parse(bytes.subarray(0, nl).toString('utf8')) as typeof header;
  } catch {
    return { kind: 'corrupt', reason: 'header is not JSON' };
  }
  if (header.format !== FORMAT || header.version !== 1) return { kind: 'corrupt', reason: 'not a usage snapshot of version 1' };
  const body = bytes.subarray(nl + 1);
  if (body.length !== header.bytes) return { kind: 'corrupt', reason: `body is ${body.length} bytes, header says ${String(header.bytes)} (torn write)` };
  if (createHash('sha256').update(body).digest('hex') !== header.sha256) return { kind: 'corrupt', reason: 'checksum mismatch' };
  let data: unknown;
  try {
    data = JSON.parse(body.toString('utf8'));
  } catch {
    return { kind: 'corrupt', reason: 'body is not JSON' };
  }
  if (!isUsageData(data)) return { kind: 'corrupt', reason: 'body does not hold usage counters' };
  return { kind: 'ok', data, writtenAt: typeof header.written_at === 'string' ? header.written_at : '' };
}

export function readSnapshotFile(file: string): SnapshotRead {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'corrupt', reason: `cannot read (${(err as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  return decodeSnapshot(bytes);
}

export interface RestoreResult {
  readonly source: 'current' | 'previous' | 'none';
  readonly writtenAt?: string;
  /** Set when the current file was corrupt (and moved aside). */
  readonly corruptReason?: string;
}

/** Boot: restores `store` from `file` (or its `.prev`) following the table above. */
export function restoreUsage(file: string, store: MemoryUsageStore, logger?: Logger): RestoreResult {
  const current = readSnapshotFile(file);
  if (current.kind === 'ok') {
    store.import(current.data);
    logger?.info({ snapshot: file, writtenAt: current.writtenAt }, 'usage counts restored');
    return { source: 'current', writtenAt: current.writtenAt };
  }
  const prevFile = `${file}.prev`;
  const previous = readSnapshotFile(prevFile);
  if (current.kind === 'corrupt') {
    logger?.error({ snapshot: file, problem: current.reason }, 'usage snapshot is corrupt');
    if (previous.kind !== 'ok') {
      throw new UsageSnapshotError(
        `usage snapshot ${file} is corrupt (${current.reason}) and no valid previous snapshot (${prevFile}) exists. ` +
          'Refusing to start with zeroed counts: restore a backup, or move the file away to start counting from zero.',
      );
    }
    const aside = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    renameSync(file, aside);
    store.import(previous.data);
    logger?.error(
      { snapshot: file, movedTo: aside, restoredFrom: prevFile, writtenAt: previous.writtenAt },
      'usage counts restored from the previous snapshot; counts since it was written are lost',
    );
    return { source: 'previous', writtenAt: previous.writtenAt, corruptReason: current.reason };
  }
  if (previous.kind === 'ok') {
    store.import(previous.data);
    logger?.warn({ snapshot: file, restoredFrom: prevFile, writtenAt: previous.writtenAt }, 'usage snapshot missing; restored the previous one');
    return { source: 'previous', writtenAt: previous.writtenAt };
  }
  if (previous.kind === 'corrupt') {
    throw new UsageSnapshotError(
      `usage snapshot ${file} is missing and the previous one (${prevFile}) is corrupt (${previous.reason}). ` +
        'Refusing to start with zeroed counts: restore a backup, or move the file away to start counting from zero.',
    );
  }
  logger?.info({ snapshot: file }, 'no usage snapshot yet: counting from zero');
  return { source: 'none' };
}

/**
 * One gateway per snapshot file: two processes writing the same file would each overwrite the
 * other's counts. `<file>.lock` holds the owner's pid; a lock whose process is gone is taken over.
 * Returns the release function.
 */
export function lockSnapshot(file: string): () => void {
  const lock = `${file}.lock`;
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lock, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        rmSync(lock, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let owner = Number.NaN;
      try {
        owner = Number(readFileSync(lock, 'utf8').trim());
      } catch {
        // Vanished between the two calls: retry.
      }
      if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) {
        throw new UsageSnapshotError(
          `${file} is in use by another gateway (pid ${owner}). Give each gateway its own DATA_DIR, or share counts with STATE_BACKEND=redis.`,
        );
      }
      rmSync(lock, { force: true });
    }
  }
  throw new UsageSnapshotError(`cannot lock ${file}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface SnapshotWriterOptions {
  readonly file: string;
  readonly store: MemoryUsageStore;
  /** Default 2000 ms. */
  readonly intervalMs?: number;
  readonly logger?: Logger;
  readonly onWrite?: (ok: boolean) => void;
  /** Write at the first tick even if nothing changes (after a restore from `.prev`). */
  readonly dirty?: boolean;
}

/** Writes the store every `intervalMs` when it changed, and once more on `close()`. */
export class SnapshotWriter {
  readonly #file: string;
  readonly #store: MemoryUsageStore;
  readonly #logger: Logger | undefined;
  readonly #onWrite: ((ok: boolean) => void) | undefined;
  readonly #timer: NodeJS.Timeout;
  #writtenVersion: number;
  #writing: Promise<void> | null = null;

  constructor(options: SnapshotWriterOptions) {
    const intervalMs = options.intervalMs ?? 2000;
    if (!Number.isFinite(intervalMs) || intervalMs < 10) throw new RangeError('SnapshotWriter: intervalMs must be >= 10');
    this.#file = options.file;
    this.#store = options.store;
    this.#logger = options.logger;
    this.#onWrite = options.onWrite;
    this.#writtenVersion = options.dirty ? Number.NaN : options.store.version;
    this.#timer = setInterval(() => void this.flush(), intervalMs);
    this.#timer.unref();
  }

  /** Writes now if anything changed since the last write; concurrent calls share one write. */
  async flush(): Promise<void> {
    while (this.#writing) await this.#writing;
    const version = this.#store.version;
    if (version === this.#writtenVersion) return;
    this.#writing = this.#write(version).finally(() => {
      this.#writing = null;
    });
    await this.#writing;
  }

  /** Stops the timer and writes the final state. */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush();
  }

  async #write(version: number): Promise<void> {
    const bytes = encodeSnapshot(this.#store.export());
    const dir = path.dirname(path.resolve(this.#file));
    const tmp = `${this.#file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await mkdir(dir, { recursive: true });
      const fh = await open(tmp, 'w', 0o600);
      try {
        await fh.writeFile(bytes);
        await fh.sync();
      } finally {
        await fh.close();
      }
      await rename(this.#file, `${this.#file}.prev`).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      });
      await rename(tmp, this.#file);
      await syncDir(dir);
      this.#writtenVersion = version;
      this.#onWrite?.(true);
    } catch (err) {
      await rm(tmp, { force: true }).catch(() => undefined);
      this.#logger?.error({ snapshot: this.#file, code: (err as NodeJS.ErrnoException).code }, 'usage snapshot write failed');
      this.#onWrite?.(false);
    }
  }
}

async function syncDir(dir: string): Promise<void> {
  try {
    const fh = await open(dir, 'r');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch {
    // Directory fsync is not available everywhere; rename is still atomic.
  }
}

function isUsageData(v: unknown): v is UsageData {
  if (!isPlainObject(v)) return false;
  for (const [period, subjects] of Object.entries(v)) {
    if (!PERIOD.test(period) || !isPlainObject(subjects)) return false;
    for (const counters of Object.values(subjects)) {
      if (!isPlainObject(counters)) return false;
      for (const n of Object.values(counters)) if (!Number.isSafeInteger(n) || (n as number) < 0) return false;
    }
  }
  return true;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
