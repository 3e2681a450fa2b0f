/**
 * Lua for the Redis LockStore. Every operation is one script, so it is atomic across gateways, and
 * leases run on the Redis server's clock (TIME): gateways with skewed clocks agree on who holds.
 *
 * Keys of one tenant (base = `<prefix>lk:<len(tenant)>:<tenant>:`; the length makes it unambiguous):
 *
 *   base l:<resource>   hash    h (holder), tk (token), ttl, exp (Redis ms)   exists while held
 *   base q:<resource>   list    waiter ids, first come first
 *   base w:<resource>   hash    waiter id -> {s:'W', a, t, d (deadline), since} or, once granted,
 *                               {s:'G', tk, at, since} until its gateway picks it up
 *   base idx            zset    resource -> lease end: what LOCK_MAX_RESOURCES counts, and where
 *                               the sweep finds ended leases
 *   base fence          string  the tenant's token counter, never reset: INCR, but never below
 *                               (Redis ms) x 1000 (as src/services/consensus/fence.ts seeds), so
 *                               a Redis that lost its data, or a promoted replica that missed the
 *                               last increments, still issues tokens above every earlier one
 *                               (as long as fewer than 1000 tokens per ms were issued on average
 *                               and the servers' clocks agree to within the failover time)
 *
 * A script reaches other resources of the tenant (the sweep) through keys it builds from `base`:
 * fine on one Redis primary, which is the deployment this store supports (not Redis Cluster).
 *
 * settle(r) is the heart: an ended lease (released, or past exp) goes to the first waiter whose
 * deadline has not passed, in the same script, so a newcomer can never overtake the queue; with
 * no such waiter the resource is freed. Every script settles the resource it touches first.
 * A grant to a waiter is PUBLISHed (message = the lock key) so the waiter's gateway answers at once.
 *
 * Numbers written to Redis go through string.format: Lua would print a token as 1.7637e+15.
 */

const PRELUDE = `
local base, res, channel = ARGV[1], ARGV[2], ARGV[3]
local idx, fence = base .. 'idx', base .. 'fence'
local tm = redis.call('TIME')
local now = tonumber(tm[1]) * 1000 + tonumber(tm[2]) / 1000
local GC = 15000
local WAIT_KEEP = 25000

local function fmt(n) return string.format('%.3f', n) end
local function int(n) return string.format('%.0f', n) end
local function lkey(r) return base .. 'l:' .. r end
local function qkey(r) return base .. 'q:' .. r end
local function wkey(r) return base .. 'w:' .. r end

-- never below (Redis ms) x 1000: a counter that went back (restart without persistence, failover
-- to a replica that missed the last INCRs) still hands out tokens above every earlier one
local function next_token()
  local floor = math.floor(now) * 1000
  local v = redis.call('INCR', fence)
  if v <= floor then
    v = floor + 1
    redis.call('SET', fence, int(v))
  end
  return int(v)
end

local function lease(r, agent, token, ttl)
  local exp = now + ttl
  local L = lkey(r)
  redis.call('HSET', L, 'h', agent, 'tk', token, 'ttl', int(ttl), 'exp', fmt(exp))
  redis.call('PEXPIRE', L, math.ceil(ttl + GC))
  redis.call('ZADD', idx, fmt(exp), r)
end

local function settle(r)
  local L, Q, W = lkey(r), qkey(r), wkey(r)
  local cur = redis.call('HMGET', L, 'h', 'exp')
  if cur[1] and tonumber(cur[2]) > now then return true end
  while true do
    local id = redis.call('LPOP', Q)
    if not id then break end
    local raw = redis.call('HGET', W, id)
    if raw then
      local w = cjson.decode(raw)
      if w.s == 'W' and tonumber(w.d) > now then
        local tk = next_token()
        lease(r, w.a, tk, tonumber(w.t))
        redis.call('HSET', W, id, cjson.encode({ s = 'G', tk = tk, at = fmt(now), since = w.since }))
        redis.call('PUBLISH', channel, L)
        return true
      end
      redis.call('HDEL', W, id)
    end
  end
  redis.call('DEL', L)
  redis.call('ZREM', idx, r)
  return false
end

local function sweep(budget)
  local ended
  if budget < 0 then ended = redis.call('ZRANGEBYSCORE', idx, '-inf', fmt(now))
  else ended = redis.call('ZRANGEBYSCORE', idx, '-inf', fmt(now), 'LIMIT', 0, budget) end
  for _, r in ipairs(ended) do settle(r) end
end

-- {holder, token, expires_in_ms, waiters}; '' for null (a nil would end a Lua array)
local function view(r)
  local cur = redis.call('HMGET', lkey(r), 'h', 'tk', 'exp')
  local waiters = redis.call('LLEN', qkey(r))
  if not cur[1] then return { '', '', '', waiters } end
  return { cur[1], cur[2], fmt(math.max(0, tonumber(cur[3]) - now)), waiters }
end

-- reply: {kind, reason, token, extra, holder, holder_token, expires_in_ms, waiters}
local function reply(kind, reason, token, extra, v)
  return { kind, reason, token, extra, v[1], v[2], v[3], v[4] }
end
local FREE = { '', '', '', 0 }
`;

