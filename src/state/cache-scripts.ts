/**
 * Lua for the Redis CacheStore (API-05 across gateways). Redis holds every entry; each gateway
 * keeps its own vector index and follows changes through one stream.
 *
 *   <prefix>c:e:<id>            hash    t, n (tenant, namespace), v (vector, base64 f32), f (features),
 *                                       fp (fingerprint), r (response), x (expiry, Redis ms); PEXPIRE ttl
 *   <prefix>c:stream            stream  op=put (id t n v f fp x) | del (id t n) | flush (t n); MAXLEN ~
 *   tb = <prefix>c:<len(t)>:<t>:
 *   tb lru                      zset    id -> use order       (CACHE_MAX_ENTRIES, least recent evicted)
 *   tb seq                      string  use counter: the lru score (no clock: uses in one ms still order)
 *   tb exp                      zset    id -> expiry          (expired ids leave lru and the sets)
 *   tb where                    hash    id -> namespace
 *   pb = tb <len(n)>:<n>:
 *   pb ids                      set     ids of the namespace  (flush)
 *   pb fp                       hash    fingerprint -> id     (exact repeats, one per fingerprint)
 *
 * Scripts build keys from these bases (one Redis primary, not Cluster). Numbers are written with
 * string.format: Lua would print an expiry in ms as 1.7637e+12.
 */

const PRELUDE = `
local P, tenant, tb, maxlen = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local stream = P .. 'c:stream'
local lru, texp, where = tb .. 'lru', tb .. 'exp', tb .. 'where'
local tm = redis.call('TIME')
local now = tonumber(tm[1]) * 1000 + math.floor(tonumber(tm[2]) / 1000)
local function int(n) return string.format('%.0f', n) end
local function ekey(id) return P .. 'c:e:' .. id end
local function pbase(ns) return tb .. string.len(ns) .. ':' .. ns .. ':' end

-- forgets an id of this tenant everywhere; true when its entry still existed
local function forget(id, announce)
  local ns = redis.call('HGET', where, id)
  redis.call('ZREM', lru, id)
  redis.call('ZREM', texp, id)
  redis.call('HDEL', where, id)
  local fp = redis.call('HGET', ekey(id), 'fp')
  local existed = redis.call('DEL', ekey(id)) == 1
  if ns then
    local pb = pbase(ns)
    redis.call('SREM', pb .. 'ids', id)
    if fp and redis.call('HGET', pb .. 'fp', fp) == id then redis.call('HDEL', pb .. 'fp', fp) end
    if existed and announce then redis.call('XADD', stream, 'MAXLEN', '~', maxlen, '*', 'op', 'del', 'id', id, 't', tenant, 'n', ns) end
  end
  return existed
end

-- ids whose entry expired (their key is gone already) leave the indexes, a bounded batch per call
local function drop_expired()
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', texp, '-inf', int(now), 'LIMIT', 0, 100)) do forget(id, false) end
end
`;

/**
 * ARGV: prefix, tenant, tenantBase, maxlen, namespace, newId, replaceId|'', fingerprint, vector,
 * features, response, ttlMs, maxEntries. Reply: {id, expiry, gone id, its namespace, ...}: the
 * entries this put removed besides the replaced one (LRU evictions, an older entry with the same
 * fingerprint), so the writing gateway drops them from its mirror at once, before the stream echo.
 */
