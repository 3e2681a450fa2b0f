/**
 * API-01 POST /v1/extract with the `html` field over the 23 eval pages (rotating bodies) through
 * the real gateway (extraction on the worker pool), against a Fastify server running the baseline
 * @mozilla/readability + linkedom + turndown on the same bodies, in the same run.
 * Aim (issue 4): server p99 <= 3 ms on a typical article page, >= 3x the baseline's throughput.
 *
 * This file is also the baseline server's handler module (`readabilityHandler`).
 */
import { pathToFileURL } from 'node:url';
import { readabilityToMarkdown } from '../micro/web-to-markdown.ts';

/** Baseline handler: the same request body, Readability + turndown instead of API-01. */
export function readabilityHandler(body: unknown): Record<string, unknown> {
  const { url, html } = body as { url: string; html: string };
  const { title, markdown } = readabilityToMarkdown(html);
  return { success: true, api: '[API-01] Web to Markdown', url, title, markdown, markdown_length: markdown.length };
}

async function main(): Promise<void> {
  const { benchOptions, printReport, CEILINGS_MS } = await import('../lib/harness.ts');
  const { load, startBaseline, startGateway } = await import('../lib/http.ts');
  const { loadPages } = await import('../../scripts/eval-extract.ts');
  type LoadResult = Awaited<ReturnType<typeof load>>;
  const options = benchOptions();
  // ~180 KB bodies and CPU-bound work: more connections than cores only lengthen the queue
  // (server time includes waiting for a worker), so load with BENCH_CONNECTIONS capped at 4.
  const connections = Math.min(options.connections, 4);
  const duration = options.duration;
  const path = '/v1/extract';
  const bodies = loadPages().map(({ page, html }) => JSON.stringify({ url: page.url, html }));

  async function measure(start: () => Promise<{ url: string; stop(): Promise<void> }>): Promise<LoadResult> {
    const server = await start();
    try {
      const check = await fetch(server.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: bodies[0] });
      const json = (await check.json()) as { markdown?: string };
      console.assert(check.status === 200 && (json.markdown ?? '').length > 200, 'the first page extracts');
      await load({ url: server.url + path, bodies, duration: 2, connections }); // warm-up
      return await load({ url: server.url + path, bodies, duration, connections });
    } finally {
      await server.stop();
    }
  }

  const gateway = await measure(() => startGateway({ AUTH_MODE: 'off', MAX_BODY_BYTES: String(4 * 1024 * 1024) }));
  const baseline = await measure(() => startBaseline('fastify', { method: 'POST', path, module: 'bench/http/web-to-markdown.ts', exportName: 'readabilityHandler' }));
  const row = (label: string, r: LoadResult) => ({
    label,
    reqPerSec: r.reqPerSec,
    p50Ms: r.p50Ms,
    p99Ms: r.p99Ms,
    extra: { 'server p50 ms': r.serverP50Ms.toFixed(3), 'server p99 ms': r.serverP99Ms.toFixed(3), non2xx: r.non2xx + r.errors },
  });
  printReport({
    name: `API-01 POST ${path} with html, 23 eval pages rotating (${connections} connections, ${duration} s)`,
    service: 'API-01',
    ceilingP99Ms: CEILINGS_MS['API-01'],
    measuredP99Ms: gateway.serverP99Ms,
    rows: [row('gateway (worker pool)', gateway), row('Fastify + Readability + linkedom + turndown', baseline)],
    ratios: {
      'gateway / baseline (pages/s)': gateway.reqPerSec / baseline.reqPerSec,
      'baseline server p99 / gateway server p99': baseline.serverP99Ms / gateway.serverP99Ms,
    },
    notes: ['server time = the bodies\' latency_ms; pages are 25-583 KB (median 139 KB); autocannon shares the 2 cores'],
  });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
