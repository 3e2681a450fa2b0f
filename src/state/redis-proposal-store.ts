/**
 * ProposalStore on Redis (API-21 votes across gateways): the same contract as MemoryProposalStore,
 * one Lua script per vote (check, count, decide), so the first value to reach the quorum is
 * decided exactly once, whichever gateway the votes arrive on, and never changes.
 *
 * Keys (base = `<prefix>pr:<len(tenant)>:<tenant>:`):
 *
 *   base p:<id>     hash  needed, qk (quorum key), ek (electorate key), esz, exp,
 *                         dv/de/df (decided value key, epoch, votes for) once decided
 *   base v:<id>     hash  agent -> value key of its first vote
 *   base t:<id>     hash  value key -> votes
 *   base o:<id>     hash  value key -> order of its first vote (ties: first voted first)
 *   base e:<id>     set   the electorate, when the first vote gave one
 *   base idx        zset  proposal id -> expiry (PROPOSAL_MAX counts it; swept by score)
 *   base epoch      string the tenant's epoch counter: INCR, never below (Redis ms) x 1000
 *
 * Every proposal key expires PROPOSAL_TTL_MS after the first vote (Redis clock). Value keys are
 * quorum.ts's valueKey (`s:`, `n:`, `b:` + text), so the value is rebuilt from its key.
 */
import { neededVotes, quorumKey, valueKey, type Scalar } from '../services/consensus/quorum.ts';
import { TALLY_MAX, type ProposalStore, type ProposalView, type VoteInput, type VoteOutcome, type VoteRefusal } from '../services/consensus/store.ts';
import type { LuaScript, RedisConnection } from './redis-connection.ts';
import { stateUnavailable } from './unavailable.ts';

export interface RedisProposalStoreOptions {
  /** PROPOSAL_TTL_MS. */
  readonly ttlMs: number;
  /** PROPOSAL_MAX per tenant. */
  readonly maxProposals: number;
  /** Votes one proposal counts at most; default 1000. */
  readonly maxVoters?: number;
}

const EPOCH_PRELUDE = `
local tm = redis.call('TIME')
local now = tonumber(tm[1]) * 1000 + tonumber(tm[2]) / 1000
-- like lock tokens: never below (Redis ms) x 1000, so epochs keep rising across a data loss
local function next_epoch(key)
  local floor = math.floor(now) * 1000
  local v = redis.call('INCR', key)
  if v <= floor then
    v = floor + 1
    redis.call('SET', key, string.format('%.0f', v))
  end
  return string.format('%.0f', v)
end
`;

/**
 * ARGV: base, id, ttl, maxProposals, maxVoters, agent, valueKey, needed (-1: the quorum cannot
 * work for a new proposal), quorumKey, electorateKey|'', electorate members...
 * Reply: {outcome, reason, needed, esz, votesTotal, dv, de, df, expiresInMs, tally...(key, votes, order)}
 */
const VOTE = `${EPOCH_PRELUDE}
local base, id = ARGV[1], ARGV[2]
local ttl, max_props, max_voters = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local agent, vk, needed, qk, ek = ARGV[6], ARGV[7], tonumber(ARGV[8]), ARGV[9], ARGV[10]
local P, V, T, O, E = base .. 'p:' .. id, base .. 'v:' .. id, base .. 't:' .. id, base .. 'o:' .. id, base .. 'e:' .. id
local idx = base .. 'idx'
redis.call('ZREMRANGEBYSCORE', idx, '-inf', string.format('%.3f', now))
if redis.call('EXISTS', P) == 0 then
  if needed < 0 then return { 'INVALID' } end
  if redis.call('ZCARD', idx) >= max_props then return { 'LIMIT' } end
  local exp = now + ttl
  local esz = ''
  if ek ~= '' then
    for i = 11, #ARGV do redis.call('SADD', E, ARGV[i]) end
    esz = tostring(#ARGV - 10)
    redis.call('PEXPIRE', E, ttl)
  end
  redis.call('HSET', P, 'needed', tostring(needed), 'qk', qk, 'ek', ek, 'esz', esz, 'exp', string.format('%.3f', exp))
  redis.call('PEXPIRE', P, ttl)
  redis.call('ZADD', idx, string.format('%.3f', exp), id)
end
local p = redis.call('HMGET', P, 'needed', 'qk', 'ek', 'esz', 'exp', 'dv')
local reason = ''
if redis.call('HEXISTS', V, agent) == 1 then reason = 'DUPLICATE_VOTE'
elseif p[6] then reason = 'ALREADY_DECIDED'
elseif qk ~= p[2] then reason = 'QUORUM_MISMATCH'
elseif ek ~= '' and ek ~= p[3] then reason = 'ELECTORATE_MISMATCH'
elseif p[4] ~= '' and redis.call('SISMEMBER', E, agent) == 0 then reason = 'NOT_IN_ELECTORATE'
elseif redis.call('HLEN', V) >= max_voters then reason = 'VOTER_LIMIT'
end
local remaining = math.max(1, math.ceil(tonumber(p[5]) - now))
if reason == '' then
  redis.call('HSET', V, agent, vk)
  if redis.call('HEXISTS', O, vk) == 0 then redis.call('HSET', O, vk, redis.call('HLEN', O)) end
  local c = redis.call('HINCRBY', T, vk, 1)
  if c >= tonumber(p[1]) then
    redis.call('HSET', P, 'dv', vk, 'de', next_epoch(base .. 'epoch'), 'df', c)
  end
  redis.call('PEXPIRE', V, remaining)
  redis.call('PEXPIRE', T, remaining)
  redis.call('PEXPIRE', O, remaining)
end
local d = redis.call('HMGET', P, 'dv', 'de', 'df')
local out = { reason == '' and 'OK' or 'NO', reason, p[1], p[4], redis.call('HLEN', V), d[1] or '', d[2] or '', d[3] or '', string.format('%.3f', math.max(0, tonumber(p[5]) - now)) }
local tally = redis.call('HGETALL', T)
for i = 1, #tally, 2 do
  out[#out + 1] = tally[i]
  out[#out + 1] = tally[i + 1]
  out[#out + 1] = redis.call('HGET', O, tally[i])
end
return out
`;

