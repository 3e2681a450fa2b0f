/**
 * Baseline servers for HTTP benchmarks: a raw uWebSockets.js app and a Fastify app, each answering
 * one route with the same handler the gateway runs, plus `latency_ms` measured the same way, so
 * the ratio isolates what the gateway adds (routing, validation, request ids, metrics, logs).
 * Configured by env: BASELINE_KIND (uws|fastify), BASELINE_METHOD, BASELINE_PATH, BASELINE_MODULE,
 * BASELINE_EXPORT, PORT; optional BASELINE_INIT: an export of the module awaited once before the
 * server listens (e.g. filling a cache with the same entries the gateway gets).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';

const env = process.env;
const kind = env.BASELINE_KIND;
const method = (env.BASELINE_METHOD ?? 'GET').toUpperCase();
const route = env.BASELINE_PATH ?? '/';
const port = Number(env.PORT);
const mod = (await import(pathToFileURL(path.resolve(env.BASELINE_MODULE!)).href)) as Record<string, (body: unknown) => unknown>;
const handler = mod[env.BASELINE_EXPORT!];
if (typeof handler !== 'function') throw new Error(`${env.BASELINE_MODULE} has no export ${env.BASELINE_EXPORT}`);
if (env.BASELINE_INIT) {
  const init = mod[env.BASELINE_INIT];
  if (typeof init !== 'function') throw new Error(`${env.BASELINE_MODULE} has no export ${env.BASELINE_INIT}`);
  await init(undefined);
}

const respond = async (body: unknown, start: number): Promise<string> => {
  const out = await handler(body);
  const json = JSON.stringify(out);
  return `${json.slice(0, -1)}${json.length > 2 ? ',' : ''}"latency_ms":${Math.round((performance.now() - start) * 1000) / 1000}}`;
};

if (kind === 'uws') {
  const require = createRequire(import.meta.url);
  const uws = require('uWebSockets.js') as typeof import('uWebSockets.js');
  const app = uws.App();
  app.get('/__ready', (res) => {
    res.end('ok');
  });
  const reg = method === 'POST' ? app.post.bind(app) : app.get.bind(app);
  reg(route, (res) => {
    const start = performance.now();
    let aborted = false;
    res.onAborted(() => {
      aborted = true;
    });
    const finish = (body: unknown): void => {
      respond(body, start).then(
        (text) => {
          if (aborted) return;
          res.cork(() => {
            res.writeStatus('200 OK').writeHeader('content-type', 'application/json; charset=utf-8').end(text);
          });
        },
        () => {
          if (!aborted) res.cork(() => res.writeStatus('500 Internal Server Error').end('{}'));
        },
      );
    };
    if (method === 'GET') {
      finish(undefined);
      return;
    }
    const chunks: Buffer[] = [];
    res.onData((chunk, isLast) => {
      chunks.push(Buffer.from(new Uint8Array(chunk)));
      if (isLast) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          parsed = undefined;
        }
        finish(parsed);
      }
    });
  });
  app.listen('127.0.0.1', port, (socket) => {
    if (!socket) {
      console.error(`baseline uws cannot listen on ${port}`);
      process.exit(1);
    }
  });
} else if (kind === 'fastify') {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  app.get('/__ready', async () => 'ok');
  app.route({
    method: method as 'GET' | 'POST',
    url: route,
    handler: async (req, reply) => {
      const start = performance.now();
      const text = await respond(req.body, start);
      reply.header('content-type', 'application/json; charset=utf-8');
      return reply.send(text);
    },
  });
  await app.listen({ host: '127.0.0.1', port });
} else {
  throw new Error(`BASELINE_KIND must be uws or fastify, got ${String(kind)}`);
}

process.on('SIGTERM', () => process.exit(0));
