/**
 * The burst limit (CONTRACT.md §4) on Redis, shared by every gateway: GCRA, the token bucket of
 * src/auth/rate-limiter.ts expressed as one timestamp per subject, run as one Lua script on the
 * Redis clock (so gateways with skewed clocks agree).
 *
 *   <prefix>rl:<subject>  string  TAT, the "theoretical arrival time" in Redis ms; expires when the
 *                                 bucket would be full again (idle callers cost nothing)
 *
 * With emission interval T = 1000 / rps and burst b = max(1, rps): a request at `now` is allowed
 * when max(TAT, now) + T - b*T <= now, and then TAT := max(TAT, now) + T. This is exactly a bucket
 * of b tokens refilled at rps per second: b requests at once, then rps per second.
 */
import type { RateDecision } from '../auth/rate-limiter.ts';
import type { LuaScript, RedisConnection } from './redis-connection.ts';

/**
 * The GCRA step as a Lua function, shared by this limiter's script and the fused metering script
 * of RedisUsageStore (burst check and usage take in one round trip). Returns 0 when allowed, else
 * the wait in ms as a string (a Lua number would be truncated to an integer on the way back).
 */
export const GCRA_LUA = `
local function gcra(key, rps, burst)
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
  local interval = 1000 / rps
  local tat = tonumber(redis.call('GET', key) or '0')
  if tat < now then tat = now end
  local allow_at = tat + interval - burst * interval
  if now < allow_at then return string.format('%.3f', allow_at - now) end
  local new_tat = tat + interval
  redis.call('SET', key, string.format('%.3f', new_tat), 'PX', math.ceil(new_tat - now) + 1000)
  return 0
end
`;

const GCRA = `${GCRA_LUA}
return gcra(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]))
`;

/** The key prefix of a subject's GCRA state, the same for this limiter and the fused script. */
export function burstKeyPrefix(redis: RedisConnection): string {
  return `${redis.keyPrefix}rl:`;
}

/** Seconds a refused caller should wait, from the script's wait in ms. */
export function retryAfterSeconds(waitMs: number | string): number {
  return Math.max(1, Math.ceil(Number(waitMs) / 1000));
}

const ALLOWED: RateDecision = Object.freeze({ allowed: true, retryAfterS: 0 });

export class RedisRateLimiter {
  readonly #redis: RedisConnection;
  readonly #script: LuaScript;
  readonly #prefix: string;

  constructor(redis: RedisConnection) {
    this.#redis = redis;
    this.#prefix = burstKeyPrefix(redis);
    this.#script = redis.script('burst-gcra', GCRA);
  }

  /** Takes one token from `subject`'s bucket refilled at `rps`; `rps` <= 0 means unlimited. */
  async take(subject: string, rps: number): Promise<RateDecision> {
    if (!(rps > 0)) return ALLOWED;
    const r = await this.#redis.eval<number | string>(this.#script, [this.#prefix + subject], [rps, Math.max(1, rps)]);
    if (r === 0) return ALLOWED;
    return { allowed: false, retryAfterS: retryAfterSeconds(r) };
  }
}
