/**
 * Builds the OpenAPI 3.0.3 document from the route table: the same TypeBox schemas that the
 * validators are compiled from, converted to the OpenAPI 3.0 dialect (no `const`, `nullable`
 * instead of null types, `additionalProperties` instead of `patternProperties`).
 */
import type { TSchema } from '@sinclair/typebox';
import { ERROR_CATALOGUE, type ErrorCode } from '../errors.ts';
import type { AnyRoute, RouteDef } from '../server/types.ts';

type Json = Record<string, unknown>;

/** Codes every JSON POST route can answer. */
const COMMON_POST_ERRORS: readonly ErrorCode[] = ['INVALID_JSON', 'VALIDATION_FAILED', 'REQUEST_TIMEOUT', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'METHOD_NOT_ALLOWED', 'INTERNAL'];
const COMMON_GET_ERRORS: readonly ErrorCode[] = ['METHOD_NOT_ALLOWED', 'INTERNAL'];
const METERED_ERRORS: readonly ErrorCode[] = ['UNAUTHORIZED', 'FORBIDDEN', 'QUOTA_EXCEEDED', 'RATE_LIMITED', 'OVERLOADED'];

/**
 * CONTRACT.md §2: the operationId of every route (`METHOD path`). Generated clients name their
 * methods after these, so they are part of the interface; a route outside the table (test routes)
 * gets a name derived from its method and path.
 */
export const OPERATION_IDS: Readonly<Record<string, string>> = {
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

export function operationId(method: string, path: string): string {
  return OPERATION_IDS[`${method} ${path}`] ?? `${method.toLowerCase()}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`;
}

/**
 * Real responses, captured from a running gateway by `npm run gen:examples` (scripts/capture-examples.ts)
 * into src/schema/examples.json: the success body of each operation (answering its first request
 * example) and one error body. The OpenAPI test validates each against its schema.
 */
export interface ResponseExamples {
  readonly operations: Readonly<Record<string, unknown>>;
  readonly error?: unknown;
}

/** TypeBox (JSON Schema 2020-ish) -> OpenAPI 3.0 Schema Object. */
export function toOpenApiSchema(schema: TSchema | Json): Json {
  const src = JSON.parse(JSON.stringify(schema)) as Json; // drops TypeBox's symbol keys
  return convert(src);
}

function convert(node: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$id' || key === '$schema') continue;
    if (key === 'const') {
      out.enum = [value];
    } else if ((key === 'exclusiveMinimum' || key === 'exclusiveMaximum') && typeof value === 'number') {
      // JSON Schema 2019+: numeric bound; OpenAPI 3.0: minimum/maximum plus a boolean flag.
      out[key === 'exclusiveMinimum' ? 'minimum' : 'maximum'] = value;
      out[key] = true;
    } else if (key === 'examples' && Array.isArray(value)) {
      if (value.length > 0) out.example = value[0];
    } else if (key === 'patternProperties' && value && typeof value === 'object') {
      const first = Object.values(value as Json)[0];
      if (first && typeof first === 'object') out.additionalProperties = convert(first as Json);
    } else if ((key === 'anyOf' || key === 'oneOf') && Array.isArray(value)) {
      const nonNull = value.filter((v) => !(v && typeof v === 'object' && (v as Json).type === 'null'));
      const nullable = nonNull.length !== value.length;
      if (nullable && nonNull.length === 1) {
        Object.assign(out, convert(nonNull[0] as Json), { nullable: true });
      } else {
        out[key] = nonNull.map((v) => convert(v as Json));
        if (nullable) out.nullable = true;
      }
    } else if (key === 'type' && Array.isArray(value)) {
      const types = value.filter((t) => t !== 'null');
      if (types.length === 1) out.type = types[0];
      else out.anyOf = types.map((t) => ({ type: t }));
      if (types.length !== value.length) out.nullable = true;
    } else if (key === 'type' && value === 'null') {
      out.nullable = true;
    } else if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, convert(v as Json)]));
    } else if ((key === 'items' || key === 'additionalProperties' || key === 'not') && value && typeof value === 'object' && !Array.isArray(value)) {
      out[key] = convert(value as Json);
    } else if ((key === 'allOf') && Array.isArray(value)) {
      out[key] = value.map((v) => convert(v as Json));
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** The success body of a route: its fields inside the contract's envelope. */
export function successSchema(route: RouteDef): Json {
  const fields = route.response ? toOpenApiSchema(route.response) : { type: 'object', properties: {} };
  const properties: Json = { success: { type: 'boolean', enum: [true] } };
  const required = ['success'];
  if (route.api !== undefined) {
    properties.api = { type: 'string', enum: [route.api] };
    required.push('api');
  }
  Object.assign(properties, (fields.properties as Json | undefined) ?? {});
  properties.latency_ms = { type: 'number', minimum: 0, description: 'Server-side time for this request, in milliseconds' };
  required.push(...(((fields.required as string[] | undefined) ?? []).filter((r) => !required.includes(r))), 'latency_ms');
  return { type: 'object', required, properties };
}

export const ERROR_SCHEMA: Json = {
  type: 'object',
  required: ['success', 'error', 'latency_ms'],
  properties: {
    success: { type: 'boolean', enum: [false] },
    api: { type: 'string', description: 'Service label, on service routes' },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', enum: Object.keys(ERROR_CATALOGUE) },
        message: { type: 'string' },
        details: {
          type: 'array',
          items: { type: 'object', required: ['path', 'message'], properties: { path: { type: 'string' }, message: { type: 'string' } } },
        },
      },
    },
    latency_ms: { type: 'number', minimum: 0 },
  },
};