const NEXT_EPOCH = `${EPOCH_PRELUDE}
return next_epoch(KEYS[1])
`;

type VoteReply = string[] & { 4: number };

export class RedisProposalStore implements ProposalStore {
  readonly #redis: RedisConnection;
  readonly #ttlMs: number;
  readonly #maxProposals: number;
  readonly #maxVoters: number;
  readonly #vote: LuaScript;
  readonly #epoch: LuaScript;

  constructor(redis: RedisConnection, options: RedisProposalStoreOptions) {
    if (!(options.ttlMs > 0)) throw new RangeError('ttlMs must be positive');
    if (!Number.isSafeInteger(options.maxProposals) || options.maxProposals < 1) throw new RangeError('maxProposals must be a positive integer');
    const maxVoters = options.maxVoters ?? 1000;
    if (!Number.isSafeInteger(maxVoters) || maxVoters < 1) throw new RangeError('maxVoters must be a positive integer');
    this.#redis = redis;
    this.#ttlMs = options.ttlMs;
    this.#maxProposals = options.maxProposals;
    this.#maxVoters = maxVoters;
    this.#vote = redis.script('proposal-vote', VOTE);
    this.#epoch = redis.script('proposal-epoch', NEXT_EPOCH);
  }

  async vote(tenant: string, input: VoteInput): Promise<VoteOutcome> {
    const electorate = input.electorate === null ? null : [...new Set(input.electorate)].sort();
    let needed = -1;
    let invalid: unknown = null;
    try {
      needed = neededVotes(input.quorum, electorate === null ? null : electorate.length);
    } catch (err) {
      // Only a first vote must have a workable quorum; a later one is compared to the first's.
      invalid = err;
    }
    let r: VoteReply;
    try {
      r = await this.#redis.eval<VoteReply>(this.#vote, [], [
        this.#base(tenant),
        input.proposalId,
        this.#ttlMs,
        this.#maxProposals,
        this.#maxVoters,
        input.agentId,
        valueKey(input.value),
        needed,
        quorumKey(input.quorum),
        electorate === null ? '' : JSON.stringify(electorate),
        ...(electorate ?? []),
      ]);
    } catch (err) {
      throw stateUnavailable(err);
    }
    if (r[0] === 'INVALID') throw invalid;
    if (r[0] === 'LIMIT') return { accepted: false, reason: 'PROPOSAL_LIMIT', proposal: null };
    return { accepted: r[0] === 'OK', reason: r[0] === 'OK' ? null : (r[1] as VoteRefusal), proposal: this.#view(r) };
  }

  async nextEpoch(tenant: string): Promise<number> {
    try {
      return Number(await this.#redis.eval<string>(this.#epoch, [`${this.#base(tenant)}epoch`], []));
    } catch (err) {
      throw stateUnavailable(err);
    }
  }

  async close(): Promise<void> {
    // The connection belongs to the state backend.
  }

  #base(tenant: string): string {
    return `${this.#redis.keyPrefix}pr:${tenant.length}:${tenant}:`;
  }

  /** The same view as MemoryProposalStore's, from the script's reply. */
  #view(r: VoteReply): ProposalView {
    const needed = Number(r[2]);
    const electorateSize = r[3] === '' || r[3] === undefined ? null : Number(r[3]);
    const votesTotal = Number(r[4]);
    const cells: { key: string; votes: number; order: number }[] = [];
    for (let i = 9; i + 2 < r.length; i += 3) cells.push({ key: r[i]!, votes: Number(r[i + 1]), order: Number(r[i + 2]) });
    const ranked = cells.sort((a, b) => b.votes - a.votes || a.order - b.order);
    const top = ranked[0];
    const second = ranked[1];
    const decided = r[5] !== '';
    let status: ProposalView['status'] = 'PENDING';
    if (decided) status = 'DECIDED';
    // Votes still to come cannot lift any value to the quorum (closed electorate, or voter limit).
    else if ((top?.votes ?? 0) + ((electorateSize ?? this.#maxVoters) - votesTotal) < needed) status = 'UNREACHABLE';
    return {
      status,
      decidedValue: decided ? valueOf(r[5]!) : null,
      epoch: decided ? Number(r[6]) : null,
      votesFor: decided ? Number(r[7]) : (top?.votes ?? 0),
      votesTotal,
      needed,
      electorateSize,
      tally: ranked.slice(0, TALLY_MAX).map((c) => ({ value: valueOf(c.key), votes: c.votes })),
      distinctValues: ranked.length,
      tie: !decided && top !== undefined && second !== undefined && top.votes === second.votes,
      expiresInMs: Number(r[8]),
    };
  }
}

/** The inverse of quorum.ts's valueKey. */
export function valueOf(key: string): Scalar {
  const text = key.slice(2);
  if (key.startsWith('s:')) return text;
  if (key.startsWith('n:')) return Number(text);
  return text === 'true';
}
