import {
  checkOptions,
  integer,
  port,
  POSITIVE_MS,
  required,
  type Async,
  type Channel,
  type FeedPage,
  type ImmediateStoreMethods,
  type Message,
  type OptionsShape,
  type RateLimiterMethods,
  type ReadFeedOptions,
  type StoreMethods,
} from '../../../src/store-kit/index.js';
import { createRemoteCall } from './object-calls.js';
import { createShardedRateLimiter, createShardedStore } from './sharded-store.js';
import type { DurableObjectNamespaceLike } from './storage-types.js';

/**
 * Options of {@link createDurableObjectStore}.
 *
 * @example
 * ```ts
 * const options: DurableObjectStoreOptions = { namespace: env.CHANNEL_WEBHOOKS };
 * ```
 */
export interface DurableObjectStoreOptions {
  /** The binding of `ChannelWebhooksObject` (`env.CHANNEL_WEBHOOKS`). */
  namespace: DurableObjectNamespaceLike;
  /**
   * How often `watchFeed` calls its listener while watched, in ms. Default 1,000. A worker is told
   * of no write made in an object, so a follower of a channel reads it again at this pace; for
   * live delivery without polling, hear of each message in the object (`onMessage`).
   */
  feedPollMs?: number;
}

/**
 * The Durable Object store as a worker sees it: every method one call to one object, answered with
 * a promise.
 *
 * @example
 * ```ts
 * const store: DurableObjectStore = createDurableObjectStore({ namespace: env.CHANNEL_WEBHOOKS });
 * await store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
 * const messages = await store.listMessages('general');
 * ```
 */
export interface DurableObjectStore extends Async<StoreMethods>, Pick<ImmediateStoreMethods, 'watchFeed'> {
  /** Creates or replaces a channel, in the channel's own object. */
  putChannel(channel: Channel): Promise<void>;
  /** The channel's messages, oldest first. */
  listMessages(channelId: string): Promise<Message[]>;
  /** A new webhook id that names the channel's object (see `ImmediateStoreMethods.newWebhookId`). */
  newWebhookId(channelId: string): string;
  /**
   * One channel's feed, in the order its object stored the messages, never held back. Without
   * `channelId` it throws `feed_unavailable`: each channel is its own object, and no order spans
   * them. Cursors are 16 hex digits and compare as strings; one never given out is `invalid_cursor`.
   */
  readFeed(options: ReadFeedOptions): Promise<FeedPage>;
  /** Calls `listener` at once, then every `feedPollMs` until the returned function is called. */
  watchFeed(listener: () => void): () => void;
  /**
   * Deletes, in the object of each channel of `options.channelIds`, up to `options.limit` (default
   * 1,000) of its oldest messages while they were created before `before` (epoch ms), with their
   * idempotency keys: a retry with a deleted message's key stores a new message, so keep messages
   * longer than any sender retries. An object never deletes its newest message (SQLite would give
   * its number to the next one). A feed cursor before a deleted message then gets `cursor_expired`.
   *
   * No object knows the others, so the store reaches only the objects of the channels given: one
   * call to each (channels that share one count once), all at once, each billed as a Durable
   * Object request and each one transaction that reads at most `limit` rows, so the object's posts
   * wait for one batch at most. Returns how many it deleted in all; call it until it returns 0.
   */
  pruneMessages(before: number, options: DurableObjectPruneOptions): Promise<number>;
}

/**
 * Options of `DurableObjectStore.pruneMessages`.
 *
 * @example
 * ```ts
 * const options: DurableObjectPruneOptions = { channelIds: ['general', 'ops'], limit: 500 };
 * await store.pruneMessages(Date.now() - 30 * 86_400_000, options);
 * ```
 */
export interface DurableObjectPruneOptions {
  /** The channels whose objects to prune: your app's channels (the store has no list of them). */
  channelIds: readonly string[];
  /** The most messages each object deletes in this call. Default 1,000. */
  limit?: number;
}

const NAMESPACE = required(
  port(
    'a Durable Object namespace binding',
    ['idFromName', 'get'],
    'Pass env.CHANNEL_WEBHOOKS, the binding of ChannelWebhooksObject in wrangler.toml.',
  ),
);

