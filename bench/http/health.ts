/**
 * GET /v1/health through the gateway vs a raw uWS server and a Fastify server answering the same
 * body, same run. Aim (issue 2): gateway >= 80% of raw uWS req/s and >= 1.5x Fastify.
 */
import { benchOptions, printReport } from '../lib/harness.ts';
import { loadRow, measureServer, startBaseline, startGateway } from '../lib/http.ts';

const { duration, connections } = benchOptions();
const spec = { method: 'GET', path: '/v1/health', module: 'bench/lib/health-handler.ts', exportName: 'health' } as const;
const opts = { path: '/v1/health' };

const [gateway] = await measureServer(() => startGateway(), opts);
const [uws] = await measureServer(() => startBaseline('uws', spec), opts);
const [fastify] = await measureServer(() => startBaseline('fastify', spec), opts);

printReport({
  name: `GET /v1/health (${connections} connections, ${duration} s)`,
  service: 'GATEWAY',
  rows: [loadRow('gateway', gateway), loadRow('raw uWS', uws), loadRow('Fastify', fastify)],
  ratios: {
    'gateway / raw uWS (req/s)': gateway.reqPerSec / uws.reqPerSec,
    'gateway / Fastify (req/s)': gateway.reqPerSec / fastify.reqPerSec,
  },
  notes: ['autocannon runs in the benchmark process on the same 2 cores as the server under test'],
});
