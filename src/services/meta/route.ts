/**
 * Gateway routes that are not services: the OpenAPI document and Prometheus metrics.
 * The OpenAPI document is served as-is (a valid OpenAPI 3.0.3 document may not carry a
 * `latency_ms` member at its root), serialised once at boot.
 */
import type client from 'prom-client';
import { RawReply, type RouteDef } from '../../server/types.ts';

export function openApiRoute(getDocument: () => unknown): RouteDef {
  let cached: RawReply | null = null;
  return {
    method: 'GET',
    paths: ['/v1/openapi.json'],
    summary: 'This OpenAPI 3.0.3 document',
    tags: ['Gateway'],
    produces: 'application/json',
    handler: () => {
      cached ??= new RawReply(JSON.stringify(getDocument()), 'application/json; charset=utf-8', 200, { 'cache-control': 'public, max-age=300' });
      return cached;
    },
  };
}

export function metricsRoute(registry: client.Registry): RouteDef {
  return {
    method: 'GET',
    paths: ['/metrics'],
    summary: 'Prometheus metrics (text exposition format)',
    tags: ['Gateway'],
    produces: 'text/plain',
    handler: async () => new RawReply(await registry.metrics(), registry.contentType),
  };
}
