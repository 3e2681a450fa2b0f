/**
 * API-21 request and response schemas: one body shape for every `operation`, each field with its
 * bounds. The edge validator checks types and bounds (and refuses an unknown operation with
 * VALIDATION_FAILED); which fields an operation requires is checked by `requireFields` in core.ts.
 */
import { Type, type Static } from '@sinclair/typebox';

export const OPERATIONS = ['acquire', 'renew', 'release', 'status', 'validate', 'vote', 'decide'] as const;
export type Operation = (typeof OPERATIONS)[number];

/** Bounds of the contract decisions documented in docs/api-21-consensus.md. */
export const LIMITS = {
  resourceMaxChars: 256,
  agentIdMaxChars: 128,
  proposalIdMaxChars: 256,
  valueMaxChars: 1024,
  ttlMinMs: 100,
  ttlMaxMs: 600_000,
  ttlDefaultMs: 30_000,
  /** Below SHUTDOWN_TIMEOUT_MS's default, so a draining gateway never cuts a wait short. */
  waitMaxMs: 10_000,
  waitersPerResource: 256,
  votersPerProposal: 1000,
  decideVotesMax: 1000,
  weightMax: 1e9,
  quorumWeightMax: 1e12,
  /** Smallest fraction, weight or weight quorum: "greater than 0" for all practical purposes. */
  positiveMin: 1e-9,
} as const;

const Resource = Type.String({ minLength: 1, maxLength: LIMITS.resourceMaxChars, description: 'Lock name (acquire, renew, release, status, validate)' });
const AgentId = Type.String({ minLength: 1, maxLength: LIMITS.agentIdMaxChars, description: 'Caller identity; unique per agent instance' });
const Token = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'A fencing token returned by acquire' });
const Value = Type.Union([Type.String({ maxLength: LIMITS.valueMaxChars }), Type.Number(), Type.Boolean()], {
  description: 'A vote value: string, number or boolean (1, "1" and true are different values)',
});
// `minimum` rather than `exclusiveMinimum: 0`: OpenAPI 3.0 has no numeric exclusiveMinimum.
const Fraction = Type.Object({ fraction: Type.Number({ minimum: LIMITS.positiveMin, maximum: 1 }) }, { additionalProperties: false });
const Quorum = Type.Union([Type.Number({ minimum: LIMITS.positiveMin, maximum: LIMITS.quorumWeightMax }), Fraction], {
  description: 'A count (vote: an integer number of votes; decide: a total weight) or {"fraction": f} of the electorate (0 < f <= 1)',
});
const Electorate = Type.Array(AgentId, {
  minItems: 1,
  maxItems: LIMITS.votersPerProposal,
  uniqueItems: true,
  description: 'Agents allowed to vote (vote: fixed by the first vote of a proposal)',
});

export const DecideVote = Type.Object({
  agent_id: AgentId,
  value: Value,
  weight: Type.Optional(Type.Number({ minimum: LIMITS.positiveMin, maximum: LIMITS.weightMax, description: 'Default 1' })),
});

