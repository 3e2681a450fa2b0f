/**
 * The gateway's view of API_KEYS_FILE: a lookup table from SHA-256 digest to tenant and plan,
 * reloaded within a second of any change to the file, without a restart.
 *
 * Change detection uses both `fs.watch` on the directory (immediate on Linux/macOS; a directory
 * watch also sees the atomic rename that `npm run keys` does) and a stat poll every `pollMs`
 * (inode, size, mtime, ctime) for file systems where watch events do not arrive (NFS, some
 * containers). A file that fails to parse keeps the last good key set and logs an error: a typo
 * in the file must not lock every customer out. At boot an invalid file is fatal.
 *
 * Lookup: the presented key is hashed (SHA-256), bucketed by the digest's first 32 bits, and the
 * full 32-byte digests are compared with `crypto.timingSafeEqual`. Timing can at most reveal bits
 * of a digest, never of a key.
 */
import { hash, timingSafeEqual } from 'node:crypto';
import { statSync, watch, type FSWatcher } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { PlanName } from '../config.ts';
import type { Logger } from '../observability/logger.ts';
import { KeysFileError, parseKeysFile, readKeysFile, type KeysFile } from './keys-file.ts';

export interface KeyRecord {
  readonly id: string;
  readonly tenant: string;
  readonly plan: PlanName;
  readonly digest: Buffer;
}

export interface KeyStoreOptions {
  readonly file: string;
  readonly logger?: Logger;
  /** Stat poll interval (ms); the fallback when watch events do not arrive. Default 250. */
  readonly pollMs?: number;
  /** Use fs.watch besides the poll (default true; false exercises the poll alone). */
  readonly watch?: boolean;
  /** Called after each successful (re)load with the number of active keys. */
  readonly onLoad?: (activeKeys: number) => void;
}

/** Longest key accepted for hashing: anything longer cannot be one of ours. */
const MAX_KEY_LENGTH = 256;

export class KeyStore {
  readonly file: string;
  #table = new Map<number, KeyRecord[]>();
  #active = 0;
  #watcher: FSWatcher | null = null;
  #poll: NodeJS.Timeout | null = null;
  #debounce: NodeJS.Timeout | null = null;
  #signature = '';
  #reloading: Promise<void> | null = null;
  #again = false;
  #lastError = '';
  readonly #logger: Logger | undefined;
  readonly #pollMs: number;
  readonly #onLoad: ((n: number) => void) | undefined;
  readonly #useWatch: boolean;

  constructor(options: KeyStoreOptions) {
    if (typeof options.file !== 'string' || options.file === '') throw new TypeError('KeyStore: file must be a path');
    const pollMs = options.pollMs ?? 250;
    if (!Number.isFinite(pollMs) || pollMs < 10 || pollMs > 1000) throw new RangeError('KeyStore: pollMs must be 10-1000 (keys must show up within a second)');
    this.file = options.file;
    this.#logger = options.logger;
    this.#pollMs = pollMs;
    this.#onLoad = options.onLoad;
    this.#useWatch = options.watch ?? true;
  }

