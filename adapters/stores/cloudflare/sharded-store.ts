import {
  ChannelWebhookError,
  checkArgument,
  checkOptions,
  DEFAULT_RATE_LIMIT,
  EPOCH_MS,
  integer,
  required,
  rule,
  DEFAULT_RATE_WINDOW_MS,
  isThenable,
  type Channel,
  type FeedPage,
  type ImmediateStoreMethods,
  type InsertMessageInput,
  type InsertMessageResult,
  type MaybeAsync,
  type MaybePromise,
  type Message,
  type PostRecord,
  type RateLimitDecision,
  type RateLimiter,
  type StoreMethods,
  type WebhookProfileChange,
  type WebhookRecord,
} from '../../../src/store-kit/index.js';
import { createRemoteCall, runOperation, type CallShard } from './object-calls.js';
import { parseFeedCursor, type ObjectState, type Operation, type Route } from './object-state.js';
import { channelShard, keyShard, newShardedWebhookId } from './shard.js';
import type { DurableObjectNamespaceLike } from './storage-types.js';

/** The store over the webhook objects, wherever it runs: in the worker, or in one of the objects. */
export interface ShardedStore extends MaybeAsync<StoreMethods>, ImmediateStoreMethods {
  putChannel(channel: Channel): MaybePromise<void>;
  listMessages(channelId: string): MaybePromise<Message[]>;
  pruneMessages(before: number, options: PruneOptions): MaybePromise<number>;
}

/** Which objects a prune reaches (those of the channels), and how much each deletes. */
export interface PruneOptions {
  channelIds: readonly string[];
  limit?: number;
}

const PRUNE_OPTIONS = {
  channelIds: required(
    rule('an array of channel ids', (value) => Array.isArray(value) && value.every((id) => typeof id === 'string')),
  ),
  limit: integer(1),
};

/**
 * The store's methods as calls to the objects that hold their data: a channel's own object (its
 * shard) for the channel, its webhooks, their messages and the guarded insert; for a webhook id, the
 * object the id names, which answers or, for an imported id, gives the shard to ask next.
 */