/** ARGV: base, resource, channel, agent, ttl, waitMs, token|'', maxResources, maxWaiters, waiterId. */
export const ACQUIRE = `${PRELUDE}
local agent, ttl, wait, token = ARGV[4], tonumber(ARGV[5]), tonumber(ARGV[6]), ARGV[7]
local max_resources, max_waiters, wid = tonumber(ARGV[8]), tonumber(ARGV[9]), ARGV[10]
sweep(4)
if settle(res) then
  local cur = redis.call('HMGET', lkey(res), 'h', 'tk')
  if cur[1] == agent then
    if token == '' then return reply('R', 'HELD_BY_CALLER', '', '', view(res)) end
    if token ~= cur[2] then return reply('R', 'STALE_TOKEN', '', '', view(res)) end
    lease(res, agent, cur[2], ttl)
    return reply('G', '', cur[2], '1', view(res))
  end
  if wait > 0 then
    local Q, W = qkey(res), wkey(res)
    if redis.call('LLEN', Q) >= max_waiters then return reply('R', 'QUEUE_FULL', '', '', view(res)) end
    redis.call('RPUSH', Q, wid)
    redis.call('HSET', W, wid, cjson.encode({ s = 'W', a = agent, t = int(ttl), d = fmt(now + wait), since = fmt(now) }))
    redis.call('PEXPIRE', Q, WAIT_KEEP)
    redis.call('PEXPIRE', W, WAIT_KEEP)
    return reply('W', '', '', '', view(res))
  end
  return reply('R', 'LOCK_HELD', '', '', view(res))
end
if redis.call('ZCARD', idx) >= max_resources then
  sweep(-1)
  if redis.call('ZCARD', idx) >= max_resources then return reply('R', 'RESOURCE_LIMIT', '', '', FREE) end
end
local tk = next_token()
lease(res, agent, tk, ttl)
return reply('G', '', tk, '0', view(res))
`;

/**
 * A waiting acquire asks where it stands. ARGV: base, resource, channel, waiterId, drop ('1': leave
 * the queue unless already granted). kind: G granted (extra = waited ms), T its deadline passed,
 * D dropped, W still waiting.
 */
export const WAITER = `${PRELUDE}
local wid, drop = ARGV[4], ARGV[5] == '1'
settle(res)
local Q, W = qkey(res), wkey(res)
local raw = redis.call('HGET', W, wid)
if not raw then return reply('T', '', '', '', view(res)) end
local w = cjson.decode(raw)
if w.s == 'G' then
  redis.call('HDEL', W, wid)
  return reply('G', '', w.tk, fmt(tonumber(w.at) - tonumber(w.since)), view(res))
end
if drop or tonumber(w.d) <= now then
  redis.call('LREM', Q, 1, wid)
  redis.call('HDEL', W, wid)
  return reply(drop and 'D' or 'T', '', '', '', view(res))
end
return reply('W', '', '', '', view(res))
`;

/** ARGV: base, resource, channel, agent, token, ttl|''. */
export const RENEW = `${PRELUDE}
local agent, token, ttl = ARGV[4], ARGV[5], ARGV[6]
if not settle(res) then return reply('R', 'NOT_HELD', '', '', FREE) end
local cur = redis.call('HMGET', lkey(res), 'h', 'tk', 'ttl')
if cur[2] ~= token then return reply('R', 'STALE_TOKEN', '', '', view(res)) end
if cur[1] ~= agent then return reply('R', 'NOT_HOLDER', '', '', view(res)) end
lease(res, agent, token, tonumber(ttl ~= '' and ttl or cur[3]))
return reply('G', '', token, '', view(res))
`;

/** ARGV: base, resource, channel, agent, token. The next waiter, if any, is granted in the same step. */
export const RELEASE = `${PRELUDE}
local agent, token = ARGV[4], ARGV[5]
if not settle(res) then return reply('R', 'NOT_HELD', '', '', FREE) end
local cur = redis.call('HMGET', lkey(res), 'h', 'tk')
if cur[2] ~= token then return reply('R', 'STALE_TOKEN', '', '', view(res)) end
if cur[1] ~= agent then return reply('R', 'NOT_HOLDER', '', '', view(res)) end
redis.call('HDEL', lkey(res), 'h')
settle(res)
return reply('G', '', '', '', view(res))
`;

/** ARGV: base, resource, channel, token|'' (status: ''). */
export const INSPECT = `${PRELUDE}
local token = ARGV[4]
if not settle(res) then return reply('R', 'NOT_HELD', '', '', FREE) end
local v = view(res)
if token ~= '' and v[2] ~= token then return reply('R', 'STALE_TOKEN', '', '', v) end
return reply('G', '', '', '', v)
`;
