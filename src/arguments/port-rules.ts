import { CLOCK_METHODS, LIFECYCLE_STORE_METHODS, POST_STORE_METHODS, RATE_LIMITER_METHODS } from '../ports.js';
import { type ArgumentRule, EPOCH_MS, fn, port, required } from './argument-rules.js';

/**
 * A store as the handler uses it, on every post: a `PostStore`.
 */
export const HANDLER_STORE: ArgumentRule = port(
  'a WebhookStore',
  POST_STORE_METHODS,
  'Pass createMemoryStore(), createPostgresStore({ pool }) or a store of your own.',
);

/**
 * A store as the manager uses it: a `LifecycleStore`.
 */
export const MANAGER_STORE: ArgumentRule = port(
  'a WebhookStore',
  LIFECYCLE_STORE_METHODS,
  'Pass createMemoryStore(), createPostgresStore({ pool }) or a store of your own.',
);

/**
 * A rate limiter.
 */
export const RATE_LIMITER: ArgumentRule = port(
  'a RateLimiter',
  RATE_LIMITER_METHODS,
  'Pass createMemoryRateLimiter(), createRedisRateLimiter({ client }) or a limiter of your own.',
);

/**
 * A clock.
 */
export const CLOCK: ArgumentRule = port(
  'a Clock',
  CLOCK_METHODS,
  'Pass systemClock, createFakeClock() or { now: () => epochMs }.',
);

/**
 * The handler an adapter factory is built on.
 */
export const HANDLE: ArgumentRule = fn(
  'the handler from createWebhookHandler()',
  'Pass createWebhookHandler({ store }).',
);

/**
 * The time a rate limiter's `hit` is given. Every limiter of this library refuses one that is not
 * a finite number of epoch ms (a clock returning `NaN`, say) with code `invalid_argument`, rather
 * than count a request at a time no window comparison can place.
 *
 * @example
 * ```ts
 * hit(key, now) {
 *   checkArgument('MyRateLimiter.hit', 'now', now, HIT_TIME);
 *   // …
 * }
 * ```
 */
export const HIT_TIME: ArgumentRule = required(EPOCH_MS);
