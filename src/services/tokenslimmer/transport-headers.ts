/** Transport headers of a pasted message's header block (boilerplate.ts): what mail servers and clients add for delivery. */
import { holdsValue } from './pasted-lines.ts';

/** Header names of message transport and client bookkeeping (lower case); X- headers by PERSON_X_RE. */
const TRANSPORT_HEADERS: ReadonlySet<string> = new Set([
  'received', 'return-path', 'delivered-to', 'envelope-to', 'dkim-signature', 'domainkey-signature', 'arc-seal',
  'arc-message-signature', 'arc-authentication-results', 'authentication-results', 'received-spf', 'mime-version',
  'content-type', 'content-transfer-encoding', 'content-language', 'accept-language', 'message-id', 'in-reply-to',
  'references', 'thread-index', 'thread-topic', 'list-unsubscribe', 'list-unsubscribe-post', 'list-id', 'list-archive',
  'list-help', 'list-post', 'list-subscribe', 'list-owner', 'precedence', 'feedback-id', 'user-agent', 'x-mailer',
]);
/** Extension headers (X-…) are servers', filters' and clients' bookkeeping, but for those that name people. */
const PERSON_X_RE = /^x-(?:from|to|cc|bcc|sender|original-from|original-to)$/;
/** The headers that make a block a message header (one of them must be there). */
const MESSAGE_HEADERS: ReadonlySet<string> = new Set(['from', 'to', 'subject', 'date', 'sent']);
/** "Name: value" (or "Name:" alone) of a header line, under quote markers; the name is group 1. */
const HEADER_LINE_RE = /^[ \t]{0,3}(?:>[ \t]?)*([A-Za-z][A-Za-z0-9-]{0,60}):(?:[ \t]|$)/;
/**
 * A line that may open a transport header (the gate of dropTransportHeaders, read in the line
 * loop): "X-…:", a hyphenated name before the colon, or a name of 8 or 10 letters (Received,
 * References, Precedence). The pass itself checks the names.
 */
export function mayOpenTransport(body: string): boolean {
  const k = body.indexOf(':');
  if (k < 2 || k > 60) return false;
  if ((body.charCodeAt(0) | 0x20) === 120 /* x */ && body.charCodeAt(1) === 45 /* - */) return true;
  const dash = body.indexOf('-');
  return (dash > 0 && dash < k) || k === 8 || k === 10;
}
const HEADER_BLOCK_MIN = 3;

/**
 * Drops transport headers (see boilerplate.ts's module comment) in each header block of `lines`:
 * in aggressive all of them, in balanced those whose value holds no protected value. A folded
 * header's continuation lines (opening with a blank) go with it. Returns whether a line was dropped.
 */
export function dropTransportHeaders(lines: string[], kind: Uint8Array, aggressive: boolean): boolean {
  const n = lines.length;
  let dropped = false;
  for (let i = 0; i < n; ) {
    if (kind[i] !== 0 || !HEADER_LINE_RE.test(lines[i]!)) {
      i++;
      continue;
    }
    // The block: header lines and their continuations, up to a blank or other line.
    const names: string[] = [];
    const starts: number[] = [];
    let j = i;
    for (; j < n && kind[j] === 0; j++) {
      const line = lines[j]!;
      const m = HEADER_LINE_RE.exec(line);
      if (m) {
        names.push(m[1]!.toLowerCase());
        starts.push(j);
      } else if (j === i || line.trim() === '' || !(line.charCodeAt(0) === 32 || line.charCodeAt(0) === 9)) break;
    }
    if (names.length >= HEADER_BLOCK_MIN && names.some((x) => MESSAGE_HEADERS.has(x))) {
      for (let h = 0; h < names.length; h++) {
        const name = names[h]!;
        const from = starts[h]!;
        const to = h + 1 < starts.length ? starts[h + 1]! : j;
        let value = lines[from]!.slice(lines[from]!.indexOf(':') + 1);
        for (let k = from + 1; k < to; k++) value += ' ' + lines[k]!;
        const empty = value.trim() === '';
        const transport = TRANSPORT_HEADERS.has(name) || (name.startsWith('x-') && !PERSON_X_RE.test(name));
        if (empty || (transport && (aggressive || !holdsValue(value)))) {
          for (let k = from; k < to; k++) kind[k] = 2;
          dropped = true;
        }
      }
    }
    i = j > i ? j : i + 1;
  }
  return dropped;
}