/**
 * A {@link channel-webhooks!WebhookStore} over Cloudflare Durable Objects, for a worker: channels,
 * webhooks, messages and idempotency keys live in `ChannelWebhooksObject`s, one object per channel,
 * each in its own SQLite database, and each method is one call to one object (an imported webhook
 * id, not made by `newWebhookId`, costs a second). The guarded insert is one synchronous transaction
 * of the channel's object, which runs one thing at a time: exactly one of N posts racing with one key
 * stores its message, and a revocation, rotation or archival that completed is never followed by a
 * stored message. A failed or unreachable object throws `store_failed`; the handler answers 500 and
 * a retry with the same key stores the message once.
 *
 * Give it to `createWebhookManager` for the management calls: the manager then takes webhook ids from
 * `newWebhookId`, so that the URL alone leads to the channel's object. To serve posts, prefer
 * `createDurableObjectFetchHandler`, which runs the handler inside the object (one call a post);
 * with this store and {@link createDurableObjectRateLimiter} in a worker's own handler a post costs
 * three calls (credentials, rate count, insert).
 *
 * @example
 * ```ts
 * import { createWebhookManager } from 'channel-webhooks';
 * import { createDurableObjectStore } from 'channel-webhooks/cloudflare';
 *
 * const store = createDurableObjectStore({ namespace: env.CHANNEL_WEBHOOKS });
 * await store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
 * const manager = createWebhookManager({ store, baseUrl: 'https://chat.example.com' });
 * const { url } = await manager.create({ userId: 'u1', role: 'member' }, { channelId: 'general', name: 'CI' });
 * ```
 */
export function createDurableObjectStore(options: DurableObjectStoreOptions): DurableObjectStore {
  checkOptions('createDurableObjectStore', options, { namespace: NAMESPACE, feedPollMs: POSITIVE_MS });
  return createShardedStore(createRemoteCall(options.namespace), options.feedPollMs) as DurableObjectStore;
}

/**
 * Options of {@link createDurableObjectRateLimiter}.
 *
 * @example
 * ```ts
 * const options: DurableObjectRateLimiterOptions = { namespace: env.CHANNEL_WEBHOOKS, limit: 30 };
 * ```
 */
export interface DurableObjectRateLimiterOptions {
  /** The binding of `ChannelWebhooksObject` (`env.CHANNEL_WEBHOOKS`). */
  namespace: DurableObjectNamespaceLike;
  /** Allowed requests per key per window. Default 60. */
  limit?: number;
  /** Window length in ms. Default 60,000. */
  windowMs?: number;
}

const LIMITER_OPTIONS: OptionsShape = { namespace: NAMESPACE, limit: integer(1), windowMs: POSITIVE_MS };

/**
 * An exact sliding-window {@link channel-webhooks!RateLimiter} over Cloudflare Durable Objects, for
 * a worker: a key's window lives in the object the key names (a webhook's own object), each decision
 * one synchronous transaction there, so no window of `windowMs` ever holds more than `limit` allowed
 * requests, from any number of isolates. A failed object throws `rate_limiter_failed`.
 *
 * @example
 * ```ts
 * import { createWebhookHandler } from 'channel-webhooks';
 * import { createDurableObjectRateLimiter, createDurableObjectStore } from 'channel-webhooks/cloudflare';
 *
 * const handle = createWebhookHandler({
 *   store: createDurableObjectStore({ namespace: env.CHANNEL_WEBHOOKS }),
 *   rateLimiter: createDurableObjectRateLimiter({ namespace: env.CHANNEL_WEBHOOKS }),
 * });
 * ```
 */
export function createDurableObjectRateLimiter(options: DurableObjectRateLimiterOptions): DurableObjectRateLimiter {
  checkOptions('createDurableObjectRateLimiter', options, LIMITER_OPTIONS);
  return createShardedRateLimiter(
    createRemoteCall(options.namespace),
    options.limit,
    options.windowMs,
  ) as DurableObjectRateLimiter;
}

/**
 * The Durable Object rate limiter: each decision one call to the object of the key.
 *
 * @example
 * ```ts
 * const rateLimiter: DurableObjectRateLimiter = createDurableObjectRateLimiter({ namespace: env.CHANNEL_WEBHOOKS });
 * const { allowed } = await rateLimiter.hit('wh_5kQ2R1rWmH0bV8sYq3XJ9w', Date.now());
 * ```
 */
export interface DurableObjectRateLimiter extends Async<RateLimiterMethods> {}
