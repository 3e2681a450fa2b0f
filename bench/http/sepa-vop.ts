/**
 * API-138 POST /v1/sepa/vop through the real gateway vs a raw uWS server and a Fastify server
 * running the same core (verify + Ed25519 seal, no validation, no metrics), same run. Requests
 * rotate over verified, close-match, mismatch, unknown-account and invalid-IBAN bodies.
 * Aim (issue 3): p99 ≤ 2 ms server-side, a tenth of the 20 ms ceiling of CONTRACT.md §7.
 *
 * This file is also the baseline servers' handler module (`vopHandler`); the benchmark itself
 * runs only when the file is the entry point.
 */
import { pathToFileURL } from 'node:url';
import { createVopService, type VopRequest, type VopService } from '../../src/services/sepa-vop/core.ts';
import { DEFAULT_DIRECTORY_PATH, loadDirectoryFile } from '../../src/services/sepa-vop/directory.ts';
import { VOP_LABEL } from '../../src/services/sepa-vop/route.ts';
import { createSealer } from '../../src/services/sepa-vop/seal.ts';

const BODIES: readonly VopRequest[] = [
  { iban: 'DE89 3704 0044 0532 0130 00', beneficiary_name: 'Max Mustermann' },
  { iban: 'NL91ABNA0417164300', beneficiary_name: 'J. de Vries' },
  { iban: 'CZ65 0800 0000 1920 0014 5399', beneficiary_name: 'Acme a.s.' },
  { iban: 'GB33BUKB20201555555555', beneficiary_name: 'Jane Doe' },
  { iban: 'ES2121000418450200051331', beneficiary_name: 'José García' },
  { iban: 'FR14 2004 1010 0505 0001 3M02 606', beneficiary_name: 'Societe Exemple S.A.R.L.', bic: 'BNPAFRPP' },
];

let baselineService: VopService | undefined;
/** Baseline handler: the same core and seal the gateway runs, built once per baseline process. */
export function vopHandler(body: unknown): Record<string, unknown> {
  baselineService ??= createVopService({ directory: loadDirectoryFile(DEFAULT_DIRECTORY_PATH), sealer: createSealer(null), api: VOP_LABEL });
  return { success: true, api: VOP_LABEL, ...baselineService.verify(body as VopRequest, 'baseline') };
}

async function main(): Promise<void> {
  const { benchOptions, printReport, CEILINGS_MS } = await import('../lib/harness.ts');
  const { loadRow, measureServer, startBaseline, startGateway } = await import('../lib/http.ts');
  const { duration, connections } = benchOptions();
  const path = '/v1/sepa/vop';
  const bodies = BODIES.map((b) => JSON.stringify(b));
  const spec = { method: 'POST', path, module: 'bench/http/sepa-vop.ts', exportName: 'vopHandler' } as const;

  const check = async (res: Response): Promise<void> => {
    const json = (await res.json()) as { status?: string; audit_seal?: unknown };
    console.assert(res.status === 200 && json.status === 'SUCCESS_VERIFIED' && json.audit_seal !== undefined, 'the first body verifies and is sealed');
  };
  const opts = { path, bodies, check };
  const [gateway] = await measureServer(() => startGateway({ AUTH_MODE: 'off' }), opts);
  const [uws] = await measureServer(() => startBaseline('uws', spec), opts);
  const [fastify] = await measureServer(() => startBaseline('fastify', spec), opts);
  printReport({
    name: `API-138 POST /v1/sepa/vop (${connections} connections, ${duration} s, 6 rotating bodies)`,
    service: 'API-138',
    ceilingP99Ms: CEILINGS_MS['API-138'],
    measuredP99Ms: gateway.serverP99Ms,
    rows: [loadRow('gateway', gateway), loadRow('raw uWS, same core', uws), loadRow('Fastify, same core', fastify)],
    ratios: {
      'gateway / raw uWS (req/s)': gateway.reqPerSec / uws.reqPerSec,
      'gateway / Fastify (req/s)': gateway.reqPerSec / fastify.reqPerSec,
      'gateway server p99 / 2 ms aim': gateway.serverP99Ms / 2,
    },
    notes: ['server p99 = the bodies\' latency_ms; autocannon shares the 2 cores with the server', 'every response carries a fresh Ed25519 seal (~50-60 µs of the time)'],
  });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
