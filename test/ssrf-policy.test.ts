/**
 * SSRF policy of the API-01 fetcher, one table. No case may open a socket to anything but
 * loopback: names are made up (`*.test`) and answered by an injected resolver; the connector
 * records the address the connection was pinned to and, for "public" addresses, connects to a
 * local server on 127.0.0.1 instead, so a public-looking target never leaves this machine.
 */
import assert from 'node:assert/strict';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { buildConnector } from 'undici';
import { SafeFetcher, type ResolvedAddress } from '../src/fetch/index.ts';
import { isGatewayError } from '../src/errors.ts';

/** A public address the policy accepts; nothing ever connects to it (the connector reroutes). */
const PUBLIC_V4 = '93.184.215.14';
const PUBLIC_V6 = '2606:2800:21f:cb07:6820:80da:af6b:8b2c';

const DNS: Record<string, string[]> = {
  'www.public.test': [PUBLIC_V4],
  'v6.public.test': [PUBLIC_V6],
  'localhost.test': ['127.0.0.1'],
  'metadata.test': ['169.254.169.254'],
  'mixed.test': [PUBLIC_V4, '10.0.0.5'],
  'v6ula.test': ['fd00::1'],
  'v6loop.test': ['::1'],
  'mapped.test': ['::ffff:192.168.0.1'],
  'nat64.test': ['64:ff9b::a00:1'],
  'cgnat.test': ['100.100.1.1'],
  'zero.test': ['0.0.0.0'],
  'multicast.test': ['239.255.255.250'],
  'linklocal6.test': ['fe80::1'],
};

interface Case {
  readonly name: string;
  readonly url: string;
  /** Expected error code; null = the fetch succeeds. */
  readonly expect: 'URL_BLOCKED' | 'UPSTREAM_FAILED' | null;
  /** Connections the case may open (to the local server, pinned to a public-looking address). */
  readonly connects?: number;
}

