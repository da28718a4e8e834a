/**
 * The ports: the interfaces the core programs against, by who uses them. The handler needs a
 * {@link PostStore}, the manager a {@link LifecycleStore}, the history a {@link PostHistoryStore},
 * followers of the feed a {@link FeedStore}; a {@link WebhookStore} is all of them, the last two
 * optional. Their methods are written once, in {@link StoreMethods}; {@link Sync}, {@link Async} and
 * {@link MaybeAsync} say how a store answers them. The handler also needs a {@link RateLimiter}, and
 * time comes from a {@link Clock}.
 *
 * Every method may be called concurrently, from any number of handlers and processes sharing the
 * same backend. The contracts say what must stay true when they are.
 *
 * @module
 */
export type * from './ports/records.js';
export type { Async, MaybeAsync, MaybePromise, Sync } from './ports/answers.js';
export type { ImmediateStoreMethods, StoreMethodName, StoreMethods, StorePort } from './ports/store-methods.js';
export { POST_STORE_METHODS, type PostStore } from './ports/post-store.js';
export { LIFECYCLE_STORE_METHODS, type LifecycleStore } from './ports/lifecycle-store.js';
export { POST_HISTORY_METHODS, type PostHistoryStore } from './ports/post-history.js';
export {
  FEED_METHODS,
  FEED_NOTIFIER_METHODS,
  type FeedNotifier,
  type FeedNotifierListener,
  type FeedStore,
} from './ports/feed.js';
export type { WebhookStore } from './ports/webhook-store.js';
export {
  RATE_LIMITER_METHODS,
  type RateLimitDecision,
  type RateLimiter,
  type RateLimiterMethods,
} from './ports/rate-limiter.js';
export { CLOCK_METHODS, type Clock } from './ports/clock-port.js';
