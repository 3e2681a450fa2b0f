/**
 * The URL half of the SSRF policy: scheme, credentials, port, and the host's addresses.
 * WHATWG URL parsing has already turned numeric host tricks (`2130706433`, `0x7f.1`,
 * `0177.0.0.1`, `[::ffff:127.0.0.1]`) into canonical IP literals, so a literal host is judged
 * like any resolved address; a name is resolved once and every answer must pass.
 */
import { isIP } from 'node:net';
import { createError } from '../errors.ts';
import { classifyAddress } from './address.ts';

export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Resolves a host name to every address it has. Injected in tests (made-up names, no DNS). */
export type Resolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export interface TargetPolicy {
  /** Ports allowed besides 80 and 443. */
  readonly allowedPorts: ReadonlySet<number>;
  /** FETCH_ALLOW_PRIVATE: skip the address check (tests and local use only). */
  readonly allowPrivate: boolean;
}

/** A URL that passed the policy, with the address the socket must connect to. */
export interface CheckedTarget {
  readonly url: URL;
  /** Bare IP address (no brackets) that was checked; the connection is pinned to it. */
  readonly address: string;
  readonly port: number;
  /** Host name for TLS SNI and certificate checks; null for an IP-literal URL. */
  readonly servername: string | null;
}

const DEFAULT_PORTS = new Set([80, 443]);

/** Checks scheme, credentials and port without any I/O. Throws URL_BLOCKED. */
export function checkUrlShape(url: URL, policy: TargetPolicy): number {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw createError('URL_BLOCKED', 'Only http and https URLs can be fetched');
  if (url.username !== '' || url.password !== '') throw createError('URL_BLOCKED', 'URLs carrying credentials are refused');
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  if (!DEFAULT_PORTS.has(port) && !policy.allowedPorts.has(port)) throw createError('URL_BLOCKED', `Port ${port} is not allowed`);
  if (url.hostname === '') throw createError('URL_BLOCKED', 'The URL has no host');
  return port;
}

/** Bare IP of an IP-literal hostname (`[::1]` -> `::1`), or null for a name. */
export function literalAddress(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) === 0 ? null : bare;
}

/**
 * Special-use names that never name a public host (RFC 6761 `localhost`, RFC 6762 `.local`,
 * RFC 8375 `home.arpa`, RFC 7686 `.onion`, ICANN's private-use `.internal`): refused by name,
 * before any lookup, so a local resolver (split-horizon DNS, mDNS, /etc/hosts, a Tor proxy) is
 * never asked. A trailing dot and upper case are the same name.
 */
const SPECIAL_USE_NAME = /(?:^|\.)(?:localhost|local|internal|home\.arpa|onion)\.?$/i;

/** True when `hostname` is or ends in a special-use name (see SPECIAL_USE_NAME). */
export function isSpecialUseName(hostname: string): boolean {
  return SPECIAL_USE_NAME.test(hostname);
}

/**
 * Runs the whole policy on one URL (the first request or a redirect): shape, then every address
 * of the host. Throws URL_BLOCKED for a refused target, UPSTREAM_FAILED when the name has no address.
 */
export async function checkTarget(url: URL, policy: TargetPolicy, resolver: Resolver): Promise<CheckedTarget> {
  const port = checkUrlShape(url, policy);
  const literal = literalAddress(url.hostname);
  let addresses: readonly string[];
  if (literal !== null) {
    addresses = [literal];
  } else {
    if (!policy.allowPrivate && isSpecialUseName(url.hostname)) throw createError('URL_BLOCKED', 'The host is a special-use name (localhost, .local, .internal, .home.arpa, .onion)');
    let answers: readonly ResolvedAddress[];
    try {
      answers = await resolver(url.hostname);
    } catch (err) {
      throw createError('UPSTREAM_FAILED', 'The host name could not be resolved', { cause: err });
    }
    addresses = answers.map((a) => a.address);
    if (addresses.length === 0) throw createError('UPSTREAM_FAILED', 'The host name could not be resolved');
  }
  if (!policy.allowPrivate) {
    for (const address of addresses) {
      const verdict = classifyAddress(address);
      if (!verdict.allowed) throw createError('URL_BLOCKED', `The host resolves to a non-public address (${verdict.range})`);
    }
  }
  return { url, address: addresses[0]!, port, servername: literal === null ? url.hostname.replace(/\.$/, '') : null };
}
