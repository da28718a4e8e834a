/**
 * One rate-limit decision, atomically on the Redis server.
 *
 * KEYS[1] the key's sorted set: one member per allowed request, scored by its time (epoch ms).
 * ARGV[1] now, ARGV[2] window ms, ARGV[3] limit, ARGV[4] a member name unique to this request.
 *
 * Returns { allowed (1|0), count of allowed requests in the window after this one, the oldest
 * counted time as Redis prints it }. The oldest time goes back as a string so that the caller
 * computes `resetMs` exactly; a Lua number in a reply would be truncated to an integer.
 * Refused requests are not added, so they are not counted. It touches KEYS[1] only, so on Redis
 * Cluster it runs whole on that key's node and never spans slots.
 */
export const SLIDING_WINDOW_SCRIPT = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
local allowed = 0
if count < limit then
  redis.call('ZADD', key, ARGV[1], ARGV[4])
  redis.call('PEXPIRE', key, ARGV[2])
  count = count + 1
  allowed = 1
end
local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
return { allowed, count, oldest[2] or false }
`;
