export { createRedisRateLimiter } from './create-redis-rate-limiter.js';
export type { RedisRateLimiterOptions, RedisRateLimiterSettings } from './create-redis-rate-limiter.js';
export type { RedisCallClient, RedisSendCommand } from './send-command.js';
