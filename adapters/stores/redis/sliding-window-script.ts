/**
 * Rate-limit decisions, in order, atomically on the Redis server: one for each key, so one call
 * decides a whole batch.
 *
 * KEYS[i] the sorted set of decision i: one member per allowed request, scored by its time (epoch
 * ms). ARGV[1] window ms, ARGV[2] limit, then two per decision: ARGV[2i+1] its now, ARGV[2i+2] a
 * member name unique to its request.
 *
 * Returns one { allowed (1|0), count of allowed requests in the window after this one, the oldest
 * counted time as Redis prints it } per decision, in the order of KEYS. The oldest time goes back as
 * a string so that the caller computes `resetMs` exactly; a Lua number in a reply would be truncated
 * to an integer. A key that is not a sorted set (another program's data under the prefix) answers
 * { -1, 0, Redis's error } for its own decisions, so it fails no other decision of its batch.
 * Refused requests are not added, so they are not counted. A key may come more than
 * once: its later decisions see the earlier ones, as if they had come one by one. It touches its
 * KEYS only, so on Redis Cluster, with keys of one slot, it runs whole on that slot's node.
 */
export const SLIDING_WINDOW_SCRIPT = `
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local outcomes = {}
for i, key in ipairs(KEYS) do
  local at = ARGV[2 * i + 1]
  local removed = redis.pcall('ZREMRANGEBYSCORE', key, '-inf', tonumber(at) - window)
  if type(removed) == 'table' and removed.err then
    outcomes[i] = { -1, 0, removed.err }
  else
    local count = redis.call('ZCARD', key)
    local allowed = 0
    if count < limit then
      redis.call('ZADD', key, at, ARGV[2 * i + 2])
      redis.call('PEXPIRE', key, ARGV[1])
      count = count + 1
      allowed = 1
    end
    local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
    outcomes[i] = { allowed, count, oldest[2] or false }
  end
end
return outcomes
`;
