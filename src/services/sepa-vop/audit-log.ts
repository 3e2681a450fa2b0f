/**
 * Optional append-only, hash-chained log of audit seals (AUDIT_LOG). One JSON line per sealed
 * response; no IBAN, name or body, only hashes:
 *
 *   {"seq":n,"time":RFC3339,"request_id":"...","kid":"...","digest":"sha256:…","prev":"sha256:…","hash":"sha256:…"}
 *
 *   hash = "sha256:" + hex SHA-256 of the RFC 8785 canonical JSON of the record without `hash`
 *   prev = hash of the previous record (GENESIS_HASH for the first), seq = previous seq + 1
 *
 * Editing a record breaks its hash; removing or reordering records breaks `prev`/`seq` of the
 * next one (see `verifyAuditLog`). Cutting records off the end leaves a valid shorter chain:
 * compare the head hash with one kept elsewhere to detect that.
 */
import { closeSync, createWriteStream, existsSync, openSync, readFileSync, type WriteStream } from 'node:fs';
import { createHash } from 'node:crypto';
import { canonicalize } from './canonical-json.ts';

export const GENESIS_HASH = `sha256:${'0'.repeat(64)}`;

export interface AuditRecord {
  seq: number;
  time: string;
  request_id: string;
  kid: string;
  digest: string;
  prev: string;
  hash: string;
}

export function recordHash(record: Omit<AuditRecord, 'hash'> & { hash?: string }): string {
  const { hash: _hash, ...rest } = record;
  return `sha256:${createHash('sha256').update(canonicalize(rest)).digest('hex')}`;
}

export type AuditVerdict =
  | { ok: true; records: number; head: string }
  | { ok: false; records: number; line: number; reason: string };

const RECORD_KEYS = ['digest', 'hash', 'kid', 'prev', 'request_id', 'seq', 'time'];
const HASH_SHAPE = /^sha256:[0-9a-f]{64}$/;

/** Checks a whole log: every record's hash, the chain of `prev` and consecutive `seq` from 1. */
export function verifyAuditLog(text: string): AuditVerdict {
  let prev = GENESIS_HASH;
  let seq = 0;
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  for (let i = 0; i < lines.length; i++) {
    const line = i + 1;
    let rec: AuditRecord;
    try {
      rec = JSON.parse(lines[i]!) as AuditRecord;
    } catch {
      return { ok: false, records: seq, line, reason: 'not JSON' };
    }
    if (typeof rec !== 'object' || rec === null || Object.keys(rec).sort().join() !== RECORD_KEYS.join()) {
      return { ok: false, records: seq, line, reason: 'not an audit record (unexpected or missing fields)' };
    }
    if (typeof rec.hash !== 'string' || !HASH_SHAPE.test(rec.hash) || typeof rec.digest !== 'string' || !HASH_SHAPE.test(rec.digest)) {
      return { ok: false, records: seq, line, reason: 'malformed hash or digest' };
    }
    if (rec.seq !== seq + 1) return { ok: false, records: seq, line, reason: `seq ${String(rec.seq)} where ${seq + 1} was expected (record removed or reordered)` };
    if (rec.prev !== prev) return { ok: false, records: seq, line, reason: 'prev does not match the previous record (record removed, inserted or reordered)' };
    if (recordHash(rec) !== rec.hash) return { ok: false, records: seq, line, reason: 'hash does not match the record (record edited)' };
    prev = rec.hash;
    seq = rec.seq;
  }
  return { ok: true, records: seq, head: prev };
}

export interface AuditLog {
  append(entry: { time: string; requestId: string; kid: string; digest: string }): void;
  /** False once a write failed. */
  healthy(): boolean;
  close(): Promise<void>;
}

/**
 * Opens (or creates) the log at `path` and continues its chain. An existing file must verify:
 * a broken chain stops the boot with the line number, so tampering is never papered over.
 * Writes go through one append stream (in order, off the request path).
 */
export function openAuditLog(path: string, onError: (err: Error) => void): AuditLog {
  let prev = GENESIS_HASH;
  let seq = 0;
  if (existsSync(path)) {
    const verdict = verifyAuditLog(readFileSync(path, 'utf8'));
    if (!verdict.ok) throw new Error(`AUDIT_LOG: existing log fails verification at line ${verdict.line}: ${verdict.reason}`);
    prev = verdict.head;
    seq = verdict.records;
  }
  try {
    // Surface a missing directory or a permission problem at boot, not on the first request.
    closeSync(openSync(path, 'a', 0o600));
  } catch (err) {
    throw new Error(`AUDIT_LOG: cannot open ${path} for appending (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let ok = true;
  const stream: WriteStream = createWriteStream(path, { flags: 'a', encoding: 'utf8', mode: 0o600 });
  stream.on('error', (err) => {
    ok = false;
    onError(err);
  });
  return {
    append({ time, requestId, kid, digest }) {
      const rec: Omit<AuditRecord, 'hash'> = { seq: seq + 1, time, request_id: requestId, kid, digest, prev };
      const hash = recordHash(rec);
      seq = rec.seq;
      prev = hash;
      stream.write(`${JSON.stringify({ ...rec, hash })}\n`);
    },
    healthy: () => ok,
    close: () =>
      new Promise<void>((resolve) => {
        if (stream.closed || stream.destroyed) return resolve();
        stream.end(() => resolve());
      }),
  };
}
