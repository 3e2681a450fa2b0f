/**
 * API-01 POST /v1/extract with the `html` field over the 23 eval pages (rotating bodies) through
 * the real gateway (extraction on the worker pool), against a Fastify server running the baseline
 * @mozilla/readability + linkedom + turndown on the same bodies, in the same run.
 * Aim (issue 22, replacing issue 4's 3 ms): server p99 <= 10 ms on a typical article page (pages up to the 75th percentile
 * size, see typicalLimits; measured at 1 connection), >= 3x the baseline's throughput.
 *
 * This file is also the baseline server's handler module (`readabilityHandler`).
 */
import { pathToFileURL } from 'node:url';
import { readabilityToMarkdown, typicalLimits } from '../micro/web-to-markdown.ts';

/** Baseline handler: the same request body, Readability + turndown instead of API-01. */
export function readabilityHandler(body: unknown): Record<string, unknown> {
  const { url, html } = body as { url: string; html: string };
  const { title, markdown } = readabilityToMarkdown(html);
  return { success: true, api: '[API-01] Web to Markdown', url, title, markdown, markdown_length: markdown.length };
}

async function main(): Promise<void> {
  const { benchOptions, printReport, CEILINGS_MS } = await import('../lib/harness.ts');
  const { loadRow, measureServer, startBaseline, startGateway } = await import('../lib/http.ts');
  const { loadPages } = await import('../../scripts/eval-extract.ts');
  const options = benchOptions();
  // ~180 KB bodies and CPU-bound work: more connections than cores only lengthen the queue
  // (server time includes waiting for a worker), so load with BENCH_CONNECTIONS capped at 4.
  const connections = Math.min(options.connections, 4);
  const duration = options.duration;
  const path = '/v1/extract';
  const pages = loadPages();
  const bodies = pages.map(({ page, html }) => JSON.stringify({ url: page.url, html }));
  // Typical article pages (see typicalLimits): the p99 aim is about these.
  const { median, p75 } = typicalLimits(pages.map((p) => p.html.length));
  const typicalBodies = pages.filter((p) => p.html.length <= p75).map(({ page, html }) => JSON.stringify({ url: page.url, html }));
  const medianBodies = pages.filter((p) => p.html.length <= median).map(({ page, html }) => JSON.stringify({ url: page.url, html }));

  // Two load levels per server: 1 connection (service time, nothing queued) and `connections`
  // (throughput; the gateway's latency_ms then includes waiting for the worker thread).
  const check = async (res: Response): Promise<void> => {
    const json = (await res.json()) as { markdown?: string };
    console.assert(res.status === 200 && (json.markdown ?? '').length > 200, 'the first page extracts');
  };
  const opts = { path, bodies, check, connections: [1, connections], warmupSeconds: 2 };
  const [gateway1, gateway] = await measureServer(() => startGateway({ AUTH_MODE: 'off', MAX_BODY_BYTES: String(4 * 1024 * 1024) }), opts);
  const [baseline1, baseline] = await measureServer(() => startBaseline('fastify', { method: 'POST', path, module: 'bench/http/web-to-markdown.ts', exportName: 'readabilityHandler' }), opts);
  const typicalOpts = { ...opts, bodies: typicalBodies, connections: [1] };
  const [gatewayTypical] = await measureServer(() => startGateway({ AUTH_MODE: 'off', MAX_BODY_BYTES: String(4 * 1024 * 1024) }), typicalOpts);
  const [baselineTypical] = await measureServer(() => startBaseline('fastify', { method: 'POST', path, module: 'bench/http/web-to-markdown.ts', exportName: 'readabilityHandler' }), typicalOpts);
  // Pages up to the median size, 1 connection: the third size class of the p99 aim's table.
  const [gatewayMedian] = await measureServer(() => startGateway({ AUTH_MODE: 'off', MAX_BODY_BYTES: String(4 * 1024 * 1024) }), { ...typicalOpts, bodies: medianBodies });
  printReport({
    name: `API-01 POST ${path} with html, 23 eval pages rotating (${connections} connections, ${duration} s)`,
    service: 'API-01',
    ceilingP99Ms: CEILINGS_MS['API-01'],
    measuredP99Ms: gateway1.serverP99Ms,
    rows: [
      loadRow('gateway, 1 connection', gateway1),
      loadRow('Fastify + Readability + turndown, 1 connection', baseline1),
      loadRow(`gateway, ${connections} connections`, gateway),
      loadRow(`Fastify + Readability + turndown, ${connections} connections`, baseline),
      loadRow(`gateway, typical pages (<= ${Math.round(p75 / 1024)} KB, ${typicalBodies.length} pages), 1 connection`, gatewayTypical!),
      loadRow('Fastify + Readability + turndown, typical pages, 1 connection', baselineTypical!),
      loadRow(`gateway, pages <= median size (${Math.round(median / 1024)} KB, ${medianBodies.length} pages), 1 connection`, gatewayMedian!),
    ],
    ratios: {
      'gateway / baseline (pages/s, 1 connection)': gateway1.reqPerSec / baseline1.reqPerSec,
      [`gateway / baseline (pages/s, ${connections} connections)`]: gateway.reqPerSec / baseline.reqPerSec,
      'baseline server p99 / gateway server p99 (1 connection)': baseline1.serverP99Ms / gateway1.serverP99Ms,
      'baseline server p99 / gateway server p99 (typical pages, 1 connection)': baselineTypical!.serverP99Ms / gatewayTypical!.serverP99Ms,
    },
    notes: [
      "server time = the bodies' latency_ms; pages are 25-583 KB (median 139 KB); autocannon shares the 2 cores",
      'ceiling checked on the 1-connection run; under more connections the gateway latency includes the worker queue, the baseline\'s does not (it queues before its timer starts)',
      `aim (issue 22): typical page server p99 <= 10 ms: ${gatewayTypical!.serverP99Ms.toFixed(2)} ms (${gatewayTypical!.serverP99Ms <= 10 ? 'met' : 'NOT met'}); pages <= median size ${gatewayMedian!.serverP99Ms.toFixed(2)} ms, all pages ${gateway1.serverP99Ms.toFixed(2)} ms`,
      'the client is not pinned (bench/lib/http.ts pinCpus): pinned, the gateway\'s event loop and its worker would share one core; with 1 connection autocannon waits while the server works, so it only competes between requests (its own GC aside)',
      `load average ${(await import('node:os')).loadavg()[0]!.toFixed(1)} at the end of the run`,
    ],
  });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
