/**
 * API-05 POST /v1/cache/semantic over HTTP with 100,000 entries in one tenant and namespace, through
 * the real gateway vs a raw uWS server and a Fastify server running the same lookup
 * (`SemanticCache.lookup` over a `MemoryCacheStore` holding the same entries: no validation, no
 * metrics), same run. Aim (issue 7): lookup p99 <= 0.5 ms server time (`latency_ms`), a tenth of
 * the 5 ms ceiling of CONTRACT.md §7.
 *
 *   entries   the 1,100 eval sentences text_a (eval/data/cache/pairs_dev.jsonl), then synthetic
 *             questions "how do i" + 5-10 GloVe words (the generator of bench/micro/semantic-cache.ts)
 *             until the tenant holds exactly BENCH_CACHE_N (default 100,000) distinct entries
 *             (stores that replace an entry, score >= 0.99, are topped up); responses 200-800 bytes.
 *             CACHE_MAX_ENTRIES = BENCH_CACHE_N (the default 100,000): no eviction, one tenant (the
 *             anonymous "public" tenant, AUTH_MODE=off), one namespace: every lookup searches all
 *             100k entries. The gateway is filled over HTTP (50 concurrent stores): store throughput,
 *             store latency and RSS per entry at 100k are reported. The baselines fill their own
 *             store in-process with the same entries in the same order before they listen.
 *   lookups   2,000 rotating bodies, four kinds interleaved: exact repeats of stored questions
 *             (re-cased, no "?"), near repeats (first word dropped), the eval pairs' text_b (hits and
 *             misses, the "shared" view of eval:cache) and new questions (misses); at 1 and at 50
 *             connections.
 *   checks    before timing, every lookup body is sent once: exact repeats must hit with score 1 and
 *             their own response, every hit must return a stored response, and the three servers
 *             must agree (>= 98%: their HNSW graphs are built in different orders). While timed,
 *             every response is compared with that server's checked answer (hit and entry_id, or a
 *             miss). Any failure exits non-zero.
 *
 * With taskset the load client (this process) runs on CPU 0 and each server on CPU 1 (BENCH_PIN=0
 * turns it off): the lookup stays on the event loop. This file is also the baselines' handler
 * module (`cacheFill`, `cacheLookupHandler`); the benchmark runs only when it is the entry point.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { readGloveBinary } from '../../src/embeddings/glove-binary.ts';
import { createEmbedder } from '../../src/embeddings/index.ts';
import { ensureGloveBinary } from '../../src/embeddings/prepare.ts';
import { SemanticCache } from '../../src/services/semantic-cache/core.ts';
import { SEMANTIC_CACHE_LABEL } from '../../src/services/semantic-cache/route.ts';
import { MemoryCacheStore } from '../../src/services/semantic-cache/store.ts';

const N = Number(process.env.BENCH_CACHE_N ?? 100_000);
/** Stores that replaced an entry are topped up from this many spare questions. */
const SPARE = 5_000;
const LOOKUPS = 2_000;
const TENANT = 'public';
const DATA_DIR = process.env.DATA_DIR ?? 'data';

