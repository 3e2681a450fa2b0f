/**
 * HTTP benchmark plumbing: start the real gateway or a baseline server in a child process, drive
 * it with autocannon, and read both client latency (autocannon's per-response time) and the
 * server-side time each body reports in `latency_ms` (CONTRACT.md §7 targets are server-side).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { benchOptions, percentile, type BenchRow } from './harness.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface RunningServer {
  readonly url: string;
  /** The server's process id (for its CPU time, see cpuSeconds). */
  readonly pid?: number;
  stop(): Promise<void>;
}

/**
 * CPU seconds (user + system, all threads) a process has used so far, from /proc (Linux); NaN
 * elsewhere. CPU per request is the ratio that survives a noisy 2-core machine: throughput
 * follows the scheduler, the work a server does per request does not.
 */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of proc(5) (utime, stime), counted after the ")" that ends the name.
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** /proc/stat's first line: CPU ticks of all cores, [total, steal] (null off Linux). */
export function cpuTicks(): [number, number] | null {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal (guest time is already inside user).
    return [fields.slice(0, 8).reduce((a, b) => a + b, 0), fields[7] ?? 0];
  } catch {
    return null;
  }
}

/**
 * Share of the machine's CPU time the hypervisor gave to someone else between two cpuTicks()
 * readings, in %. Seen here once as a burst of ~19 s stolen in ~3 min; the VM's usual slow speed
 * shows no steal (referenceWorkMs catches that). A run with steal is slower for reasons outside
 * the code.
 */
export function stealPercent(before: [number, number] | null, after: [number, number] | null): number {
  if (before === null || after === null || after[0] <= before[0]) return Number.NaN;
  return (100 * (after[1] - before[1])) / (after[0] - before[0]);
}

const REF = new Float64Array(4096).map((_, i) => ((i * 2654435761) % 1000) / 1000);

/**
 * Milliseconds this machine takes, right now, for one fixed piece of CPU work (a multiply-add
 * loop over 32 KB, no allocation; median of 5). On this VM it is bimodal: ~3.2 ms or ~6.5 ms,
 * switching every few seconds while both of the guest's cores sit nearly idle and the guest sees no
 * steal (BENCHMARKS.md, "The machine's two speeds"). Printed beside each load run, it says which
 * speed a row met.
 */
