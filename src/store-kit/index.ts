/**
 * The store kit: what a store or a rate limiter needs of the core, in one door, for the stores of
 * this package (`channel-webhooks/postgres`, `/sqlite`, `/deno-kv`, `/cloudflare`, `/redis`) and
 * for yours. The ports and their records, the errors and their codes, the limits, the rules every
 * factory checks its options with, deadlines on a backend's promises, the history's folding of a
 * minute's 429s and 415s into one record, the feed's cursors and watchers, and the default error
 * line. Check what you build with the suites of `channel-webhooks/testing`.
 *
 * @example
 * ```ts
 * import { checkOptions, mergeFolded, POST_HISTORY_LIMIT, port, required, type WebhookStore } from 'channel-webhooks/store-kit';
 * ```
 *
 * @module
 */
export type {
  Async,
  Channel,
  FeedEntry,
  FeedNotifier,
  FeedNotifierListener,
  FeedPage,
  FeedStore,
  FieldError,
  ImmediateStoreMethods,
  InsertMessageInput,
  InsertMessageResult,
  LifecycleStore,
  MaybeAsync,
  MaybePromise,
  Message,
  PostHistoryStore,
  PostRecord,
  PostStore,
  RateLimitDecision,
  RateLimiter,
  RateLimiterMethods,
  ReadFeedOptions,
  StoreMethodName,
  StoreMethods,
  StorePort,
  Sync,
  WebhookAuthor,
  WebhookProfileChange,
  WebhookRecord,
  WebhookStore,
} from '../ports.js';
export { ChannelWebhookError, isChannelWebhookError, type ChannelWebhookErrorCode } from '../errors.js';
export { DEFAULT_RATE_LIMIT, DEFAULT_RATE_WINDOW_MS, POST_HISTORY_LIMIT } from '../limits.js';
export {
  BOOLEAN,
  EPOCH_MS,
  HIT_TIME,
  MILLISECONDS,
  POSITIVE_MS,
  checkArgument,
  checkOptions,
  fn,
  integer,
  invalidArgument,
  oneOf,
  port,
  required,
  rule,
  type ArgumentRule,
  type OptionsShape,
} from '../arguments/index.js';
export { MAX_TIMEOUT_MS, settleWithin } from '../waiting/deadline.js';
export { isThenable } from '../waiting/maybe-promise.js';
export { isFolded, mergeFolded, minuteOf } from '../history/post-record.js';
export {
  checkReadFeedOptions,
  cursorExpired,
  formatCursor,
  invalidCursor,
  newEpoch,
  parseCursor,
  type CursorParts,
} from '../feed/cursor.js';
export { createFeedWatchers, type FeedWatchers } from '../feed/watchers.js';
export { createNotifiedFeed, type NotifiedFeed, type NotifiedFeedOptions } from '../feed/notified-feed.js';
export { FEED_NOTIFIER_METHODS } from '../ports.js';
export { copyWebhookRecord } from '../lifecycle/copy-webhook-record.js';
export { createConsoleErrorLog, type FailureContext } from '../reporting/console-error-log.js';
export { systemClock } from '../clock.js';