interface Pair {
  readonly text_a: string;
  readonly text_b: string;
  readonly label: 0 | 1;
}
type Kind = 'exact' | 'near' | 'eval' | 'new';
interface Lookup {
  readonly kind: Kind;
  readonly query: string;
  /** Exact repeats: the store index whose response must come back. */
  readonly expect?: number;
}
interface Corpus {
  /** Store sequence: N + SPARE (query, response) pairs, eval text_a first. */
  readonly stores: readonly { readonly query: string; readonly response: string }[];
  readonly lookups: readonly Lookup[];
}

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Deterministic entries and lookups (the same in the bench and in every baseline process). */
export function buildCorpus(): Corpus {
  const vectors = readGloveBinary(ensureGloveBinary(DATA_DIR).file);
  const words = Array.from({ length: 19_800 }, (_, i) => vectors.index.wordAt(200 + i)).filter((w) => /^[a-z]{3,}$/.test(w));
  const pairs = readFileSync(new URL('../../eval/data/cache/pairs_dev.jsonl', import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Pair);
  const filler = pairs.map((p) => p.text_a).join(' ');
  const rand = lcg(42);
  const sentence = (r: () => number): string[] => Array.from({ length: 5 + Math.floor(r() * 6) }, () => words[Math.floor(r() * words.length)]!);
  const synthetic: (string[] | null)[] = [];
  const stores: { query: string; response: string }[] = [];
  for (let i = 0; i < N + SPARE; i++) {
    const response = (i2: number): string => {
      const len = 200 + ((i2 * 7919) % 600);
      const start = (i2 * 104_729) % (filler.length - len);
      return `Answer #${i2}: ${filler.slice(start, start + len)}`;
    };
    if (i < pairs.length) {
      synthetic.push(null);
      stores.push({ query: pairs[i]!.text_a, response: response(i) });
    } else {
      const s = sentence(rand);
      synthetic.push(s);
      stores.push({ query: `how do i ${s.join(' ')}?`, response: response(i) });
    }
  }
  const pick = lcg(7);
  const lookups: Lookup[] = [];
  const syntheticIndex = (): number => pairs.length + Math.floor(pick() * (N - pairs.length));
  for (let j = 0; j < LOOKUPS; j++) {
    switch (j % 4) {
      case 0: {
        const i = syntheticIndex();
        lookups.push({ kind: 'exact', query: `How do I ${synthetic[i]!.join(' ')}`, expect: i });
        break;
      }
      case 1:
        lookups.push({ kind: 'near', query: `how do i ${synthetic[syntheticIndex()]!.slice(1).join(' ')}?` });
        break;
      case 2:
        lookups.push({ kind: 'eval', query: pairs[Math.floor(pick() * pairs.length)]!.text_b });
        break;
      default:
        lookups.push({ kind: 'new', query: `how do i ${sentence(pick).join(' ')}?` });
    }
  }
  return { stores, lookups };
}

/**
 * Stores entries in order until `count` distinct entries exist; `put` returns the entry id (a
 * replaced entry keeps its id). `concurrency` puts run at once.
 */
async function fillDistinct(count: number, stores: Corpus['stores'], concurrency: number, put: (index: number) => Promise<string>): Promise<{ puts: number; ids: Map<string, number[]> }> {
  const ids = new Map<string, number[]>();
  let next = 0;
  let puts = 0;
  while (ids.size < count) {
    const end = next + (count - ids.size);
    if (end > stores.length) throw new Error(`only ${ids.size} distinct entries after ${stores.length} stores`);
    const worker = async (): Promise<void> => {
      while (next < end) {
        const i = next++;
        const id = await put(i);
        puts++;
        const list = ids.get(id);
        if (list === undefined) ids.set(id, [i]);
        else list.push(i);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, end - next) }, worker));
  }
  return { puts, ids };
}

let baselineCache: SemanticCache | undefined;

