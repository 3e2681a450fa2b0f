/** POST /v1/swarms/consensus (CONTRACT.md §2, §5 API-21). */
import { defineRoute, type AnyRoute } from '../../server/types.ts';
import type { ConsensusCore } from './core.ts';
import { ConsensusRequest, ConsensusResponse } from './schema.ts';

export const CONSENSUS_LABEL = '[API-21] Swarms Consensus';

export function consensusRoute(core: ConsensusCore): AnyRoute {
  return defineRoute({
    method: 'POST',
    paths: ['/v1/swarms/consensus'],
    api: CONSENSUS_LABEL,
    service: 'API-21',
    summary: 'Lock arbiter (leases with fencing tokens) and quorum votes for agent swarms',
    description:
      'operation: acquire | renew | release | status | validate (locks) or vote | decide (consensus). ' +
      'State belongs to the caller\'s tenant. Refusals that depend on state (a held lock, a stale token, a repeated vote) ' +
      'answer 200 with granted/valid/vote_accepted false and a reason; malformed requests answer 400 VALIDATION_FAILED. ' +
      'Clients must check fencing tokens at the protected resource: see docs/api-21-consensus.md.',
    body: ConsensusRequest,
    response: ConsensusResponse,
    handler: (ctx) => {
      const body = ctx.body;
      // Only a waiting acquire listens for the client leaving (the signal is created on first use).
      const waits = body.operation === 'acquire' && (body.wait_ms ?? 0) > 0;
      return core.handle(ctx.principal.tenantId, body, waits ? ctx.signal : undefined);
    },
  });
}
