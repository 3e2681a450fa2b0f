/**
 * SSRF and DNS-rebinding targets (SSRF_DNS_REBINDING) in URLs: cloud metadata endpoints, private,
 * loopback, link-local, CGNAT and reserved addresses in every numeric spelling inet_aton accepts
 * (`2130706433`, `0x7f.1`, `0177.0.0.1`), IPv6 loopback/ULA/link-local and IPv4-mapped, NAT64 and
 * 6to4 forms of those, internal names (`localhost`, `*.internal`) and wildcard-DNS rebinding
 * services (nip.io, sslip.io, localtest.me, ...). Non-web schemes that reach internal services
 * (gopher, file, dict, ...) count too.
 */
import ipaddr from 'ipaddr.js';
import type { UrlHit } from './urls.ts';

export interface SsrfVerdict {
  readonly rule: string;
  readonly confidence: number;
}

/** Wildcard DNS services that resolve any name to the address it spells, and known rebinders. */
const REBINDING_SUFFIXES = ['nip.io', 'sslip.io', 'xip.io', 'nip.direct', 'localtest.me', 'lvh.me', 'vcap.me', 'lacolhost.com', 'fuf.me', '1u.ms', 'rbndr.us', 'rebind.it', 'rebind.network', 'traefik.me', 'readme.localtest.me', 'localh.st', 'backname.io', 'ip.me.uk'];
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata', 'metadata.azure.com', 'instance-data', 'instance-data.ec2.internal', 'metadata.platformequinix.com', 'metadata.packet.net']);
const METADATA_V4 = new Set([0xa9fea9fe /* 169.254.169.254 */, 0xa9fea902 /* 169.254.170.2 ECS */, 0x646464c8 /* 100.100.100.200 Alibaba */, 0xc00000c0 /* 192.0.0.192 */]);
const DANGEROUS_SCHEMES = new Set(['gopher', 'file', 'dict', 'ldap', 'tftp', 'jar', 'netdoc', 'smb', 'telnet', 'redis']);

function decodePercent(s: string): string {
  if (!s.includes('%')) return s;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '%' && i + 2 < s.length && isHex(s.charCodeAt(i + 1)) && isHex(s.charCodeAt(i + 2))) {
      out += String.fromCharCode(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else out += s[i];
  }
  return out;
}

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
}

/** One inet_aton part: decimal, octal (leading 0) or hex (0x); NaN when not numeric. */
function parsePart(p: string): number {
  if (p === '') return NaN;
  let base = 10;
  let s = p;
  if (s.length > 1 && (s[1] === 'x' || s[1] === 'X') && s[0] === '0') {
    base = 16;
    s = s.slice(2);
    if (s === '') return 0;
  } else if (s.length > 1 && s[0] === '0') {
    base = 8;
    s = s.slice(1);
  }
  let v = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let d: number;
    if (c >= 48 && c <= 57) d = c - 48;
    else if (c >= 97 && c <= 102) d = c - 87;
    else if (c >= 65 && c <= 70) d = c - 55;
    else return NaN;
    if (d >= base) return NaN;
    v = v * base + d;
    if (v > 0xffffffff) return NaN;
  }
  return v;
}

/**
 * IPv4 value of `host` in any inet_aton spelling (1 to 4 parts), and whether the spelling is
 * unusual (not plain dotted decimal). Null when the host is not numeric.
 */
export function parseIpv4Loose(host: string): { value: number; unusual: boolean } | null {
  const parts = host.split('.');
  if (parts.length > 4 || parts.length === 0) return null;
  const nums = parts.map(parsePart);
  if (nums.some((n) => Number.isNaN(n))) return null;
  let value = 0;
  const n = nums.length;
  for (let i = 0; i < n - 1; i++) {
    if (nums[i]! > 255) return null;
    value = value * 256 + nums[i]!;
  }
  const lastBits = 8 * (5 - n);
  const last = nums[n - 1]!;
  if (last >= 2 ** lastBits) return null;
  value = value * 2 ** lastBits + last;
  const plain = n === 4 && parts.every((p) => p.length > 0 && p.length <= 3 && (p === '0' || p[0] !== '0') && parsePart(p) <= 255 && !p.includes('x'));
  return { value: value >>> 0, unusual: !plain };
}