export function buildOpenApiDocument(routes: readonly AnyRoute[], info: { version: string; title: string; description: string }, examples?: ResponseExamples): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    if (route.hidden) continue;
    const codes = new Set<ErrorCode>([...(route.method === 'POST' ? COMMON_POST_ERRORS : COMMON_GET_ERRORS), ...(route.service || route.requiresKey ? METERED_ERRORS : []), ...(route.errors ?? [])]);
    const byStatus = new Map<number, ErrorCode[]>();
    for (const code of codes) {
      const status = ERROR_CATALOGUE[code].status;
      byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
    }
    const success = (id: string): Json => {
      const example = examples?.operations[id];
      const withExample = (schema: Json): Json => (example === undefined ? schema : { ...schema, example });
      return route.produces && route.produces !== 'application/json'
        ? { description: 'Success', content: { [route.produces]: { schema: withExample({ type: 'string' }) } } }
        : { description: 'Success', content: { 'application/json': { schema: withExample(route.produces === 'application/json' && !route.response ? { type: 'object' } : successSchema(route)) } } };
    };
    const errors: Json = {};
    for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
      errors[String(status)] = { description: list.join(', '), content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
    }
    for (const path of route.paths) {
      const id = operationId(route.method, path);
      const responses: Json = { '200': success(id), ...errors };
      const op: Json = {
        operationId: id,
        summary: route.summary,
        ...(route.description ? { description: route.description } : {}),
        tags: route.tags ? [...route.tags] : route.api ? [route.api] : ['Gateway'],
        responses,
        ...(route.service || route.requiresKey ? { security: [{}, { bearerAuth: [] }, { apiKey: [] }] } : {}),
      };
      if (route.body) op.requestBody = { required: true, content: { 'application/json': { schema: toOpenApiSchema(route.body) } } };
      paths[path] = { ...(paths[path] ?? {}), [route.method.toLowerCase()]: op };
    }
  }
  return {
    openapi: '3.0.3',
    info: { title: info.title, version: info.version, description: info.description },
    paths,
    components: {
      schemas: { Error: examples?.error === undefined ? ERROR_SCHEMA : { ...ERROR_SCHEMA, example: examples.error } },
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer' },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      },
    },
  };
}
