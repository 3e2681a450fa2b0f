/**
 * `npm run gen:examples`: boots a gateway on port 0 (keys required, one pack4 key in a temporary
 * DATA_DIR), calls every operation of its OpenAPI document with the operation's request example,
 * and writes the real answers to src/schema/examples.json, which the document then shows as the
 * example of each response schema. Run it again whenever a response schema changes: the OpenAPI
 * test validates every example against its schema and fails on a stale one.
 *
 *   npm run gen:examples            rewrite src/schema/examples.json
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { generateKey, hashKeyHex, writeFileAtomic } from '../src/auth/keys-file.ts';
import { loadConfig } from '../src/config.ts';
import { startGateway } from '../src/gateway.ts';

type Json = Record<string, any>;

const OUT = fileURLToPath(new URL('../src/schema/examples.json', import.meta.url));
const dataDir = mkdtempSync(path.join(tmpdir(), 'gw-examples-'));
const keysFile = path.join(dataDir, 'keys.json');
const key = generateKey();
writeFileAtomic(keysFile, JSON.stringify({ version: 1, keys: [{ id: hashKeyHex(key).slice(0, 16), sha256: hashKeyHex(key), tenant: 'acme', plan: 'pack4', created_at: new Date().toISOString(), revoked_at: null, label: 'examples' }] }));

const quiet = new Writable({ write: (_c, _e, cb) => cb() });
const config = loadConfig({ HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', WORKER_THREADS: '1', AUTH_MODE: 'required', RATE_LIMIT_RPS: '0', DATA_DIR: dataDir, API_KEYS_FILE: keysFile });
const gateway = await startGateway(config, { warmup: false, logDestination: quiet });
const base = `http://127.0.0.1:${gateway.port}`;
const auth = { authorization: `Bearer ${key}` };

try {
  const doc = (await (await fetch(`${base}/v1/openapi.json`)).json()) as Json;
  const operations: Record<string, unknown> = {};
  for (const [p, item] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json)) {
      const id = op.operationId as string;
      const media = op.requestBody?.content?.['application/json'];
      const res = await fetch(base + p, {
        method: method.toUpperCase(),
        headers: media ? { ...auth, 'content-type': 'application/json' } : auth,
        body: media ? JSON.stringify(media.schema.example) : undefined,
      });
      if (res.status !== 200) throw new Error(`${method.toUpperCase()} ${p} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
      if (id === 'getOpenApi') {
        // The whole document inside itself would double its size: its head and one operation's name.
        const d = (await res.json()) as Json;
        const { operationId, summary, tags } = d.paths['/v1/health'].get as Json;
        operations[id] = { openapi: d.openapi, info: d.info, paths: { '/v1/health': { get: { operationId, summary, tags } } } };
      } else if (!(res.headers.get('content-type') ?? '').startsWith('application/json')) {
        // Text (Prometheus): the first few metric families, cut at a line end.
        const text = await res.text();
        const lines = text.split('\n').slice(0, 12);
        operations[id] = `${lines.join('\n')}\n`;
      } else {
        operations[id] = await res.json();
      }
    }
  }
  const bad = await fetch(`${base}/v1/sepa/vop`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ iban: 42 }) });
  const error = await bad.json();
  writeFileSync(OUT, `${JSON.stringify({ captured_at: new Date().toISOString(), operations, error }, null, 2)}\n`);
  console.log(`wrote ${Object.keys(operations).length} response examples and one error example to ${path.relative(process.cwd(), OUT)}`);
} finally {
  await gateway.close();
  rmSync(dataDir, { recursive: true, force: true });
}
