import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { startTestGateway, type TestGateway } from './helpers/gateway.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const read = (file: string): string => readFileSync(path.join(root, file), 'utf8');
const docs = readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);

/** The operationIds the interface fixes (clients generated from the OpenAPI document use them). */
const OPERATION_IDS = [
  'getHealth', 'extractMarkdown', 'webToMarkdown', 'semanticCache', 'semanticCacheProduction', 'llmShieldGuard',
  'tokenslimmerAuto', 'tokenslimmer', 'swarmsConsensus', 'sepaVoP', 'sepaVopProduction', 'getOpenApi', 'getMetrics',
  'getUsage', 'getAuditKeys',
];

/** Pages whose size and wording this test holds to the docs rule (a user's page, no work log). */
/** README and every docs page. */
const USER_PAGES = ['README.md', ...docs];

describe('docs/api.md', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway();
  });
  after(() => gw.close());

  it('names every path the gateway serves, with its method', () => {
    const doc = read('docs/api.md');
    for (const route of gw.gateway.routes) {
      for (const p of route.paths) {
        if (p.startsWith('/docs/')) continue; // the interactive reference's own assets
        const listed = doc.includes(`| ${route.method} | \`${p}\` |`) || doc.includes(`\`${route.method} ${p}\``) || doc.includes(`${route.method} ${p}\``);
        assert.ok(listed, `docs/api.md does not list ${route.method} ${p}`);
      }
    }
  });

  it('gives every operationId of the interface', () => {
    const doc = read('docs/api.md');
    for (const id of OPERATION_IDS) assert.ok(doc.includes(`\`${id}\``), `docs/api.md lacks operationId ${id}`);
  });

  it('states every service request field that the schemas accept (docs/api-services.md)', () => {
    const doc = read('docs/api-services.md');
    const schemas = gw.gateway.openapi as { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: unknown }> } }>>; components?: { schemas?: Record<string, unknown> } };
    const resolve = (s: any): any => (s && typeof s.$ref === 'string' ? resolve(s.$ref.split('/').slice(1).reduce((o: any, k: string) => o[k], gw.gateway.openapi)) : s);
    for (const [p, methods] of Object.entries(schemas.paths)) {
      for (const op of Object.values(methods)) {
        const schema = resolve(op.requestBody?.content['application/json']?.schema);
        for (const field of Object.keys(schema?.properties ?? {})) assert.ok(doc.includes(`\`${field}\``), `docs/api-services.md lacks field ${field} of ${p}`);
      }
    }
  });
});

describe('documentation files', () => {
  it('README links docs/api.md and every page under docs/', () => {
    const readme = read('README.md');
    for (const file of docs) assert.ok(readme.includes(`](${file})`), `README does not link ${file}`);
  });

  it('every relative link of README and docs points to a file of the repository', () => {
    for (const file of ['README.md', 'eval/README.md', ...docs]) {
      // Code blocks and code spans are examples, not links (`![alt](src)`).
      const prose = read(file).replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
      for (const [, target] of prose.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/i.test(target!)) continue;
        assert.ok(existsSync(path.join(root, path.dirname(file), target!)), `${file} links ${target}, which does not exist`);
      }
    }
  });

  for (const file of USER_PAGES) {
    it(`${file} is a user's page: no work-log wording${file.startsWith('docs/') ? ', at most 12 KB' : ''}`, () => {
      const text = read(file);
      if (file.startsWith('docs/')) assert.ok(Buffer.byteLength(text) <= 12 * 1024, `${file} is ${Buffer.byteLength(text)} bytes`);
      assert.doesNotMatch(text, /\bsessions? [0-9]|\bthis session|\blast session|\.\.\/shared/i);
      const decisions = text.split(/^## /m).find((s) => s.startsWith('Decisions'));
      if (decisions !== undefined) assert.ok(Buffer.byteLength(decisions) <= 3 * 1024, `${file}: "Decisions" is ${Buffer.byteLength(decisions)} bytes`);
    });
  }
});
