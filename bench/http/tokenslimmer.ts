/**
 * API-09 POST /v1/auto with 10 KB prompts (one per eval kind, balanced) through the real gateway
 * vs a raw uWS server and a Fastify server running the same slimPrompt, same run. The server-side
 * p99 is the bodies' `latency_ms`. Aim (issue 6): p99 ≤ 1.5 ms, a tenth of the 15 ms ceiling.
 *
 * This file is also the baseline servers' handler module (`slimHandler`); the benchmark itself
 * runs only when the file is the entry point.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { TOKENSLIMMER_LABEL } from '../../src/services/tokenslimmer/route.ts';
import { slimPrompt, type SlimInput } from '../../src/services/tokenslimmer/slim.ts';

/** Baseline handler: the same core the gateway runs inline for prompts of this size. */
export function slimHandler(body: unknown): Record<string, unknown> {
  return { success: true, api: TOKENSLIMMER_LABEL, ...slimPrompt(body as SlimInput) };
}

function prompts10k(): string[] {
  const records = readFileSync(new URL('../../eval/data/compress/prompts_dev.jsonl', import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { kind: string; prompt: string });
  return ['cot_fewshot', 'meeting_transcript', 'rag_context'].map((kind) => {
    let s = '';
    for (const r of records.filter((x) => x.kind === kind)) {
      s += r.prompt + '\n\n';
      if (s.length >= 10_240) break;
    }
    return s.slice(0, 10_240);
  });
}

async function main(): Promise<void> {
  const { benchOptions, printReport, CEILINGS_MS } = await import('../lib/harness.ts');
  const { loadRow, measureServer, startBaseline, startGateway } = await import('../lib/http.ts');
  const { duration, connections } = benchOptions();
  const path = '/v1/auto';
  const bodies = prompts10k().map((prompt) => JSON.stringify({ prompt, level: 'balanced' }));
  const spec = { method: 'POST', path, module: 'bench/http/tokenslimmer.ts', exportName: 'slimHandler' } as const;

  const check = async (res: Response): Promise<void> => {
    const json = (await res.json()) as { status?: string; tokens_saved?: number };
    console.assert(res.status === 200 && json.status === 'COMPRESSED' && (json.tokens_saved ?? 0) > 0, 'the transcript body compresses');
  };
  const opts = { path, bodies, check, checkBody: bodies[1] };
  const [gateway] = await measureServer(() => startGateway({ AUTH_MODE: 'off' }), opts);
  const [uws] = await measureServer(() => startBaseline('uws', spec), opts);
  const [fastify] = await measureServer(() => startBaseline('fastify', spec), opts);
  printReport({
    name: `API-09 POST /v1/auto, 10 KB prompts, balanced (${connections} connections, ${duration} s, 3 rotating bodies)`,
    service: 'API-09',
    ceilingP99Ms: CEILINGS_MS['API-09'],
    measuredP99Ms: gateway.serverP99Ms,
    rows: [loadRow('gateway', gateway), loadRow('raw uWS, same core', uws), loadRow('Fastify, same core', fastify)],
    ratios: {
      'gateway / raw uWS (req/s)': gateway.reqPerSec / uws.reqPerSec,
      'gateway / Fastify (req/s)': gateway.reqPerSec / fastify.reqPerSec,
      'gateway server p99 / 1.5 ms aim': gateway.serverP99Ms / 1.5,
    },
    notes: ["server p99 = the bodies' latency_ms; autocannon shares the 2 cores with the server", '10 KB is below INLINE_MAX_CHARS: the gateway compresses on the event loop'],
  });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
