/**
 * Which IP addresses an outbound fetch may connect to (CONTRACT.md §5 API-01, SSRF defence).
 *
 * Only public unicast is allowed. ipaddr.js names the special ranges (RFC 6890 registry); on top
 * of that, forms that carry an IPv4 address inside IPv6 (IPv4-mapped ::ffff:0:0/96, SIIT
 * ::ffff:0:0:0/96, NAT64 64:ff9b::/96, 6to4 2002::/16) are judged by the IPv4 address they carry,
 * so `[::ffff:127.0.0.1]` or `64:ff9b::a00:1` cannot reach loopback or RFC 1918 space.
 */
import ipaddr from 'ipaddr.js';

export interface AddressVerdict {
  readonly allowed: boolean;
  /** The range name (`loopback`, `private`, `uniqueLocal`, ... or `unicast`), for logs and errors. */
  readonly range: string;
}

/** IPv6 ranges that embed an IPv4 address in their last 32 bits. */
const EMBEDS_IPV4_LOW32 = new Set(['ipv4Mapped', 'rfc6145']);

/** Global unicast IPv6 is 2000::/3 (RFC 4291 §2.4); anything outside it is not routable on the internet. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
/** RFC 6052 well-known NAT64 prefix; the local-use 64:ff9b:1::/48 (RFC 8215) is refused outright. */
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');

/**
 * Classifies an IP address literal (no brackets). Anything that does not parse is refused.
 *
 * @example classifyAddress('10.0.0.1') // { allowed: false, range: 'private' }
 */
export function classifyAddress(address: string): AddressVerdict {
  if (!ipaddr.isValid(address)) return { allowed: false, range: 'invalid' };
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return classifyV4(parsed as ipaddr.IPv4);
  return classifyV6(parsed as ipaddr.IPv6);
}

function classifyV4(ip: ipaddr.IPv4): AddressVerdict {
  const range = ip.range();
  return { allowed: range === 'unicast', range };
}

function classifyV6(ip: ipaddr.IPv6): AddressVerdict {
  const range = ip.range();
  if (EMBEDS_IPV4_LOW32.has(range) || ip.match(NAT64_WELL_KNOWN)) {
    const inner = classifyV4(low32(ip));
    return inner.allowed ? inner : { allowed: false, range: `${range}:${inner.range}` };
  }
  if (range === '6to4') {
    // 2002:AABB:CCDD::/48 routes to the IPv4 address AA.BB.CC.DD.
    const p = ip.parts;
    const inner = classifyV4(new ipaddr.IPv4([p[1]! >> 8, p[1]! & 0xff, p[2]! >> 8, p[2]! & 0xff]));
    return inner.allowed ? inner : { allowed: false, range: `6to4:${inner.range}` };
  }
  if (range !== 'unicast') return { allowed: false, range };
  // ipaddr.js calls every unlisted address "unicast", including unassigned space such as ::/8.
  if (!ip.match(GLOBAL_UNICAST_V6)) return { allowed: false, range: 'reserved' };
  return { allowed: true, range };
}

function low32(ip: ipaddr.IPv6): ipaddr.IPv4 {
  const p = ip.parts;
  return new ipaddr.IPv4([p[6]! >> 8, p[6]! & 0xff, p[7]! >> 8, p[7]! & 0xff]);
}