/** Why an IPv4 address (as a 32-bit value) is not a public target, or null when public. */
export function classifyIpv4(v: number): string | null {
  if (METADATA_V4.has(v)) return 'metadata';
  const a = v >>> 24;
  const b = (v >>> 16) & 0xff;
  if (a === 127) return 'loopback';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private';
  if (a === 169 && b === 254) return 'link_local';
  if (a === 100 && b >= 64 && b <= 127) return 'cgnat';
  if (a === 0) return 'unspecified';
  if (a >= 224) return 'reserved';
  if ((a === 192 && b === 0 && ((v >>> 8) & 0xff) === 0) || (a === 198 && (b === 18 || b === 19))) return 'reserved';
  return null;
}

function classifyIpv6(raw: string): string | null {
  let addr: ipaddr.IPv6;
  try {
    const zone = raw.indexOf('%');
    addr = ipaddr.IPv6.parse(zone >= 0 ? raw.slice(0, zone) : raw);
  } catch {
    return null;
  }
  const range = addr.range();
  if (addr.toNormalizedString() === 'fd00:ec2:0:0:0:0:0:254') return 'metadata';
  if (range === 'ipv4Mapped' || range === 'rfc6052' || range === 'rfc6145' || range === '6to4') {
    const bytes = addr.toByteArray();
    const off = range === '6to4' ? 2 : 12;
    const v = ((bytes[off]! << 24) | (bytes[off + 1]! << 16) | (bytes[off + 2]! << 8) | bytes[off + 3]!) >>> 0;
    const inner = classifyIpv4(v);
    return inner === null ? null : `${range === 'ipv4Mapped' ? 'mapped' : 'nat64'}_${inner}`;
  }
  if (range === 'loopback' || range === 'uniqueLocal' || range === 'linkLocal' || range === 'unspecified' || range === 'multicast' || range === 'reserved') return range;
  return null;
}

/**
 * The SSRF verdict for one URL, or null when it targets a public host over a web scheme. A
 * scheme-less `host:port` ("ECONNREFUSED 127.0.0.1:5432", "localhost port 3000") is how people
 * describe their own setup: only metadata endpoints count there at full strength.
 */
export function classifyUrl(u: UrlHit): SsrfVerdict | null {
  const v = classifyTarget(u);
  if (v === null || u.hasScheme || v.confidence >= 0.95) return v;
  return { rule: v.rule, confidence: 0.4 };
}

function classifyTarget(u: UrlHit): SsrfVerdict | null {
  // URL parsers (IDNA) read the ideographic and fullwidth full stops as dots
  let host = decodePercent(u.host).toLowerCase().replaceAll('\u3002', '.').replaceAll('\uff0e', '.').replaceAll('\uff61', '.');
  while (host.endsWith('.')) host = host.slice(0, -1);
  if (DANGEROUS_SCHEMES.has(u.scheme)) return { rule: `ssrf.scheme_${u.scheme}`, confidence: 0.8 };
  if (host === '') return null;
  if (host.startsWith('[') && host.endsWith(']')) {
    const why = classifyIpv6(host.slice(1, -1));
    if (why === null) return null;
    return { rule: `ssrf.ipv6_${why}`, confidence: why.includes('metadata') ? 0.95 : 0.85 };
  }
  if (METADATA_NAMES.has(host)) return { rule: 'ssrf.metadata_host', confidence: 0.95 };
  const v4 = parseIpv4Loose(host);
  if (v4 !== null) {
    const why = classifyIpv4(v4.value);
    if (why === null) return null;
    const conf = why === 'metadata' ? 0.95 : v4.unusual ? 0.9 : 0.8;
    return { rule: v4.unusual ? `ssrf.encoded_ipv4_${why}` : `ssrf.ipv4_${why}`, confidence: conf };
  }
  if (host === 'localhost' || host.endsWith('.localhost') || host === 'ip6-localhost' || host === 'localhost.localdomain') return { rule: 'ssrf.localhost', confidence: 0.85 };
  for (const suffix of REBINDING_SUFFIXES) {
    if (host === suffix || host.endsWith('.' + suffix)) return { rule: 'ssrf.rebinding_domain', confidence: 0.85 };
  }
  if (host.endsWith('.internal') || host.endsWith('.local') || host.endsWith('.svc') || host.endsWith('.cluster.local') || host === 'kubernetes.default') {
    return { rule: 'ssrf.internal_name', confidence: 0.7 };
  }
  return null;
}
