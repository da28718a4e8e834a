export { createWebhookHandler } from './handler/create-webhook-handler.js';
export type { FastPath, WebhookHandler, WebhookHandlerOptions } from './handler/handler-types.js';
export type { ErrorContext, ErrorStage } from './reporting/error-context.js';
export { createWebhookAdapter } from './adapter-kit/index.js';
export type { BodyLimits, WebhookAdapter, WebhookAdapterBinding, WebhookAdapterOptions } from './adapter-kit/index.js';
export { createWebhookManager } from './lifecycle/create-webhook-manager.js';
export type {
  Actor,
  AuditEvent,
  ManagerErrorContext,
  WebhookInfo,
  WebhookManager,
  WebhookManagerOptions,
  WebhookWithUrl,
} from './lifecycle/create-webhook-manager.js';
export { followFeed } from './feed/follow-feed.js';
export type { FollowFeedOptions } from './feed/follow-feed.js';
export { relayMessages } from './feed/relay-messages.js';
export type { RelayMessagesOptions } from './feed/relay-messages.js';
export { FEED_EVENT_HEADERS, feedEventStream } from './feed/feed-events.js';
export type { FeedEventsOptions } from './feed/feed-events.js';
export { createMemoryStore } from './memory/memory-store.js';
export type { MemoryStore } from './memory/memory-store.js';
export { createMemoryRateLimiter } from './memory/memory-rate-limiter.js';
export type { MemoryRateLimiter, MemoryRateLimiterOptions } from './memory/memory-rate-limiter.js';
export { createFakeClock, systemClock } from './clock.js';
export type { FakeClock } from './clock.js';
export { ChannelWebhookError, isChannelWebhookError } from './errors.js';
export type { ChannelWebhookErrorCode } from './errors.js';
export { matchWebhookPath } from './http/route.js';
export { redactWebhookUrl, webhookPathPattern, webhookPathPatternSource } from './http/redact.js';
export type { WebhookPath } from './http/route.js';
export { DEFAULT_RATE_LIMIT, DEFAULT_RATE_WINDOW_MS, MAX_BODY_BYTES, POST_HISTORY_LIMIT } from './limits.js';
export type { BodyReader, HeaderValue, RawBody, WebhookRequest, WebhookResponse } from './http/http-types.js';
export type { FieldError, ProblemBody, ProblemCode } from './http/problem.js';
export { validatePayload } from './validation/check-payload.js';
export type { PayloadCheck, ValidatePayloadOptions } from './validation/check-payload.js';
export type * from './validation/payload-types.js';
export type {
  Async,
  Channel,
  Clock,
  FeedEntry,
  FeedNotifier,
  FeedNotifierListener,
  FeedPage,
  FeedStore,
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
} from './ports.js';