const CASES: readonly Case[] = [
  // schemes (the HTTP schema answers 400 first; the fetcher refuses them on its own too)
  { name: 'file scheme', url: 'file:///etc/passwd', expect: 'URL_BLOCKED' },
  { name: 'ftp scheme', url: 'ftp://www.public.test/', expect: 'URL_BLOCKED' },
  { name: 'gopher scheme', url: 'gopher://www.public.test:70/_x', expect: 'URL_BLOCKED' },
  { name: 'data scheme', url: 'data:text/html,<p>x</p>', expect: 'URL_BLOCKED' },
  // ports
  { name: 'ssh port', url: 'http://www.public.test:22/', expect: 'URL_BLOCKED' },
  { name: 'port 8080', url: 'http://www.public.test:8080/', expect: 'URL_BLOCKED' },
  { name: 'redis port over https', url: 'https://www.public.test:6379/', expect: 'URL_BLOCKED' },
  { name: 'port 0', url: 'http://www.public.test:0/', expect: 'URL_BLOCKED' },
  // userinfo
  { name: 'user and password', url: 'http://user:pass@www.public.test/', expect: 'URL_BLOCKED' },
  { name: 'user only', url: 'http://user@www.public.test/', expect: 'URL_BLOCKED' },
  { name: 'password only', url: 'http://:pass@www.public.test/', expect: 'URL_BLOCKED' },
  // IPv4 literals and numeric tricks
  { name: 'loopback', url: 'http://127.0.0.1/', expect: 'URL_BLOCKED' },
  { name: 'short loopback 127.1', url: 'http://127.1/', expect: 'URL_BLOCKED' },
  { name: 'decimal 2130706433', url: 'http://2130706433/', expect: 'URL_BLOCKED' },
  { name: 'hex 0x7f.1', url: 'http://0x7f.1/', expect: 'URL_BLOCKED' },
  { name: 'octal 0177.0.0.1', url: 'http://0177.0.0.1/', expect: 'URL_BLOCKED' },
  { name: 'hex 0x7f000001', url: 'http://0x7f000001/', expect: 'URL_BLOCKED' },
  { name: 'percent-encoded host', url: 'http://%31%32%37.0.0.1/', expect: 'URL_BLOCKED' },
  { name: 'trailing dot', url: 'http://127.0.0.1./', expect: 'URL_BLOCKED' },
  { name: 'RFC 1918 10/8', url: 'http://10.0.0.1/', expect: 'URL_BLOCKED' },
  { name: 'RFC 1918 172.16/12', url: 'http://172.16.5.4/', expect: 'URL_BLOCKED' },
  { name: 'RFC 1918 192.168/16', url: 'http://192.168.1.1/', expect: 'URL_BLOCKED' },
  { name: 'cloud metadata', url: 'http://169.254.169.254/latest/meta-data/', expect: 'URL_BLOCKED' },
  { name: 'CGNAT 100.64/10', url: 'http://100.64.0.1/', expect: 'URL_BLOCKED' },
  { name: '0.0.0.0', url: 'http://0.0.0.0/', expect: 'URL_BLOCKED' },
  { name: 'decimal 0', url: 'http://0/', expect: 'URL_BLOCKED' },
  { name: 'multicast', url: 'http://224.0.0.1/', expect: 'URL_BLOCKED' },
  { name: 'reserved 240/4', url: 'http://240.0.0.1/', expect: 'URL_BLOCKED' },
  { name: 'broadcast', url: 'http://255.255.255.255/', expect: 'URL_BLOCKED' },
  { name: 'TEST-NET-1', url: 'http://192.0.2.1/', expect: 'URL_BLOCKED' },
  { name: 'benchmarking 198.18/15', url: 'http://198.18.0.1/', expect: 'URL_BLOCKED' },
  // IPv6 literals
  { name: 'IPv6 loopback', url: 'http://[::1]/', expect: 'URL_BLOCKED' },
  { name: 'IPv6 unspecified', url: 'http://[::]/', expect: 'URL_BLOCKED' },
  { name: 'IPv4-mapped loopback', url: 'http://[::ffff:127.0.0.1]/', expect: 'URL_BLOCKED' },
  { name: 'IPv4-mapped hex form', url: 'http://[::ffff:7f00:1]/', expect: 'URL_BLOCKED' },
  { name: 'IPv4-mapped long form', url: 'http://[0:0:0:0:0:ffff:10.0.0.1]/', expect: 'URL_BLOCKED' },
  { name: 'NAT64 of loopback', url: 'http://[64:ff9b::127.0.0.1]/', expect: 'URL_BLOCKED' },
  { name: 'NAT64 of metadata', url: 'http://[64:ff9b::a9fe:a9fe]/', expect: 'URL_BLOCKED' },
  { name: 'IPv6 link-local', url: 'http://[fe80::1]/', expect: 'URL_BLOCKED' },
  { name: 'IPv6 ULA fc00::/7', url: 'http://[fd12:3456::1]/', expect: 'URL_BLOCKED' },
  { name: 'IPv6 multicast', url: 'http://[ff02::1]/', expect: 'URL_BLOCKED' },
  { name: '6to4 of loopback', url: 'http://[2002:7f00:1::1]/', expect: 'URL_BLOCKED' },
  { name: 'IPv6 documentation', url: 'http://[2001:db8::1]/', expect: 'URL_BLOCKED' },
  { name: 'IPv4-compatible ::7f00:1', url: 'http://[::127.0.0.1]/', expect: 'URL_BLOCKED' },
  // names, answered by the injected resolver
  { name: 'name -> loopback', url: 'http://localhost.test/', expect: 'URL_BLOCKED' },
  { name: 'name -> metadata', url: 'http://metadata.test/', expect: 'URL_BLOCKED' },
  { name: 'name with one private answer among public ones', url: 'http://mixed.test/', expect: 'URL_BLOCKED' },
  { name: 'name -> IPv6 ULA', url: 'http://v6ula.test/', expect: 'URL_BLOCKED' },
  { name: 'name -> ::1', url: 'https://v6loop.test/', expect: 'URL_BLOCKED' },
  { name: 'name -> IPv4-mapped private', url: 'http://mapped.test/', expect: 'URL_BLOCKED' },
  { name: 'name -> NAT64 private', url: 'http://nat64.test/', expect: 'URL_BLOCKED' },
  { name: 'name -> CGNAT', url: 'http://cgnat.test/', expect: 'URL_BLOCKED' },
  { name: 'name -> 0.0.0.0', url: 'http://zero.test/', expect: 'URL_BLOCKED' },
  { name: 'name -> multicast', url: 'http://multicast.test/', expect: 'URL_BLOCKED' },
  { name: 'name -> IPv6 link-local', url: 'http://linklocal6.test/', expect: 'URL_BLOCKED' },
  { name: 'unknown name', url: 'http://nowhere.test/', expect: 'UPSTREAM_FAILED' },
  // redirects: the first hop is allowed (pinned to a public-looking address, served locally)
  { name: 'redirect to RFC 1918', url: 'http://www.public.test/to?l=http://10.0.0.1/', expect: 'URL_BLOCKED', connects: 1 },
  { name: 'redirect to a name resolving to loopback', url: 'http://www.public.test/to?l=http://localhost.test/', expect: 'URL_BLOCKED', connects: 1 },
  { name: 'redirect to IPv4-mapped metadata', url: 'http://www.public.test/to?l=http://[::ffff:169.254.169.254]/', expect: 'URL_BLOCKED', connects: 1 },
  { name: 'redirect to decimal loopback', url: 'http://www.public.test/to?l=http://2130706433/admin', expect: 'URL_BLOCKED', connects: 1 },
  { name: 'redirect to file scheme', url: 'http://www.public.test/to?l=file:///etc/passwd', expect: 'URL_BLOCKED', connects: 1 },
  { name: 'redirect to a refused port', url: 'http://www.public.test/to?l=http://www.public.test:2375/', expect: 'URL_BLOCKED', connects: 1 },
  { name: 'redirect to credentials', url: 'http://www.public.test/to?l=http://a:b@www.public.test/', expect: 'URL_BLOCKED', connects: 1 },
  { name: 'redirect chain of 5 is followed', url: 'http://www.public.test/chain?n=4', expect: null, connects: 6 },
  { name: 'redirect chain of 6 is refused', url: 'http://www.public.test/chain?n=5', expect: 'UPSTREAM_FAILED', connects: 6 },
  // allowed targets (served by the local server through the pinned connector)
  { name: 'public IPv4 name', url: 'http://www.public.test/page', expect: null, connects: 1 },
  { name: 'public IPv6 name', url: 'http://v6.public.test/page', expect: null, connects: 1 },
  { name: 'public IPv4 literal', url: `http://${PUBLIC_V4}/page`, expect: null, connects: 1 },
];

