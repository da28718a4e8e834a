export { createRedisRateLimiter } from './create-redis-rate-limiter.js';
export type { RedisRateLimiterOptions, RedisScriptClient } from './create-redis-rate-limiter.js';