export const ConsensusRequest = Type.Object(
  {
    operation: Type.Union(
      OPERATIONS.map((op) => Type.Literal(op)),
      { description: 'acquire, renew, release, status, validate (locks); vote, decide (consensus)' },
    ),
    resource: Type.Optional(Resource),
    agent_id: Type.Optional(AgentId),
    ttl_ms: Type.Optional(
      Type.Integer({ minimum: LIMITS.ttlMinMs, maximum: LIMITS.ttlMaxMs, description: `Lease length (acquire default ${LIMITS.ttlDefaultMs}; renew default: the lease's own)` }),
    ),
    wait_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: LIMITS.waitMaxMs, description: 'acquire: queue (FIFO) this long for a held lock; default 0' })),
    fencing_token: Type.Optional(Token),
    proposal_id: Type.Optional(Type.String({ minLength: 1, maxLength: LIMITS.proposalIdMaxChars })),
    value: Type.Optional(Value),
    quorum: Type.Optional(Quorum),
    electorate: Type.Optional(Electorate),
    votes: Type.Optional(Type.Array(DecideVote, { minItems: 1, maxItems: LIMITS.decideVotesMax, description: 'decide: every vote; an agent_id counts once (its first vote)' })),
  },
  {
    description: 'API-21 consensus and lock arbiter; `operation` selects the action',
    examples: [
      { operation: 'acquire', resource: 'orders-db', agent_id: 'agent-7f3a', ttl_ms: 5000 },
      { operation: 'status', resource: 'orders-db' },
      { operation: 'validate', resource: 'orders-db', fencing_token: 42 },
      { operation: 'renew', resource: 'orders-db', agent_id: 'agent-7f3a', fencing_token: 42, ttl_ms: 5000 },
      { operation: 'release', resource: 'orders-db', agent_id: 'agent-7f3a', fencing_token: 42 },
      { operation: 'vote', proposal_id: 'deploy-v2', agent_id: 'agent-7f3a', value: 'approve', quorum: { fraction: 0.6 }, electorate: ['agent-7f3a', 'agent-19c2', 'agent-a001'] },
      { operation: 'decide', quorum: { fraction: 0.5 }, votes: [{ agent_id: 'a', value: 'blue', weight: 2 }, { agent_id: 'b', value: 'green' }] },
    ],
  },
);
export type ConsensusRequest = Static<typeof ConsensusRequest>;

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const NullableInt = Type.Union([Type.Integer(), Type.Null()]);
const NullableNumber = Type.Union([Type.Number(), Type.Null()]);
// Each branch nullable on its own: OpenAPI 3.0 wants `nullable` next to a `type`.
const NullableValue = Type.Union([Type.Union([Type.String(), Type.Null()]), Type.Union([Type.Number(), Type.Null()]), Type.Union([Type.Boolean(), Type.Null()])]);
const Tally = Type.Array(Type.Object({ value: Value, votes: Type.Number() }), { description: 'Values by votes (or weight), most first, at most 20' });

/** Every field any operation answers; which ones appear is listed per operation in the docs. */
export const ConsensusResponse = Type.Object({
  operation: Type.String(),
  resource: Type.Optional(Type.String()),
  granted: Type.Optional(Type.Boolean({ description: 'acquire, renew, release: the request was carried out' })),
  released: Type.Optional(Type.Boolean()),
  valid: Type.Optional(Type.Boolean({ description: 'validate: the token is the current token of a live lease' })),
  held: Type.Optional(Type.Boolean()),
  reason: Type.Optional(Nullable(Type.String({ description: 'Why a lock request was refused or a vote ignored; null otherwise' }))),
  fencing_token: Type.Optional(NullableInt),
  current_token: Type.Optional(NullableInt),
  holder: Type.Optional(Nullable(Type.String())),
  expires_at: Type.Optional(Nullable(Type.String({ format: 'date-time', description: 'Wall-clock estimate of the lease end (the lease itself runs on a monotonic clock)' }))),
  expires_in_ms: Type.Optional(NullableNumber),
  renewed: Type.Optional(Type.Boolean()),
  waited_ms: Type.Optional(Type.Number()),
  waiters: Type.Optional(Type.Integer()),
  proposal_id: Type.Optional(Type.String()),
  status: Type.Optional(Type.String({ description: 'vote: PENDING, DECIDED, UNREACHABLE or NOT_STORED; decide: DECIDED, NO_QUORUM or TIE' })),
  consensus_verified: Type.Optional(Type.Boolean()),
  decided_value: Type.Optional(NullableValue),
  votes_for: Type.Optional(Type.Number()),
  votes_total: Type.Optional(Type.Number()),
  quorum: Type.Optional(NullableNumber),
  epoch: Type.Optional(NullableInt),
  vote_accepted: Type.Optional(Type.Boolean()),
  tie: Type.Optional(Type.Boolean()),
  tally: Type.Optional(Tally),
  distinct_values: Type.Optional(Type.Integer()),
  electorate_size: Type.Optional(NullableInt),
  ignored_votes: Type.Optional(Type.Integer()),
});
