/**
 * UsageStore on Redis: the same contract as MemoryUsageStore (test/helpers/usage-store-suite.ts),
 * shared by every gateway on the same Redis. One hash per subject and month:
 *
 *   <prefix>u:<YYYY-MM>:<subject>   hash  {plan: 9871, 'svc:API-01': 4120, 'free:API-138': 3}
 *                                   expires 35 days after the end of its month (the previous
 *                                   month stays readable for requests that straddle midnight)
 *
 * `take` is one Lua script (check-and-increment of the bucket, increment of the tally, expiry), so
 * two gateways can never both take the last unit. Errors (Redis down, timeout) reject: the
 * gatekeeper answers 503 OVERLOADED or serves uncounted, as QUOTA_FAIL_MODE says.
 */
import type { BurstTake, TakeResult, UsageCharge, UsageStore } from '../auth/usage-store.ts';
import type { LuaScript, RedisConnection } from './redis-connection.ts';
import { burstKeyPrefix, GCRA_LUA, retryAfterSeconds } from './redis-rate-limiter.ts';
import { stateUnavailable } from './unavailable.ts';

/** Check-and-increment of a bucket (+ tally) in the hash `key`; {1, used} granted, {0, used} refused. */
const TAKE_LUA = `
local function take(key, bucket, limit, tally, expire_at)
  local used = tonumber(redis.call('HGET', key, bucket) or '0')
  if used + 1 > tonumber(limit) then return {0, used} end
  redis.call('HINCRBY', key, bucket, 1)
  if tally ~= '' then redis.call('HINCRBY', key, tally, 1) end
  redis.call('EXPIREAT', key, expire_at)
  return {1, used + 1}
end
`;

const TAKE = `${TAKE_LUA}
return take(KEYS[1], ARGV[1], ARGV[2], ARGV[3], ARGV[4])
`;

/**
 * One metered request in one round trip: KEYS = {GCRA state, usage hash}, ARGV = {rps, burst,
 * bucket, limit, tally, expire_at}. {-1, wait_ms} when the burst limit refuses (nothing taken).
 */
const BURST_TAKE = `${GCRA_LUA}${TAKE_LUA}
local wait = gcra(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]))
if wait ~= 0 then return {-1, wait} end
return take(KEYS[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6])
`;

const REFUND = `
for i = 1, #ARGV do
  local n = tonumber(redis.call('HGET', KEYS[1], ARGV[i]) or '0')
  if n == 1 then redis.call('HDEL', KEYS[1], ARGV[i])
  elseif n > 1 then redis.call('HINCRBY', KEYS[1], ARGV[i], -1) end
end
return 0
`;

const KEEP_AFTER_PERIOD_S = 35 * 24 * 3600;
const PERIOD = /^(\d{4})-(\d{2})$/;

/** Unix seconds at which a month's counters may go: 35 days after the month ends. */
export function usageExpiry(period: string): number {
  const m = PERIOD.exec(period);
  if (m === null) throw new RangeError(`period must be YYYY-MM, got ${JSON.stringify(period)}`);
  return Date.UTC(Number(m[1]), Number(m[2]), 1) / 1000 + KEEP_AFTER_PERIOD_S;
}

export class RedisUsageStore implements UsageStore {
  readonly #redis: RedisConnection;
  readonly #take: LuaScript;
  readonly #refund: LuaScript;
  readonly #burstTake: LuaScript;
  readonly #prefix: string;
  readonly #burstPrefix: string;
  readonly #expiry = new Map<string, number>();

  constructor(redis: RedisConnection) {
    this.#redis = redis;
    this.#prefix = `${redis.keyPrefix}u:`;
    this.#take = redis.script('usage-take', TAKE);
    this.#refund = redis.script('usage-refund', REFUND);
    this.#burstTake = redis.script('usage-burst-take', BURST_TAKE);
    this.#burstPrefix = burstKeyPrefix(redis);
  }

  async take(charge: UsageCharge): Promise<TakeResult> {
    const [granted, used] = await this.#redis.eval<[number, number]>(this.#take, [this.#key(charge.period, charge.subject)], [
      charge.bucket,
      charge.limit,
      charge.tally ?? '',
      this.#expiryOf(charge.period),
    ]);
    return { granted: granted === 1, used };
  }

  /** The burst limit (the same GCRA state as RedisRateLimiter) and `take`, in one script. */
  async takeWithBurst(charge: UsageCharge, rps: number): Promise<BurstTake> {
    const [status, value] = await this.#redis.eval<[number, number | string]>(
      this.#burstTake,
      [this.#burstPrefix + charge.subject, this.#key(charge.period, charge.subject)],
      [rps, Math.max(1, rps), charge.bucket, charge.limit, charge.tally ?? '', this.#expiryOf(charge.period)],
    );
    if (status === -1) return { rateLimited: true, retryAfterS: retryAfterSeconds(value), take: null };
    return { rateLimited: false, retryAfterS: 0, take: { granted: status === 1, used: Number(value) } };
  }

  async refund(charge: UsageCharge): Promise<void> {
    const buckets = charge.tally === undefined ? [charge.bucket] : [charge.bucket, charge.tally];
    await this.#redis.eval(this.#refund, [this.#key(charge.period, charge.subject)], buckets);
  }

  async read(period: string, subject: string): Promise<Readonly<Record<string, number>>> {
    let flat: string[] | Record<string, string>;
    try {
      flat = await this.#redis.command<string[] | Record<string, string>>(['HGETALL', this.#key(period, subject)]);
    } catch (err) {
      // GET /v1/usage: 503 OVERLOADED, not 500, while Redis is away.
      throw stateUnavailable(err);
    }
    const out: Record<string, number> = {};
    if (Array.isArray(flat)) for (let i = 0; i + 1 < flat.length; i += 2) out[flat[i]!] = Number(flat[i + 1]);
    else for (const [k, v] of Object.entries(flat)) out[k] = Number(v);
    return out;
  }

  async close(): Promise<void> {
    // The connection belongs to the state backend, which closes it.
  }

  #key(period: string, subject: string): string {
    return `${this.#prefix}${period}:${subject}`;
  }

  #expiryOf(period: string): number {
    let at = this.#expiry.get(period);
    if (at === undefined) {
      at = usageExpiry(period);
      if (this.#expiry.size > 4) this.#expiry.clear();
      this.#expiry.set(period, at);
    }
    return at;
  }
}
