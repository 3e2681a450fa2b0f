/** A small service for adapter tests: echoes what it parsed, optionally after a delay. */
import { Type } from '@sinclair/typebox';
import type { ServiceFactory } from '../../src/services/types.ts';

export const echoFactory: ServiceFactory = () => ({
  routes: [
    {
      method: 'POST',
      paths: ['/test/echo', '/test/echo-alias'],
      api: '[TEST] Echo',
      summary: 'Echo for adapter tests',
      body: Type.Object({
        text: Type.Optional(Type.String({ maxLength: 64 })),
        delay_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 5000 })),
        count: Type.Optional(Type.Integer({ minimum: 0, maximum: 10 })),
      }),
      response: Type.Object({ text: Type.Union([Type.String(), Type.Null()]), keys: Type.Integer(), own_proto: Type.Boolean(), client_ip: Type.String() }),
      handler: async (ctx) => {
        if (ctx.body.delay_ms) await new Promise((r) => setTimeout(r, ctx.body.delay_ms));
        return {
          text: ctx.body.text ?? null,
          keys: Object.keys(ctx.body).length,
          own_proto: Object.prototype.hasOwnProperty.call(ctx.body, '__proto__'),
          client_ip: ctx.clientIp,
        };
      },
    },
    {
      method: 'GET',
      paths: ['/test/boom'],
      api: '[TEST] Boom',
      summary: 'Throws an unexpected error whose message quotes input',
      handler: (ctx) => {
        throw new Error(`unexpected failure while handling ${ctx.query}`);
      },
    },
  ],
});
