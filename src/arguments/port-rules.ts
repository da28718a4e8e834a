import { type ArgumentRule, EPOCH_MS, fn, port, required } from './argument-rules.js';

/**
 * A store as the handler uses it, on every post.
 */
export const HANDLER_STORE: ArgumentRule = port(
  'a WebhookStore',
  ['getWebhook', 'insertMessage'],
  'Pass createMemoryStore(), createPostgresStore({ pool }) or a store of your own.',
);

/**
 * A store as the manager uses it: every method of `WebhookStore` but the message insert.
 */
export const MANAGER_STORE: ArgumentRule = port(
  'a WebhookStore',
  [
    'getWebhook',
    'getChannel',
    'insertWebhook',
    'listWebhooks',
    'updateWebhookSecret',
    'revokeWebhook',
    'updateWebhookProfile',
  ],
  'Pass createMemoryStore(), createPostgresStore({ pool }) or a store of your own.',
);

/**
 * A rate limiter.
 */
export const RATE_LIMITER: ArgumentRule = port(
  'a RateLimiter',
  ['hit'],
  'Pass createMemoryRateLimiter(), createRedisRateLimiter({ client }) or a limiter of your own.',
);

/**
 * A clock.
 */
export const CLOCK: ArgumentRule = port(
  'a Clock',
  ['now'],
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
 */
export const HIT_TIME: ArgumentRule = required(EPOCH_MS);
