/**
 * GET /v1/health through the gateway vs a raw uWS server and a Fastify server answering the same
 * body, same run. Aim (issue 2): gateway >= 80% of raw uWS req/s and >= 1.5x Fastify.
 */
import { benchOptions, printReport } from '../lib/harness.ts';
import { load, startBaseline, startGateway, type LoadResult } from '../lib/http.ts';

const { duration, connections } = benchOptions();
const spec = { method: 'GET', path: '/v1/health', module: 'bench/lib/health-handler.ts', exportName: 'health' } as const;

async function measure(start: () => Promise<{ url: string; stop(): Promise<void> }>): Promise<LoadResult> {
  const server = await start();
  try {
    const check = await fetch(`${server.url}/v1/health`);
    console.assert(check.status === 200, 'health must answer 200');
    await load({ url: `${server.url}/v1/health`, duration: 1, connections }); // warm-up
    return await load({ url: `${server.url}/v1/health`, duration, connections });
  } finally {
    await server.stop();
  }
}

const gateway = await measure(() => startGateway());
const uws = await measure(() => startBaseline('uws', spec));
const fastify = await measure(() => startBaseline('fastify', spec));

const row = (label: string, r: LoadResult) => ({
  label,
  reqPerSec: r.reqPerSec,
  p50Ms: r.p50Ms,
  p99Ms: r.p99Ms,
  extra: { 'server p99 ms': r.serverP99Ms.toFixed(3), non2xx: r.non2xx + r.errors },
});

printReport({
  name: `GET /v1/health (${connections} connections, ${duration} s)`,
  service: 'GATEWAY',
  rows: [row('gateway', gateway), row('raw uWS', uws), row('Fastify', fastify)],
  ratios: {
    'gateway / raw uWS (req/s)': gateway.reqPerSec / uws.reqPerSec,
    'gateway / Fastify (req/s)': gateway.reqPerSec / fastify.reqPerSec,
  },
  notes: ['autocannon runs in the benchmark process on the same 2 cores as the server under test'],
});
