/**
 * GET /v1/health through the gateway vs a raw uWS server and a Fastify server answering the same
 * body, same run. Aim (issue 2): gateway >= 80% of raw uWS req/s and >= 1.5x Fastify.
 * autocannon (Node) becomes the bottleneck at these rates on 2 cores; when wrk is installed
 * (Debian package `wrk`) each server is also driven by wrk, whose ratios then measure the servers.
 * With taskset (util-linux) every server runs on CPU 1 and the load client on CPU 0 (BENCH_PIN=0
 * turns this off), so each server gets the same whole core instead of whatever the scheduler
 * leaves it next to the client.
 */
import { benchOptions, printReport, type BenchRow } from '../lib/harness.ts';
import { loadRow, measureServer, pinCpus, startBaseline, startGateway, wrkAvailable, wrkLoad, type RunningServer } from '../lib/http.ts';

const { duration, connections } = benchOptions();
// Health stays on the event loop: one core per server, the other for the load client.
const pinning = process.env.BENCH_PIN === '0' ? null : pinCpus();
const spec = { method: 'GET', path: '/v1/health', module: 'bench/lib/health-handler.ts', exportName: 'health' } as const;
const withWrk = wrkAvailable();
const wrkResults: Record<string, ReturnType<typeof wrkLoad>> = {};

async function measure(label: string, start: () => Promise<RunningServer>) {
  const [r] = await measureServer(async () => {
    const server = await start();
    return {
      url: server.url,
      stop: async () => {
        if (withWrk) {
          wrkLoad(`${server.url}/v1/health`, { duration: 1 }); // warm-up
          wrkResults[label] = wrkLoad(`${server.url}/v1/health`, { pid: server.pid });
        }
        await server.stop();
      },
    };
  }, { path: '/v1/health' });
  return r!;
}

const gateway = await measure('gateway', () => startGateway());
const uws = await measure('raw uWS', () => startBaseline('uws', spec));
const fastify = await measure('Fastify', () => startBaseline('fastify', spec));
// The rows above log at warn (like Fastify's logger:false baseline); this one writes the default
// request line per request, to show what logging costs.
const logged = await measure('gateway, LOG_LEVEL=info', () => startGateway({ LOG_LEVEL: 'info' }));

const rows: BenchRow[] = [
  loadRow('gateway (autocannon)', gateway),
  loadRow('raw uWS (autocannon)', uws),
  loadRow('Fastify (autocannon)', fastify),
  loadRow('gateway, LOG_LEVEL=info (autocannon)', logged),
];
const ratios: Record<string, number> = {
  'gateway / raw uWS (req/s, autocannon)': gateway.reqPerSec / uws.reqPerSec,
  'gateway / Fastify (req/s, autocannon)': gateway.reqPerSec / fastify.reqPerSec,
};
if (withWrk) {
  for (const [label, r] of Object.entries(wrkResults)) rows.push({ label: `${label} (wrk, ${r.cpuUsPerReq.toFixed(1)} µs CPU/req)`, reqPerSec: r.reqPerSec, p50Ms: r.p50Ms, p99Ms: r.p99Ms });
  ratios['gateway / raw uWS (req/s, wrk)'] = wrkResults.gateway!.reqPerSec / wrkResults['raw uWS']!.reqPerSec;
  ratios['gateway / Fastify (req/s, wrk)'] = wrkResults.gateway!.reqPerSec / wrkResults.Fastify!.reqPerSec;
  // Server CPU per request (all threads, from /proc): what each server spends on one request,
  // which the 2-core scheduler does not distort the way it distorts req/s.
  const cpu = (label: string) => wrkResults[label]!.cpuUsPerReq;
  if (Number.isFinite(cpu('gateway'))) {
    ratios['raw uWS / gateway (server CPU per request, wrk)'] = cpu('raw uWS') / cpu('gateway');
    ratios['Fastify / gateway (server CPU per request, wrk)'] = cpu('Fastify') / cpu('gateway');
  }
}

printReport({
  name: `GET /v1/health (${connections} connections, ${duration} s)`,
  service: 'GATEWAY',
  rows,
  ratios,
  notes: [
    pinning ?? 'the load client shares the cores with the server under test (taskset missing or BENCH_PIN=0)',
    withWrk ? 'wrk rows: the same servers driven by wrk (1 thread) right after autocannon' : 'wrk not installed (apt-get install wrk): autocannon only, which is client-bound at these rates',
  ],
});