  /** Loads the file synchronously (boot); throws KeysFileError when it is invalid. Then starts watching. */
  start(): this {
    // Signature first: a change during the read then shows up as a difference at the next poll.
    this.#signature = statSignatureSync(this.file);
    this.#apply(readKeysFile(this.file));
    const dir = path.dirname(path.resolve(this.file));
    const base = path.basename(this.file);
    if (this.#useWatch) this.#startWatch(dir, base);
    this.#poll = setInterval(() => void this.#checkStat(), this.#pollMs);
    this.#poll.unref();
    return this;
  }

  #startWatch(dir: string, base: string): void {
    try {
      this.#watcher = watch(dir, { persistent: false }, (_event, name) => {
        if (name === null || name === base || String(name) === base) this.#scheduleReload();
      });
      this.#watcher.on('error', () => {
        // The directory went away or the watch broke: the poll keeps working.
        this.#watcher?.close();
        this.#watcher = null;
      });
    } catch {
      // No directory yet, or watch unsupported: rely on the poll.
    }
  }

  /** Active (not revoked) keys currently loaded. */
  get size(): number {
    return this.#active;
  }

  /** The record of a presented key, or null when it is unknown or revoked. */
  lookup(presented: string): KeyRecord | null {
    if (presented.length === 0 || presented.length > MAX_KEY_LENGTH) return null;
    const digest = hash('sha256', presented, 'buffer') as Buffer;
    const bucket = this.#table.get(digest.readUInt32BE(0));
    if (bucket === undefined) return null;
    let found: KeyRecord | null = null;
    for (const rec of bucket) if (timingSafeEqual(rec.digest, digest)) found = rec;
    return found;
  }

  /** Re-reads the file now (tests, and the watch/poll triggers). Keeps the old set when the file is invalid. */
  reload(): Promise<void> {
    if (this.#reloading) {
      this.#again = true;
      return this.#reloading;
    }
    this.#reloading = (async () => {
      do {
        this.#again = false;
        await this.#reloadOnce();
      } while (this.#again);
    })().finally(() => {
      this.#reloading = null;
    });
    return this.#reloading;
  }

  close(): void {
    this.#watcher?.close();
    this.#watcher = null;
    if (this.#poll) clearInterval(this.#poll);
    if (this.#debounce) clearTimeout(this.#debounce);
    this.#poll = null;
    this.#debounce = null;
  }

  async #reloadOnce(): Promise<void> {
    const signature = await this.#statSignature();
    let parsed: KeysFile;
    try {
      parsed = signature === 'missing' ? { version: 1, keys: [] } : parseKeysFile(await readFile(this.file, 'utf8'), this.file);
    } catch (err) {
      const message = err instanceof KeysFileError ? err.message : `${this.file}: cannot read`;
      if (message !== this.#lastError) {
        this.#lastError = message;
        this.#logger?.error({ keysFile: this.file, problem: message, keptKeys: this.#active }, 'key file rejected; keeping the previous keys');
      }
      this.#signature = signature;
      return;
    }
    this.#lastError = '';
    this.#signature = signature;
    const before = this.#active;
    this.#apply(parsed);
    this.#logger?.info({ keysFile: this.file, activeKeys: this.#active, before }, 'key file reloaded');
  }

  #apply(file: KeysFile): void {
    const table = new Map<number, KeyRecord[]>();
    let active = 0;
    for (const k of file.keys) {
      if (k.revoked_at !== null) continue;
      const digest = Buffer.from(k.sha256, 'hex');
      const rec: KeyRecord = Object.freeze({ id: k.id, tenant: k.tenant, plan: k.plan, digest });
      const prefix = digest.readUInt32BE(0);
      const list = table.get(prefix);
      if (list) list.push(rec);
      else table.set(prefix, [rec]);
      active++;
    }
    // One assignment: a lookup sees the old table or the new one, never a mix.
    this.#table = table;
    this.#active = active;
    this.#onLoad?.(active);
  }

  #scheduleReload(): void {
    if (this.#debounce) return;
    // Editors and `rename` produce bursts of events: coalesce them.
    this.#debounce = setTimeout(() => {
      this.#debounce = null;
      void this.reload();
    }, 20);
    this.#debounce.unref();
  }

  async #checkStat(): Promise<void> {
    const s = await this.#statSignature();
    if (s !== this.#signature && this.#reloading === null) void this.reload();
  }

  async #statSignature(): Promise<string> {
    try {
      return signatureOf(await stat(this.file, { bigint: true }));
    } catch {
      return 'missing';
    }
  }
}

/** Identity of the file's current content: a rename changes the inode, an edit size or times. */
function signatureOf(s: { ino: bigint; size: bigint; mtimeNs: bigint; ctimeNs: bigint }): string {
  return `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
}

function statSignatureSync(file: string): string {
  try {
    return signatureOf(statSync(file, { bigint: true }));
  } catch {
    return 'missing';
  }
}
