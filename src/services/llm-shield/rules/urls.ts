/**
 * URL candidates in the light view (RE2, linear): `scheme://authority/rest`, plus scheme-less
 * `host:port/...` forms written with an IP literal or a well-known internal name. Shared by the
 * SSRF and exfiltration families.
 */
import RE2 from 're2';

export interface UrlHit {
  /** offsets in the light view */
  readonly start: number;
  readonly end: number;
  readonly scheme: string;
  /** raw authority host (may be percent-encoded, bracketed, numeric) */
  readonly host: string;
  readonly userinfo: string;
  readonly rest: string;
  /** false for scheme-less `host:port/path` spans (weaker evidence of a fetch target) */
  readonly hasScheme: boolean;
}

export interface UrlPatterns {
  readonly withScheme: RE2;
  readonly bare: RE2;
}

export function createUrlPatterns(): UrlPatterns {
  return {
    withScheme: new RE2(String.raw`\b([a-zA-Z][a-zA-Z0-9+.-]{1,15}):(?://|\\\\)([^\s<>"'\x60()\[\]{}]*(?:\[[0-9a-fA-F:.%a-zA-Z]{2,64}\][^\s<>"'\x60(){}]*)?)`, 'g'),
    bare: new RE2(String.raw`(?:^|[\s(<"'=])((?:\d{1,10}(?:\.[0-9a-fA-Fx]{1,10}){0,3}|\[[0-9a-fA-F:.]{2,64}\]|localhost|metadata(?:\.google)?\.internal|169\.254\.169\.254|instance-data)(?::\d{1,5})?(?:/[^\s<>"'\x60]*)?)`, 'gi'),
  };
}

const SCHEMES = new Set(['http', 'https', 'ftp', 'ftps', 'gopher', 'file', 'dict', 'ldap', 'ldaps', 'sftp', 'tftp', 'ws', 'wss', 'jar', 'netdoc', 'smb', 'telnet', 'redis', 'mysql', 'postgres', 'postgresql', 'mongodb', 'amqp', 'imap', 'smtp']);

/** Splits `authority/rest` into userinfo, host and rest (no regex: a few indexOf calls). */
function splitAuthority(s: string): { userinfo: string; host: string; rest: string } {
  let cut = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 47 || c === 63 || c === 35 || c === 92) {
      cut = i;
      break;
    }
  }
  const authority = s.slice(0, cut);
  const rest = s.slice(cut);
  const at = authority.lastIndexOf('@');
  const userinfo = at >= 0 ? authority.slice(0, at) : '';
  const hostPort = at >= 0 ? authority.slice(at + 1) : authority;
  let host = hostPort;
  if (hostPort.startsWith('[')) {
    const close = hostPort.indexOf(']');
    host = close > 0 ? hostPort.slice(0, close + 1) : hostPort;
  } else {
    const colon = hostPort.lastIndexOf(':');
    if (colon >= 0 && isDigits(hostPort.slice(colon + 1), 0, 5)) host = hostPort.slice(0, colon);
  }
  return { userinfo, host, rest };
}

/** Every URL-like span of `text`. */
export function findUrls(text: string, lower: string, p: UrlPatterns): UrlHit[] {
  const out: UrlHit[] = [];
  p.withScheme.lastIndex = 0;
  const schemes = lower.includes('://') || lower.includes(':\\\\');
  for (let m = schemes ? p.withScheme.exec(text) : null; m !== null; m = p.withScheme.exec(text)) {
    const scheme = m[1]!.toLowerCase();
    if (!SCHEMES.has(scheme)) continue;
    const body = trimTrailing(m[2]!);
    const { userinfo, host, rest } = splitAuthority(body);
    const end = m.index + scheme.length + 3 + body.length;
    out.push({ start: m.index, end, scheme, host, userinfo, rest, hasScheme: true });
  }
  p.bare.lastIndex = 0;
  const schemeCount = out.length;
  let cursor = 0;
  const bare = BARE_NEEDLES.some((n) => lower.includes(n)) || hasNumericTarget(text);
  for (let m = bare ? p.bare.exec(text) : null; m !== null; m = p.bare.exec(text)) {
    const body = trimTrailing(m[1]!);
    const start = m.index + m[0].length - m[1]!.length;
    // scheme URLs are sorted by start: advance one pointer instead of scanning them all
    while (cursor < schemeCount && out[cursor]!.end <= start) cursor++;
    if (cursor < schemeCount && start >= out[cursor]!.start) continue;
    const { userinfo, host, rest } = splitAuthority(body);
    // A bare address is only a target with a port or a path ("2130706433/admin", "10.0.0.1:8080");
    // "my router is 192.168.1.1" is prose (the IP is still redacted as PII).
    if (host === body && host !== '169.254.169.254' && !isNamedInternal(host)) continue;
    // Numeric hosts: a dotted quad, a 32-bit number of 8+ digits or a 0x form; "05/12/2021" and
    // "03:29" are dates and times.
    if (isDigit(host.charCodeAt(0)) && !numericHostShape(host)) continue;
    out.push({ start, end: start + body.length, scheme: '', host, userinfo, rest, hasScheme: false });
  }
  return out;
}

function isDigits(s: string, min: number, max: number): boolean {
  if (s.length < min || s.length > max) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

const BARE_NEEDLES = ['localhost', '.internal', 'instance-data', '169.254', '[::', '[0:', '[fd', '[fe8'];

/** A digit directly followed by ':' or '/' (a numeric host with a port or a path). */
function hasNumericTarget(text: string): boolean {
  for (let i = text.indexOf('/'); i >= 0; i = text.indexOf('/', i + 1)) if (i > 0 && isDigit(text.charCodeAt(i - 1))) return true;
  for (let i = text.indexOf(':'); i >= 0; i = text.indexOf(':', i + 1)) if (i > 0 && isDigit(text.charCodeAt(i - 1)) && isDigit(text.charCodeAt(i + 1))) return true;
  return false;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function numericHostShape(host: string): boolean {
  if (host.includes('0x') || host.includes('0X')) return true;
  const parts = host.split('.');
  if (parts.length === 4) return parts.every((p) => isDigits(p, 1, 4));
  return parts.length === 1 && isDigits(host, 8, 10);
}

function isNamedInternal(host: string): boolean {
  const h = host.toLowerCase();
  return h === 'localhost' || h === 'instance-data' || h.endsWith('.internal');
}

function trimTrailing(s: string): string {
  let e = s.length;
  while (e > 0 && '.,;:!?\'"*_'.includes(s[e - 1]!)) e--;
  return s.slice(0, e);
}