export function createShardedStore(call: CallShard, feedPollMs = 1_000): ShardedStore {
  const onChannel = <T>(channelId: string, operation: Operation, args: readonly unknown[]) =>
    call(channelShard(channelId), operation, args) as MaybePromise<T>;
  const onWebhook = <T>(webhookId: string, operation: Operation, args: readonly unknown[]): MaybePromise<T> =>
    then(call(keyShard(webhookId), operation, args) as MaybePromise<T | Route>, (answer) =>
      isRoute(answer) ? (call(answer.routedTo, operation, args) as MaybePromise<T>) : answer,
    );

  return {
    putChannel: (channel) => done(onChannel(channel.id, 'putChannel', [channel])),
    getChannel: (channelId) => onChannel<Channel | null>(channelId, 'getChannel', [channelId]),
    listMessages: (channelId) => onChannel<Message[]>(channelId, 'listMessages', [channelId]),
    listWebhooks: (channelId) => onChannel<WebhookRecord[]>(channelId, 'listWebhooks', [channelId]),
    newWebhookId: newShardedWebhookId,

    insertWebhook(webhook) {
      const home = channelShard(webhook.channelId);
      const named = keyShard(webhook.id);
      if (named === home) return done(call(home, 'insertWebhook', [webhook]));
      // An id from elsewhere: its own object keeps the way to the channel's first, so that no
      // webhook is ever stored that its id cannot find.
      return then(call(named, 'claimRoute', [webhook.id, home]), () => done(call(home, 'insertWebhook', [webhook])));
    },

    getWebhook: (webhookId) => onWebhook<WebhookRecord | null>(webhookId, 'getWebhook', [webhookId]),
    updateWebhookSecret: (webhookId, secretHash, rotatedAt) =>
      onWebhook(webhookId, 'updateWebhookSecret', [webhookId, secretHash, rotatedAt]),
    revokeWebhook: (webhookId, revokedAt) => onWebhook(webhookId, 'revokeWebhook', [webhookId, revokedAt]),
    updateWebhookProfile: (webhookId, change: WebhookProfileChange) =>
      onWebhook(webhookId, 'updateWebhookProfile', [webhookId, change]),
    insertMessage: (input: InsertMessageInput) =>
      onChannel<InsertMessageResult>(input.message.channelId, 'insertMessage', [input]),

    recordPosts(records) {
      const byShard = new Map<string, PostRecord[]>();
      for (const record of records) {
        const shard = keyShard(record.webhookId);
        byShard.set(shard, [...(byShard.get(shard) ?? []), record]);
      }
      const calls = [...byShard].map(([shard, batch]) => call(shard, 'recordPosts', [batch]));
      return calls.some(isThenable) ? Promise.all(calls).then(() => undefined) : undefined;
    },

    // No process of a worker outlives its request, and no object can tell a worker of its writes:
    // while watched, the listener is called every feedPollMs, and a reader reads its channel again.
    watchFeed(listener) {
      queueMicrotask(() => listener());
      const timer = setInterval(() => listener(), feedPollMs);
      return () => clearInterval(timer);
    },

    listPosts: (webhookId, limit) =>
      call(keyShard(webhookId), 'listPosts', [webhookId, limit]) as MaybePromise<PostRecord[]>,

    readFeed(options) {
      if (options.channelId === undefined) {
        if (options.after !== undefined) parseFeedCursor(options.after);
        throw new ChannelWebhookError(
          'feed_unavailable',
          'Durable Object store: readFeed needs a channelId: each channel is kept by its own object, so there is no feed of every channel in one order',
        );
      }
      return onChannel<FeedPage>(options.channelId, 'readFeed', [options]);
    },

    // Channels that share a shard share an object, and one call prunes it.
    pruneMessages(before, options) {
      checkArgument('DurableObjectStore.pruneMessages', 'before', before, EPOCH_MS);
      checkOptions('DurableObjectStore.pruneMessages', options, PRUNE_OPTIONS);
      const shards = new Set(options.channelIds.map(channelShard));
      const counts = [...shards].map((shard) => call(shard, 'pruneMessages', [before, options.limit ?? 1_000]));
      const total = (values: unknown[]) => values.reduce<number>((sum, count) => sum + Number(count), 0);
      return counts.some(isThenable) ? Promise.all(counts).then(total) : total(counts);
    },
  };
}

/** A rate limiter whose windows live in the object each key names (a webhook's own object). */
export function createShardedRateLimiter(
  call: CallShard,
  limit = DEFAULT_RATE_LIMIT,
  windowMs = DEFAULT_RATE_WINDOW_MS,
): RateLimiter {
  return {
    hit: (key, now) => call(keyShard(key), 'hit', [key, now, limit, windowMs]) as MaybePromise<RateLimitDecision>,
  };
}

/**
 * The store and the limiter of a handler that runs in the object of `shard`: this object's own
 * operations are synchronous calls of `state`, and only an imported webhook id (whose channel lives
 * in another object) costs a call to another, through the namespace `namespace()` gives.
 */
export function createObjectPorts(
  state: ObjectState,
  shard: string,
  namespace: () => DurableObjectNamespaceLike,
): { store: ShardedStore; rateLimiter: RateLimiter } {
  let remote: CallShard | null = null;
  const call: CallShard = (target, operation, args) => {
    if (target === shard) return runOperation(state, operation, args);
    remote ??= createRemoteCall(namespace());
    return remote(target, operation, args);
  };
  return { store: createShardedStore(call), rateLimiter: createShardedRateLimiter(call) };
}

function isRoute(answer: unknown): answer is Route {
  return typeof answer === 'object' && answer !== null && typeof (answer as Route).routedTo === 'string';
}

function then<T, U>(value: MaybePromise<T>, next: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return isThenable(value) ? Promise.resolve(value).then(next) : next(value);
}

function done(value: unknown): MaybePromise<void> {
  return isThenable(value) ? Promise.resolve(value).then(() => undefined) : undefined;
}
