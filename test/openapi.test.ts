import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ajv } from 'ajv';
import { startTestGateway, type TestGateway } from './helpers/gateway.ts';

type Json = Record<string, any>;

/** Replaces local $refs with their targets so each response schema compiles on its own. */
function inline(schema: unknown, doc: Json): unknown {
  if (Array.isArray(schema)) return schema.map((s) => inline(s, doc));
  if (schema && typeof schema === 'object') {
    const ref = (schema as Json).$ref;
    if (typeof ref === 'string') return inline(ref.slice(2).split('/').reduce((o: Json, k: string) => o[k], doc), doc);
    return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, inline(v, doc)]));
  }
  return schema;
}

describe('OpenAPI document', () => {
  let gw: TestGateway;
  let doc: Json;
  const ajv = new Ajv({ strict: false, allErrors: true, formats: { 'date-time': (s: string) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(s) } });

  before(async () => {
    gw = await startTestGateway();
    const res = await gw.get('/v1/openapi.json');
    assert.equal(res.status, 200);
    doc = (await res.json()) as Json;
  });
  after(() => gw.close());

  it('is OpenAPI 3.0.3 with info.version 1.0.0 and a shared Error schema', () => {
    assert.equal(doc.openapi, '3.0.3');
    assert.equal(doc.info.version, '1.0.0');
    assert.ok(doc.components.schemas.Error);
  });

  it('documents every route of the gateway with each of its paths', () => {
    for (const route of gw.gateway.routes) {
      if (route.hidden) continue;
      for (const path of route.paths) {
        const op = doc.paths[path]?.[route.method.toLowerCase()];
        assert.ok(op, `${route.method} ${path} is missing`);
        assert.ok(op.responses['200'], `${route.method} ${path} has no 200 response`);
        if (route.method === 'POST') {
          assert.ok(op.requestBody?.content?.['application/json']?.schema, `${path} has no request schema`);
          for (const status of ['400', '413', '415']) assert.ok(op.responses[status], `${path} lacks ${status}`);
        }
      }
    }
  });

  it('uses no JSON Schema keyword that OpenAPI 3.0 lacks', () => {
    const text = JSON.stringify(doc);
    for (const keyword of ['"const":', '"$id":', '"patternProperties":', '"type":"null"', '"examples":', '"$schema":']) {
      assert.equal(text.includes(keyword), false, `document contains ${keyword}`);
    }
  });

  it('matches real responses of every route: each request example and an invalid body', async () => {
    let checked = 0;
    const documented = gw.gateway.routes.filter((r) => !r.hidden);
    for (const route of documented) {
      const op = doc.paths[route.paths[0]!][route.method.toLowerCase()];
      const validate = (status: number, body: unknown, label: string): void => {
        const schema = op.responses[String(status)]?.content?.['application/json']?.schema;
        assert.ok(schema, `${label}: status ${status} is not documented`);
        const check = ajv.compile(inline(schema, doc) as Json);
        assert.ok(check(body), `${label}: ${JSON.stringify(check.errors)}\n${JSON.stringify(body).slice(0, 400)}`);
        checked++;
      };
      if (route.method === 'GET') {
        const res = await gw.get(route.paths[0]!);
        if (res.headers.get('content-type')?.startsWith('application/json')) validate(res.status, await res.json(), `GET ${route.paths[0]}`);
        else {
          assert.equal(res.status, 200);
          assert.ok(op.responses['200'].content[route.produces ?? ''], `GET ${route.paths[0]}: content type not documented`);
          checked++;
        }
        continue;
      }
      const examples = (route.body as Json | undefined)?.examples as unknown[] | undefined;
      assert.ok(examples && examples.length > 0, `POST ${route.paths[0]} needs request examples in its schema`);
      for (const [i, example] of examples.entries()) {
        for (const path of route.paths) {
          const res = await gw.post(path, example);
          validate(res.status, await res.json(), `POST ${path} example ${i}`);
          assert.equal(res.status, 200, `POST ${path} example ${i} should succeed`);
        }
      }
      const bad = await gw.post(route.paths[0]!, { unexpected: true });
      validate(bad.status, await bad.json(), `POST ${route.paths[0]} invalid body`);
    }
    const nf = await gw.get('/v1/does-not-exist');
    const nfBody = await nf.json();
    assert.ok(ajv.compile(doc.components.schemas.Error)(nfBody));
    assert.ok(checked >= documented.length);
  });

  it('names every operation exactly as CONTRACT.md §2 does', () => {
    const expected: Record<string, string> = {
      'GET /v1/health': 'getHealth',
      'POST /v1/extract': 'extractMarkdown',
      'POST /v1/api/01-web-to-markdown': 'webToMarkdown',
      'POST /v1/cache/semantic': 'semanticCache',
      'POST /v1/api/05-semantic-cache': 'semanticCacheProduction',
      'POST /v1/api/08-llm-shield-guard': 'llmShieldGuard',
      'POST /v1/auto': 'tokenslimmerAuto',
      'POST /v1/api/09-tokenslimmer': 'tokenslimmer',
      'POST /v1/swarms/consensus': 'swarmsConsensus',
      'POST /v1/sepa/vop': 'sepaVoP',
      'POST /v1/api/138-sepa-vop': 'sepaVopProduction',
      'GET /v1/openapi.json': 'getOpenApi',
      'GET /metrics': 'getMetrics',
      'GET /v1/usage': 'getUsage',
      'GET /v1/audit/keys': 'getAuditKeys',
    };
    const actual: Record<string, string> = {};
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      for (const [method, op] of Object.entries(item as Json)) actual[`${method.toUpperCase()} ${path}`] = op.operationId;
    }
    assert.deepEqual(actual, expected);
  });

  it('leaves the docs page and its assets out of the document', () => {
    assert.equal(doc.paths['/docs'], undefined);
    assert.equal(doc.paths['/'], undefined);
    assert.deepEqual(Object.keys(doc.paths).filter((p) => p.startsWith('/docs')), []);
  });

  it('gives every request and response schema an example that validates against it', () => {
    let examples = 0;
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      for (const [method, op] of Object.entries(item as Json)) {
        const label = `${method.toUpperCase()} ${path}`;
        const request = op.requestBody?.content?.['application/json']?.schema;
        const bodies: Array<[string, Json]> = request ? [['request', request]] : [];
        for (const [type, media] of Object.entries(op.responses['200'].content as Json)) bodies.push([`200 ${type}`, (media as Json).schema]);
        for (const [what, schema] of bodies) {
          assert.ok(schema.example !== undefined, `${label}: the ${what} schema has no example`);
          const check = ajv.compile(inline(schema, doc) as Json);
          assert.ok(check(schema.example), `${label}: the ${what} example does not match its schema (npm run gen:examples): ${JSON.stringify(check.errors)}`);
          examples++;
        }
      }
    }
    const error = doc.components.schemas.Error;
    assert.ok(error.example, 'the Error schema has no example');
    assert.ok(ajv.compile(error)(error.example), 'the Error example does not match the Error schema');
    assert.equal(examples, 10 * 2 + 5, 'ten POST operations (request and response) and five GET operations');
  });

  it('shows real captured responses: the API-138 example is the verified Max Mustermann answer', () => {
    const example = doc.paths['/v1/sepa/vop'].post.responses['200'].content['application/json'].schema.example;
    assert.equal(example.status, 'SUCCESS_VERIFIED');
    assert.equal(example.iban, 'DE89370400440532013000');
    assert.match(example.audit_seal.signature, /^[A-Za-z0-9_-]{40,}$/);
  });
});

describe('TypeBox to OpenAPI 3.0 conversion', async () => {
  const { toOpenApiSchema } = await import('../src/schema/openapi.ts');
  const { Type } = await import('@sinclair/typebox');
  const cases: Array<[string, unknown, Record<string, unknown>]> = [
    ['a literal becomes a one-value enum', Type.Literal('x'), { type: 'string', enum: ['x'] }],
    ['a nullable union becomes nullable', Type.Union([Type.String(), Type.Null()]), { type: 'string', nullable: true }],
    ['numeric exclusive bounds become boolean flags', Type.Number({ exclusiveMinimum: 0, exclusiveMaximum: 1 }), { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 1, exclusiveMaximum: true }],
    ['a record becomes additionalProperties', Type.Record(Type.String(), Type.Integer()), { type: 'object', additionalProperties: { type: 'integer' } }],
    ['examples become one example', Type.String({ examples: ['a', 'b'] }), { type: 'string', example: 'a' }],
  ];
  for (const [name, input, expected] of cases) {
    it(name, () => {
      assert.deepEqual(toOpenApiSchema(input as never), expected);
    });
  }
});