export function referenceWorkMs(): number {
  const times: number[] = [];
  for (let r = 0; r < 5; r++) {
    const t = performance.now();
    let s = 0;
    for (let k = 0; k < 400; k++) for (let i = 0; i < REF.length; i++) s += REF[i]! * REF[(i * 7) & 4095]!;
    times.push(performance.now() - t + (s < 0 ? 1 : 0));
  }
  return times.sort((a, b) => a - b)[2]!;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

async function waitFor(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited: number | null = null;
  child.once('exit', (code) => {
    exited = code ?? -1;
  });
  while (Date.now() < deadline) {
    if (exited !== null) throw new Error(`server process exited with code ${exited} before it was ready`);
    try {
      const res = await fetch(url);
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server at ${url} not ready after ${timeoutMs} ms`);
}

/** CPU lists when pinning is on (pinCpus): servers on `server`, the load client on `client`. */
let pinned: { server: string; client: string } | null = null;

/**
 * Splits the cores between the load client and the server under test (Linux `taskset`): this
 * process (autocannon runs in it) and wrk on CPU 0, every server started afterwards on the other
 * CPUs. On a 2-core machine an unpinned client and server fight for both cores and the ratio
 * measures the scheduler; pinned, each server gets one whole core, the same for every server.
 * Only for routes that stay on the event loop (a worker pool would share the server's core).
 * Returns a note for the report, or null when taskset or a second core is missing.
 */
export function pinCpus(): string | null {
  const cores = availableParallelism();
  if (cores < 2) return null;
  try {
    execFileSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
  } catch {
    return null;
  }
  pinned = { client: '0', server: cores === 2 ? '1' : `1-${cores - 1}` };
  return `pinned with taskset: load client (autocannon, wrk) on CPU ${pinned.client}, each server on CPU ${pinned.server}`;
}

function spawnServer(args: string[], env: Record<string, string>): ChildProcess {
  const command = [process.execPath, '--import', 'tsx', ...args];
  // taskset execs the command in place: child.pid is the server's own pid.
  const [file, ...argv] = pinned === null ? command : ['taskset', '-c', pinned.server, ...command];
  const child = spawn(file!, argv, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return child;
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    });
}

/** The real gateway (`src/main.ts`) on a free port, logging at warn; waits for /v1/health. */
export async function startGateway(env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const child = spawnServer(['src/main.ts'], { HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/v1/health`, child, 60_000);
  return { url, pid: child.pid, stop: stopper(child) };
}

export interface BaselineSpec {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  /** Module path relative to the repository root, e.g. `bench/lib/health-handler.ts`. */
  readonly module: string;
  readonly exportName: string;
  /** An export awaited once before the baseline listens (BASELINE_INIT), e.g. filling a store. */
  readonly initName?: string;
  /** How long to wait for the baseline to listen (default 60 s; an init may take longer). */
  readonly readyTimeoutMs?: number;
}

/** A raw uWS or Fastify server answering `spec.path` with `(await import(module))[exportName](body)`. */
export async function startBaseline(kind: 'uws' | 'fastify', spec: BaselineSpec): Promise<RunningServer> {
  const port = await freePort();
  const child = spawnServer(['bench/lib/baseline-server.ts'], {
    BASELINE_KIND: kind,
    BASELINE_METHOD: spec.method,
    BASELINE_PATH: spec.path,
    BASELINE_MODULE: spec.module,
    BASELINE_EXPORT: spec.exportName,
    ...(spec.initName === undefined ? {} : { BASELINE_INIT: spec.initName }),
    PORT: String(port),
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/__ready`, child, spec.readyTimeoutMs ?? 60_000);
  return { url, pid: child.pid, stop: stopper(child) };
}

export interface LoadOptions {
  readonly url: string;
  readonly method?: 'GET' | 'POST';
  readonly body?: string;
  /** Rotated per request (autocannon cycles the request list). */
  readonly bodies?: readonly string[];
  readonly headers?: Readonly<Record<string, string>>;
  readonly connections?: number;
  readonly duration?: number;
  /** Called with every response: the index of its body in `bodies` (0 for `body`), status and body text. */
  readonly onBody?: (index: number, status: number, body: string) => void;
}

export interface LoadResult {
  readonly reqPerSec: number;
  /** Client-observed latency. */
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Server-side latency from the bodies' `latency_ms` (NaN when bodies carry none). */
  readonly serverP50Ms: number;
  readonly serverP99Ms: number;
  readonly requests: number;
  readonly non2xx: number;
  readonly errors: number;
  /** CPU time stolen by the hypervisor during the run, in % of all cores' time (NaN off Linux). */
  readonly stealPct: number;
  /** referenceWorkMs() before and after the run, averaged: the machine's speed during it. */
  readonly refMs: number;
}

export async function load(opts: LoadOptions): Promise<LoadResult> {
  const defaults = benchOptions();
  const method = opts.method ?? (opts.body || opts.bodies ? 'POST' : 'GET');
  const headers = { ...(method === 'POST' ? { 'content-type': 'application/json' } : {}), ...opts.headers };
  const server: number[] = [];
  const onResponse = (_status: number, body: string): void => {
    const i = body.lastIndexOf('"latency_ms":');
    if (i !== -1) server.push(Number.parseFloat(body.slice(i + 13)));
  };
  const bodies = opts.bodies ?? (opts.body === undefined ? [undefined] : [opts.body]);
  const u = new URL(opts.url);
  const client: number[] = [];
  // Measured before autocannon starts (it starts sending when created).
  const refBefore = referenceWorkMs();
  const ticks = cpuTicks();
  const instance = autocannon({
    url: u.origin,
    connections: opts.connections ?? defaults.connections,
    duration: opts.duration ?? defaults.duration,
    requests: bodies.map((body, index) => ({
      method,
      path: u.pathname + u.search,
      headers,
      ...(body === undefined ? {} : { body }),
      onResponse:
        opts.onBody === undefined
          ? onResponse
          : (status: number, text: string): void => {
              onResponse(status, text);
              opts.onBody!(index, status, text);
            },
    })),
  });
  instance.on('response', (_c: unknown, _status: number, _bytes: number, responseTime: number) => {
    client.push(responseTime);
  });
  const result = await instance;
  const stealPct = stealPercent(ticks, cpuTicks());
  const refMs = (refBefore + referenceWorkMs()) / 2;
  client.sort((a, b) => a - b);
  server.sort((a, b) => a - b);
  return {
    reqPerSec: result.requests.average,
    p50Ms: percentile(client, 50),
    p99Ms: percentile(client, 99),
    serverP50Ms: percentile(server, 50),
    serverP99Ms: percentile(server, 99),
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    stealPct,
    refMs,
  };
}

export interface MeasureOptions {
  readonly path: string;
  readonly method?: 'GET' | 'POST';
  /** Request bodies, rotated (POST). */
  readonly bodies?: readonly string[];
  /** Asserts the server answers correctly before it is timed (undici's micro-benchmarks do this). */
  readonly check?: (res: Response) => Promise<void>;
  /** The body sent for `check` (default: the first of `bodies`). */
  readonly checkBody?: string;
  /** Connection counts to time, one load run each (default: BENCH_CONNECTIONS). */
  readonly connections?: readonly number[];
  readonly duration?: number;
  /** Warm-up seconds before timing (default 1). */
  readonly warmupSeconds?: number;
  /** Passed to every load run (warm-up included): see LoadOptions.onBody. */
  readonly onBody?: LoadOptions['onBody'];
}

/**
 * Starts a server, checks its answer, warms it up, times it at each connection count, stops it.
 * Every HTTP benchmark runs this for the gateway and its baselines in the same invocation.
 */
export async function measureServer(start: () => Promise<RunningServer>, opts: MeasureOptions): Promise<LoadResult[]> {
  const defaults = benchOptions();
  const server = await start();
  const url = server.url + opts.path;
  const method = opts.method ?? (opts.bodies ? 'POST' : 'GET');
  const bodies = opts.bodies;
  try {
    const first = await fetch(url, method === 'POST' ? { method, headers: { 'content-type': 'application/json' }, body: opts.checkBody ?? bodies?.[0] } : {});
    if (opts.check) await opts.check(first);
    else console.assert(first.status === 200, `${method} ${opts.path} answers 200 before it is timed`);
    const connections = opts.connections ?? [defaults.connections];
    const onBody = opts.onBody === undefined ? {} : { onBody: opts.onBody };
    await load({ url, method, ...(bodies ? { bodies } : {}), ...onBody, duration: opts.warmupSeconds ?? 1, connections: connections[connections.length - 1]! });
    const out: LoadResult[] = [];
    for (const c of connections) out.push(await load({ url, method, ...(bodies ? { bodies } : {}), ...onBody, duration: opts.duration ?? defaults.duration, connections: c }));
    return out;
  } finally {
    await server.stop();
  }
}

/** One table row of a load result: client req/s and latency, server latency from `latency_ms`. */
export function loadRow(label: string, r: LoadResult): BenchRow {
  return {
    label,
    reqPerSec: r.reqPerSec,
    p50Ms: r.p50Ms,
    p99Ms: r.p99Ms,
    extra: { 'server p50 ms': r.serverP50Ms.toFixed(3), 'server p99 ms': r.serverP99Ms.toFixed(3), non2xx: r.non2xx + r.errors, 'steal %': Number.isNaN(r.stealPct) ? '' : r.stealPct.toFixed(1), 'ref work ms': r.refMs.toFixed(2) },
  };
}

/** wrk (C, epoll) if it is on PATH: a load client cheap enough that fast routes are not client-bound. */
export function wrkAvailable(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (err) {
    // wrk --version exits 1 after printing its banner; only a missing binary is "not available".
    return (err as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

/** GET `url` with wrk (1 thread): req/s and client p50/p99. */
export function wrkLoad(url: string, opts: { connections?: number; duration?: number; pid?: number } = {}): { reqPerSec: number; p50Ms: number; p99Ms: number; cpuUsPerReq: number } {
  const defaults = benchOptions();
  const cpu0 = opts.pid === undefined ? Number.NaN : cpuSeconds(opts.pid);
  const wrkArgs = ['-t1', `-c${opts.connections ?? defaults.connections}`, `-d${opts.duration ?? defaults.duration}s`, '--latency', url];
  const out = (pinned === null ? execFileSync('wrk', wrkArgs) : execFileSync('taskset', ['-c', pinned.client, 'wrk', ...wrkArgs])).toString();
  const ms = (label: string): number => {
    const m = new RegExp(`^\\s*${label}%\\s+([\\d.]+)(us|ms|s)\\s*$`, 'm').exec(out);
    if (!m) return Number.NaN;
    const v = Number(m[1]);
    return m[2] === 'us' ? v / 1000 : m[2] === 's' ? v * 1000 : v;
  };
  const cpu = opts.pid === undefined ? Number.NaN : cpuSeconds(opts.pid) - cpu0;
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? Number.NaN);
  return { reqPerSec: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? Number.NaN), p50Ms: ms('50'), p99Ms: ms('99'), cpuUsPerReq: (cpu / requests) * 1e6 };
}
