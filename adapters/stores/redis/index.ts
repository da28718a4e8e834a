export { createRedisRateLimiter } from './create-redis-rate-limiter.js';
export type { RedisRateLimiterOptions, RedisRateLimiterSettings } from './create-redis-rate-limiter.js';
export type { RedisCallClient, RedisSendCommand } from './send-command.js';
export { createRedisFeedNotifier } from './create-redis-feed-notifier.js';
export type {
  RedisFeedNotifierOptions,
  RedisPubSubClient,
  RedisSubscriberConnection,
} from './create-redis-feed-notifier.js';
