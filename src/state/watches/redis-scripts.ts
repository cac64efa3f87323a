/**
 * The Lua scripts of the Redis watch state: each change with the reads it depends on, atomic
 * on the one Redis that every instance shares. A watch is a hash: `json` (the Watch), and
 * `status`, `version`, `expiresAt` apart so the scripts decide on them without decoding JSON.
 * The active watches are in sorted sets scored by expiry (all, and per subject): what is past
 * its expiry is dropped from them before they are counted.
 */

/**
 * KEYS: active, subject, watch. ARGV: now, total, ofSubject, id, expiresAt, json, version,
 * keepUntil. Keeps the watch only if the active watches (in all, on its subject) are still as
 * many as `total` and `ofSubject`, the counts the caller decided on (src/watch/rules.ts
 * refusalAt); -1 keeps it whatever they are (a paid watch). Returns 'ok', 'exists' when a watch
 * is already kept under the id (left as it is), or 'moved' when the counts changed meanwhile.
 */
export const CREATE = `
if redis.call('EXISTS', KEYS[3]) == 1 then return 'exists' end
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local total = tonumber(ARGV[2])
if total >= 0 and (redis.call('ZCARD', KEYS[1]) ~= total or redis.call('ZCARD', KEYS[2]) ~= tonumber(ARGV[3])) then
  return 'moved'
end
redis.call('HSET', KEYS[3], 'json', ARGV[6], 'status', 'active', 'version', ARGV[7], 'expiresAt', ARGV[5])
redis.call('PEXPIREAT', KEYS[3], ARGV[8])
redis.call('ZADD', KEYS[1], ARGV[5], ARGV[4])
redis.call('ZADD', KEYS[2], ARGV[5], ARGV[4])
return 'ok'
`;

/** KEYS: watch, active, subject. ARGV: now, id. Cancels an active watch; returns 1 when it did. */
export const CANCEL = `
local w = redis.call('HMGET', KEYS[1], 'status', 'expiresAt')
if w[1] ~= 'active' or tonumber(w[2]) <= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'status', 'cancelled')
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('ZREM', KEYS[3], ARGV[2])
return 1
`;

/**
 * KEYS: watch, log, delivery, pending set. ARGV: now, version, new watch json, webhookId,
 * delivery json, keep, keepUntil, delivery key prefix. Records the change only if the watch is
 * active, unexpired and still at `version` (compare-and-set); trims the log to `keep`, never
 * dropping a pending delivery's record. Returns 1 when recorded.
 */
export const RECORD_CHANGE = `
local w = redis.call('HMGET', KEYS[1], 'status', 'version', 'expiresAt')
if w[1] ~= 'active' or w[2] ~= ARGV[2] or tonumber(w[3]) <= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'json', ARGV[3], 'version', tonumber(ARGV[2]) + 1)
redis.call('SET', KEYS[3], ARGV[5], 'PXAT', ARGV[7])
redis.call('SADD', KEYS[4], ARGV[4])
redis.call('LPUSH', KEYS[2], ARGV[4])
redis.call('PEXPIREAT', KEYS[2], ARGV[7])
local keep = tonumber(ARGV[6])
for _, old in ipairs(redis.call('LRANGE', KEYS[2], keep, -1)) do
  if redis.call('SISMEMBER', KEYS[4], old) == 0 then redis.call('DEL', ARGV[8] .. old) end
end
redis.call('LTRIM', KEYS[2], 0, keep - 1)
return 1
`;