export const CACHE_PUT = `${PRELUDE}
local ns, new_id, replace_id, fp = ARGV[5], ARGV[6], ARGV[7], ARGV[8]
local vec, feat, resp, ttl, max_entries = ARGV[9], ARGV[10], ARGV[11], tonumber(ARGV[12]), tonumber(ARGV[13])
local pb = pbase(ns)
drop_expired()
local id = false
if replace_id ~= '' then
  local old = redis.call('HMGET', ekey(replace_id), 't', 'n')
  if old[1] == tenant and old[2] == ns then
    id = replace_id
    forget(replace_id, true)
  end
end
local gone = {}
local same = redis.call('HGET', pb .. 'fp', fp)
if same then
  if forget(same, true) then id = id or same end
  if same ~= id then gone[#gone + 1] = same; gone[#gone + 1] = ns end
end
while redis.call('ZCARD', lru) >= max_entries do
  local victim = redis.call('ZRANGE', lru, 0, 0)[1]
  local victim_ns = redis.call('HGET', where, victim)
  forget(victim, true)
  if victim_ns then gone[#gone + 1] = victim; gone[#gone + 1] = victim_ns end
end
id = id or new_id
local x = int(now + ttl)
redis.call('HSET', ekey(id), 't', tenant, 'n', ns, 'v', vec, 'f', feat, 'fp', fp, 'r', resp, 'x', x)
redis.call('PEXPIRE', ekey(id), ttl)
redis.call('HSET', pb .. 'fp', fp, id)
redis.call('SADD', pb .. 'ids', id)
redis.call('ZADD', lru, redis.call('INCR', tb .. 'seq'), id)
redis.call('ZADD', texp, x, id)
redis.call('HSET', where, id, ns)
redis.call('XADD', stream, 'MAXLEN', '~', maxlen, '*', 'op', 'put', 'id', id, 't', tenant, 'n', ns, 'v', vec, 'f', feat, 'fp', fp, 'x', x)
local out = { id, x }
for i = 1, #gone do out[#out + 1] = gone[i] end
return out
`;

/** ARGV: prefix, tenant, tenantBase, maxlen, namespace. Reply: entries that were live. */
export const CACHE_FLUSH = `${PRELUDE}
local ns = ARGV[5]
local pb = pbase(ns)
local n = 0
for _, id in ipairs(redis.call('SMEMBERS', pb .. 'ids')) do
  if redis.call('DEL', ekey(id)) == 1 then n = n + 1 end
  redis.call('ZREM', lru, id)
  redis.call('ZREM', texp, id)
  redis.call('HDEL', where, id)
end
redis.call('DEL', pb .. 'ids', pb .. 'fp')
redis.call('XADD', stream, 'MAXLEN', '~', maxlen, '*', 'op', 'flush', 't', tenant, 'n', ns)
return n
`;

/**
 * ARGV: tenantBase, ids... in order of use. Marks entries as the most recently used of their tenant
 * (hits served from a gateway's mirror, sent in batches without waiting): the score is the tenant's
 * use counter, so uses in one millisecond (or on gateways whose clocks differ) still order. XX: a
 * forgotten id is not brought back.
 */
export const CACHE_TOUCH = `
local tb = ARGV[1]
local lru = tb .. 'lru'
for i = 2, #ARGV do
  if redis.call('ZSCORE', lru, ARGV[i]) ~= false then
    redis.call('ZADD', lru, 'XX', redis.call('INCR', tb .. 'seq'), ARGV[i])
  end
end
return 0
`;

/**
 * Claims a hit whose response the gateway's mirror does not hold yet: the response of one entry, checked against Redis (an entry that expired or was
 * deleted there, e.g. flushed through another gateway, answers nil), marked as the most recently
 * used of its tenant in the same step. The LRU score is the tenant's use counter, so two uses in
 * one millisecond (or on gateways whose clocks differ) still order; XX: a forgotten id is not
 * brought back. ARGV: prefix, tenant, namespace, tenantBase, id.
 */
export const CACHE_CLAIM = `
local P, tenant, ns, tb, id = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local e = redis.call('HMGET', P .. 'c:e:' .. id, 't', 'n', 'r')
if e[1] ~= tenant or e[2] ~= ns then return false end
if redis.call('ZSCORE', tb .. 'lru', id) ~= false then
  redis.call('ZADD', tb .. 'lru', 'XX', redis.call('INCR', tb .. 'seq'), id)
end
return e[3]
`;