describe('SSRF policy (table)', () => {
  let server: http.Server;
  let port = 0;
  const sockets: Socket[] = [];
  const onSocket = (msg: unknown) => sockets.push((msg as { socket: Socket }).socket);

  before(async () => {
    server = http.createServer((req, res) => {
      const u = new URL(req.url ?? '/', 'http://local');
      if (u.pathname === '/to') {
        res.writeHead(302, { location: u.searchParams.get('l') ?? '/' });
        res.end();
      } else if (u.pathname === '/chain') {
        const n = Number(u.searchParams.get('n'));
        // n=k answers k+1 redirects in a row before the page.
        res.writeHead(301, { location: n > 0 ? `/chain?n=${n - 1}` : '/page' });
        res.end();
      } else {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<p>ok</p>');
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
    subscribe('net.client.socket', onSocket);
  });
  after(() => {
    unsubscribe('net.client.socket', onSocket);
    server.close();
  });

  function harness() {
    const pinned: string[] = [];
    let resolves = 0;
    const real = buildConnector({ timeout: 2000 });
    const fetcher = new SafeFetcher({
      allowPrivate: false,
      maxBytes: 100_000,
      timeoutMs: 3000,
      resolver: async (host): Promise<ResolvedAddress[]> => {
        resolves++;
        const answers = DNS[host];
        if (!answers) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
        return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
      },
      // Record the pinned address, then serve every allowed target from the local server.
      connector: (opts, cb) => {
        pinned.push(opts.hostname);
        return real({ ...opts, protocol: 'http:', hostname: '127.0.0.1', port: String(port) }, cb);
      },
    });
    return { fetcher, pinned, resolves: () => resolves };
  }

  it('has at least 40 cases', () => assert.ok(CASES.length >= 40, String(CASES.length)));

  for (const c of CASES) {
    it(`${c.expect ?? 'allows'}: ${c.name}`, async () => {
      const { fetcher, pinned } = harness();
      const before = sockets.length;
      let code: string | null = null;
      try {
        const page = await fetcher.fetch(new URL(c.url));
        assert.match(page.text, /ok/);
      } catch (err) {
        assert.ok(isGatewayError(err), String(err));
        code = err.code;
      }
      assert.equal(code, c.expect);
      assert.equal(pinned.length, c.connects ?? 0, 'connections attempted');
      for (const address of pinned) assert.ok(address === PUBLIC_V4 || address === PUBLIC_V6, `pinned to ${address}`);
      const opened = sockets.slice(before);
      assert.equal(opened.length, c.connects ?? 0, 'sockets opened');
      for (const s of opened) assert.equal(s.remoteAddress ?? '127.0.0.1', '127.0.0.1');
    });
  }
});

describe('DNS rebinding', () => {
  it('connects to the address that was checked and never resolves the name a second time', async () => {
    const server = http.createServer((_req, res) => res.end('<p>first</p>'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    try {
      let calls = 0;
      const pinned: string[] = [];
      const real = buildConnector({ timeout: 2000 });
      const fetcher = new SafeFetcher({
        allowPrivate: false,
        maxBytes: 10_000,
        timeoutMs: 3000,
        // First answer public, every later answer loopback: the classic rebinding attack.
        resolver: async () => [{ address: calls++ === 0 ? PUBLIC_V4 : '127.0.0.1', family: 4 }],
        connector: (opts, cb) => {
          pinned.push(opts.hostname);
          return real({ ...opts, hostname: '127.0.0.1', port: String(port) }, cb);
        },
      });
      const page = await fetcher.fetch(new URL('http://rebind.test/'));
      assert.match(page.text, /first/);
      assert.equal(calls, 1, 'resolved once');
      assert.deepEqual(pinned, [PUBLIC_V4], 'socket pinned to the checked address');
      // A new request resolves again, gets loopback and is refused before any connection.
      await assert.rejects(fetcher.fetch(new URL('http://rebind.test/')), (e: unknown) => isGatewayError(e) && e.code === 'URL_BLOCKED');
      assert.deepEqual(pinned, [PUBLIC_V4]);
    } finally {
      server.close();
    }
  });
});

describe('special-use host names', () => {
  // A resolver that would answer a public address for any name: only the name can refuse these.
  const harness = () => {
    const asked: string[] = [];
    const fetcher = new SafeFetcher({
      allowPrivate: false,
      maxBytes: 10_000,
      timeoutMs: 3000,
      resolver: async (host) => {
        asked.push(host);
        return [{ address: PUBLIC_V4, family: 4 }];
      },
      connector: (_opts, cb) => cb(new Error('no connection expected'), null),
    });
    return { fetcher, asked };
  };
  const refused = [
    'localhost', 'LOCALHOST', 'localhost.', 'api.localhost', 'a.b.localhost.',
    'printer.local', 'printer.local.', 'nas.LOCAL',
    'db.internal', 'metadata.google.internal', 'db.internal.',
    'home.arpa', 'router.home.arpa', 'router.home.arpa.',
    'example.onion', 'duckduckgogg42xjoc72x3sjasowoarfbgcmvfimaftt6twagswzczad.onion.',
  ];
  for (const host of refused) {
    it(`refuses ${host} with URL_BLOCKED before any lookup`, async () => {
      const { fetcher, asked } = harness();
      await assert.rejects(fetcher.fetch(new URL(`http://${host}/page`)), (e: unknown) => isGatewayError(e) && e.code === 'URL_BLOCKED');
      assert.deepEqual(asked, [], 'no DNS lookup');
    });
  }
  it('resolves names that only contain those words', async () => {
    for (const host of ['localhost.test', 'local.example.com', 'internal.example.org', 'onion.news', 'my-local', 'notlocalhost', 'arpa.example']) {
      const { fetcher, asked } = harness();
      // The resolver answers a public address; the stub connector then fails: UPSTREAM_FAILED, after the lookup.
      await assert.rejects(fetcher.fetch(new URL(`http://${host}/`)), (e: unknown) => isGatewayError(e) && e.code !== 'URL_BLOCKED');
      assert.deepEqual(asked, [host], host);
    }
  });
});