/** Baseline init: the gateway's embedder and store, filled in-process with the same entries. */
export async function cacheFill(): Promise<void> {
  const embedder = await createEmbedder({ embedder: 'glove', modelDir: null, dataDir: DATA_DIR });
  const store = new MemoryCacheStore({ dims: embedder.dims, maxEntries: N });
  const cache = new SemanticCache({ embedder, store });
  const { stores } = buildCorpus();
  const t0 = performance.now();
  const { puts } = await fillDistinct(N, stores, 1, async (i) => (await cache.put({ tenant: TENANT, query: stores[i]!.query, response: stores[i]!.response })).entry_id);
  if (store.stats().entries !== N) throw new Error(`baseline store holds ${store.stats().entries} entries, expected ${N}`);
  process.stderr.write(`baseline store: ${N} entries (${puts} puts) in-process in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  baselineCache = cache;
}

/** Baseline handler: the same lookup the gateway's route runs, the same success body. */
export async function cacheLookupHandler(body: unknown): Promise<Record<string, unknown>> {
  const b = body as { query: string; threshold?: number; namespace?: string };
  const r = await baselineCache!.lookup({ tenant: TENANT, query: b.query, ...(b.threshold === undefined ? {} : { threshold: b.threshold }), ...(b.namespace === undefined ? {} : { namespace: b.namespace }) });
  return { success: true, api: SEMANTIC_CACHE_LABEL, ...r };
}

function rssBytes(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : Number.NaN;
}

async function main(): Promise<void> {
  const { benchOptions, percentile, printReport, CEILINGS_MS } = await import('../lib/harness.ts');
  const { loadRow, measureServer, pinCpus, startBaseline, startGateway } = await import('../lib/http.ts');
  const { duration } = benchOptions();
  const path = '/v1/cache/semantic';
  const pinning = process.env.BENCH_PIN === '0' ? null : pinCpus();
  const stage = (m: string): void => void process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${m}\n`);
  const failures: string[] = [];
  const fail = (m: string): void => {
    failures.push(m);
    if (failures.length <= 20) console.error(`FAIL: ${m}`);
  };

  stage('building entries and lookups');
  const { stores, lookups } = buildCorpus();
  const bodies = lookups.map((l) => JSON.stringify({ query: l.query }));
  const responseIndex = new Map(stores.map((s, i) => [s.response, i]));

  // --- the gateway, filled over HTTP.
  let fill: { seconds: number; puts: number; storeServer: number[]; storeClient: number[]; rssBefore: number; rssAfter: number } | undefined;
  const fillGateway = async (url: string, pid: number | undefined): Promise<void> => {
    stage(`filling the gateway over HTTP: ${N} entries, 50 concurrent stores`);
    const rssBefore = pid === undefined ? Number.NaN : rssBytes(pid);
    const storeServer: number[] = [];
    const storeClient: number[] = [];
    const t0 = performance.now();
    const { puts } = await fillDistinct(N, stores, 50, async (i) => {
      const s = performance.now();
      const res = await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(stores[i]) });
      const json = (await res.json()) as { stored?: boolean; entry_id?: string; latency_ms?: number };
      storeClient.push(performance.now() - s);
      if (res.status !== 200 || json.stored !== true || typeof json.entry_id !== 'string') throw new Error(`store ${i} answered ${res.status} ${JSON.stringify(json).slice(0, 200)}`);
      storeServer.push(json.latency_ms!);
      return json.entry_id;
    });
    const seconds = (performance.now() - t0) / 1000;
    globalThis.gc?.();
    await new Promise((r) => setTimeout(r, 1500)); // a maintenance tick and an idle GC on the server
    fill = { seconds, puts, storeServer: storeServer.sort((a, b) => a - b), storeClient: storeClient.sort((a, b) => a - b), rssBefore, rssAfter: pid === undefined ? Number.NaN : rssBytes(pid) };
    stage(`gateway filled: ${puts} stores in ${seconds.toFixed(1)} s`);
  };

  // --- checks: every body once, answers recorded per server.
  type Answer = { hit: boolean; id: string | null; index: number; score: number; latencyMs: number };
  const answers: Record<string, Answer[]> = {};
  const checkAll = (name: string) => async (first: Response): Promise<void> => {
    if (first.status !== 200) fail(`${name}: first lookup answered ${first.status}`);
    await first.text();
    const out: Answer[] = [];
    for (let j = 0; j < bodies.length; j++) {
      const res = await fetch(first.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: bodies[j] });
      const json = (await res.json()) as { success?: boolean; cache_hit?: boolean; similarity_score?: number; cached_response?: string | null; entry_id?: string; latency_ms?: number };
      if (res.status !== 200 || json.success !== true || typeof json.cache_hit !== 'boolean' || typeof json.similarity_score !== 'number') {
        fail(`${name}: lookup ${j} answered ${res.status} ${JSON.stringify(json).slice(0, 200)}`);
        out.push({ hit: false, id: null, index: -1, score: 0, latencyMs: Number.NaN });
        continue;
      }
      const index = json.cache_hit ? (responseIndex.get(json.cached_response ?? '') ?? -2) : -1;
      if (json.cache_hit && (index === -2 || typeof json.entry_id !== 'string')) fail(`${name}: lookup ${j} hit a response that was never stored`);
      if (!json.cache_hit && json.cached_response !== null) fail(`${name}: lookup ${j} missed with a response`);
      const l = lookups[j]!;
      if (l.kind === 'exact' && !(json.cache_hit && json.similarity_score === 1 && index === l.expect)) fail(`${name}: exact repeat ${j} (entry ${l.expect}) answered hit=${json.cache_hit} score=${json.similarity_score} entry=${index}`);
      out.push({ hit: json.cache_hit, id: json.entry_id ?? null, index, score: json.similarity_score, latencyMs: json.latency_ms ?? Number.NaN });
    }
    answers[name] = out;
  };
  // While timed: each response must be the one checked above (a hit on the same entry, or a miss).
  let timedResponses = 0;
  const onBody = (name: string) => (j: number, status: number, text: string): void => {
    timedResponses++;
    const a = answers[name]![j]!;
    const ok = status === 200 && text.startsWith('{"success":true') && (a.hit ? text.includes(`"entry_id":"${a.id}"`) && text.includes('"cache_hit":true') : text.includes('"cache_hit":false'));
    if (!ok) fail(`${name}: timed lookup ${j} answered ${status} ${text.slice(0, 160)}`);
  };
  const opts = (name: string) => ({ path, bodies, check: checkAll(name), connections: [1, 50], onBody: onBody(name) });

  const [g1, g50] = await measureServer(async () => {
    const server = await startGateway({ AUTH_MODE: 'off', CACHE_MAX_ENTRIES: String(N) });
    await fillGateway(server.url, server.pid);
    stage('gateway: checks and lookups');
    return server;
  }, opts('gateway'));
  const spec = { method: 'POST', path, module: 'bench/http/semantic-cache.ts', exportName: 'cacheLookupHandler', initName: 'cacheFill', readyTimeoutMs: 900_000 } as const;
  stage('raw uWS baseline: filling in-process, then checks and lookups');
  const [u1, u50] = await measureServer(() => startBaseline('uws', spec), opts('uws'));
  stage('Fastify baseline: filling in-process, then checks and lookups');
  const [f1, f50] = await measureServer(() => startBaseline('fastify', spec), opts('fastify'));

  // Cross-server agreement on the checked answers (same entries, HNSW graphs built in other orders).
  const agree = (a: Answer[], b: Answer[]): number => a.filter((x, j) => x.hit === b[j]!.hit && x.index === b[j]!.index).length / a.length;
  const agreeUws = agree(answers.gateway!, answers.uws!);
  const agreeFastify = agree(answers.gateway!, answers.fastify!);
  if (agreeUws < 0.98 || agreeFastify < 0.98) fail(`answers agree gateway/uWS ${agreeUws}, gateway/Fastify ${agreeFastify} (< 0.98)`);
  for (const r of [g1, g50, u1, u50, f1, f50]) if (r!.non2xx + r!.errors > 0) fail(`${r!.non2xx} non-2xx and ${r!.errors} errors while timed`);
  const hitRate = (kind: Kind): string => {
    const js = lookups.flatMap((l, j) => (l.kind === kind ? [j] : []));
    return `${((100 * js.filter((j) => answers.gateway![j]!.hit).length) / js.length).toFixed(1)}%`;
  };
  // Server time per kind of lookup, from the check pass (each body once, one at a time: like 1 connection).
  const kindTime = (kind: Kind): string => {
    const t = lookups.flatMap((l, j) => (l.kind === kind ? [answers.gateway![j]!.latencyMs] : [])).sort((a, b) => a - b);
    return `${kind} ${percentile(t, 50).toFixed(3)} / ${percentile(t, 99).toFixed(3)}`;
  };
  const f = fill!;
  const ms = (x: number): string => x.toFixed(3);
  printReport({
    name: `API-05 POST ${path}, ${N.toLocaleString('en')} entries in one tenant+namespace (1 and 50 connections, ${duration} s, ${LOOKUPS} rotating lookups)`,
    service: 'API-05',
    ceilingP99Ms: CEILINGS_MS['API-05'],
    measuredP99Ms: Math.max(g1!.serverP99Ms, g50!.serverP99Ms),
    rows: [
      {
        label: `gateway store over HTTP (50 concurrent, to ${N / 1000}k entries)`,
        opsPerSec: f.puts / f.seconds,
        p50Ms: percentile(f.storeClient, 50),
        p99Ms: percentile(f.storeClient, 99),
        extra: { 'server p50 ms': ms(percentile(f.storeServer, 50)), 'server p99 ms': ms(percentile(f.storeServer, 99)), non2xx: 0 },
      },
      loadRow('gateway lookup, 1 connection', g1!),
      loadRow('raw uWS, same lookup, 1 connection', u1!),
      loadRow('Fastify, same lookup, 1 connection', f1!),
      loadRow('gateway lookup, 50 connections', g50!),
      loadRow('raw uWS, same lookup, 50 connections', u50!),
      loadRow('Fastify, same lookup, 50 connections', f50!),
    ],
    ratios: {
      'gateway / raw uWS (req/s, 1 connection)': g1!.reqPerSec / u1!.reqPerSec,
      'gateway / Fastify (req/s, 1 connection)': g1!.reqPerSec / f1!.reqPerSec,
      'gateway / raw uWS (req/s, 50 connections)': g50!.reqPerSec / u50!.reqPerSec,
      'gateway / Fastify (req/s, 50 connections)': g50!.reqPerSec / f50!.reqPerSec,
      'gateway / raw uWS (server p99, 1 connection)': g1!.serverP99Ms / u1!.serverP99Ms,
      'gateway / raw uWS (server p99, 50 connections)': g50!.serverP99Ms / u50!.serverP99Ms,
      'gateway server p99 / 0.5 ms aim (1 connection)': g1!.serverP99Ms / 0.5,
      'gateway server p99 / 0.5 ms aim (50 connections)': g50!.serverP99Ms / 0.5,
    },
    notes: [
      ...(pinning === null ? ['not pinned: the load client shares the 2 cores with the server'] : [pinning]),
      `fill: ${f.puts} stores for ${N} entries in ${f.seconds.toFixed(1)} s; gateway RSS ${Math.round(f.rssBefore / 2 ** 20)} -> ${Math.round(f.rssAfter / 2 ** 20)} MB = ${Math.round((f.rssAfter - f.rssBefore) / N)} bytes per entry (responses 200-800 bytes included)`,
      `gateway hit rate by kind: exact ${hitRate('exact')}, near ${hitRate('near')}, eval text_b ${hitRate('eval')}, new ${hitRate('new')}`,
      `gateway server time p50 / p99 ms by kind (check pass, ${LOOKUPS / 4} sequential lookups each): ${(['exact', 'near', 'eval', 'new'] as const).map(kindTime).join('; ')}`,
      `checked answers agree: gateway/uWS ${(agreeUws * 100).toFixed(1)}%, gateway/Fastify ${(agreeFastify * 100).toFixed(1)}%; ${timedResponses} timed responses compared with them`,
      "server p50/p99 = the bodies' latency_ms; baselines time their handler the same way (from the request to the reply string)",
    ],
  });
  if (failures.length > 0) {
    console.error(`\n${failures.length} check(s) failed (the first 20 are printed above)`);
    process.exit(1);
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
