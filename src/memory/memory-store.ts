import {
  checkReadFeedOptions,
  cursorExpired,
  formatCursor,
  invalidCursor,
  newEpoch,
  parseCursor,
} from '../feed/cursor.js';
import { createFeedWatchers } from '../feed/watchers.js';
import { addToHistory, type HistoryRing, newestRecords, newHistoryRing } from './history-ring.js';
import { handOutWebhook, keepWebhook, type KeptWebhook } from './kept-webhook.js';
import { checkArgument, EPOCH_MS, integer } from '../arguments/index.js';
import type {
  Channel,
  FeedEntry,
  FeedPage,
  ImmediateStoreMethods,
  Message,
  ReadFeedOptions,
  StoreMethods,
  Sync,
  WebhookRecord,
  WebhookStore,
} from '../ports.js';

/**
 * The in-memory store, with the two extra methods of the reference stores. Every method answers
 * synchronously (`await` works on its answers all the same).
 *
 * @example
 * ```ts
 * const store: MemoryStore = createMemoryStore();
 * store.putChannel({ id: 'deploys', ownerId: 'u1', archived: false });
 * const messages = store.listMessages('deploys');
 * ```
 */
export interface MemoryStore extends Sync<StoreMethods>, Pick<ImmediateStoreMethods, 'watchFeed'> {
  /** Creates or replaces a channel (the host app's channels live elsewhere; this seeds them). */
  putChannel(channel: Channel): void;
  /** The channel's messages, oldest first. */
  listMessages(channelId: string): Message[];
  /**
   * The feed (see `WebhookStore.readFeed`). A cursor is the store's epoch, drawn at its first read of the feed,
   * and the message's number: a cursor of another store object, or of this one's process before a
   * restart, gets `cursor_expired`.
   */
  readFeed(options: ReadFeedOptions): FeedPage;
  /** Calls `listener` with the channel of each message this store object stores, right after it stored it. */
  watchFeed(listener: (channelId?: string) => void): () => void;
  /**
   * Deletes up to `limit` (default 1,000) of the messages created before `before` (epoch ms),
   * oldest first, and their idempotency keys with them: a retry with a deleted message's key stores
   * a new message. A feed cursor before a deleted message then gets `cursor_expired`. Returns how
   * many it deleted; call it until it returns less than `limit`.
   */
  pruneMessages(before: number, limit?: number): number;
}

/**
 * A {@link WebhookStore} in this process's memory: the embedded default for one process, examples and
 * tests. Every method does its work synchronously, so the guarded, idempotent insert is atomic: a
 * revocation, rotation or archival that happened before it is always seen, and N concurrent posts
 * with one key store one message and all answer with it. Everything it hands out is frozen, so no
 * caller can change what is stored. It keeps the last 100 post records of each webhook (its
 * history). State lives as long as the store object; nothing is persisted.
 *
 * @example
 * ```ts
 * const store = createMemoryStore();
 * store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
 * const handle = createWebhookHandler({ store });
 * // ... after posts:
 * const messages = store.listMessages('general');
 * ```
 */
export function createMemoryStore(): MemoryStore {
  // Channels are frozen when stored and handed out as they are. A webhook's record changes on every
  // post (its last post's time), so it is kept as one mutable record, updated in place (the time
  // too: see `KeptWebhook`), and handed out as a frozen copy: a copy that is dropped soon costs the
  // garbage collector far less than a new stored record per post that outlives many collections. No
  // caller can change the store through what it was given.
  const channels = new Map<string, Readonly<Channel>>();
  const webhooks = new Map<string, KeptWebhook>();
  const messagesByChannel = new Map<string, Message[]>();
  // Keyed by webhook id, then idempotency key: keys are scoped to their webhook.
  const messagesByKey = new Map<string, Map<string, Message>>();
  // Each webhook's history is kept on its record (see `HistoryRing`), not in a map of its own:
  // here only the history of an id the store holds no webhook for, which the port allows.
  const unheldHistories = new Map<string, HistoryRing>();
  // One string per channel id, shared by the webhooks of the channel, rather than a copy in each.
  const channelIds = new Map<string, string>();
  // The feed: every kept message in the order stored, with its number beside it, and per channel
  // the numbers of its messages beside `messagesByChannel`'s list (a small integer each, rather
  // than an entry object per message). `prunedThrough` is the highest number pruned.
  // Drawn on the first read of the feed, not here: Cloudflare Workers refuse random values in a
  // module's global scope, where an app may create its store.
  let drawnEpoch: string | undefined;
  const epochOf = (): string => (drawnEpoch ??= newEpoch());
  const feed: Message[] = [];
  const feedNumbers: number[] = [];
  const numbersByChannel = new Map<string, number[]>();
  let lastNumber = 0;
  let prunedThrough = 0;
  const watchers = createFeedWatchers();
  const entriesAfter = (numbers: number[], messages: Message[], last: number, limit: number): FeedEntry[] => {
    const entries: FeedEntry[] = [];
    for (let i = firstAfter(numbers, last); i < numbers.length && entries.length < limit; i++) {
      entries.push({ cursor: formatCursor(epochOf(), numbers[i]!), message: messages[i]! });
    }
    return entries;
  };

  return {
    putChannel(channel) {
      channels.set(channel.id, Object.freeze({ id: channel.id, ownerId: channel.ownerId, archived: channel.archived }));
    },
    listMessages(channelId) {
      return [...(messagesByChannel.get(channelId) ?? [])];
    },
    getChannel(channelId) {
      return channels.get(channelId) ?? null;
    },
    insertWebhook(webhook) {
      if (webhooks.has(webhook.id)) throw new Error(`a webhook with id ${webhook.id} already exists`);
      const channelId = channelIds.get(webhook.channelId) ?? webhook.channelId;
      channelIds.set(channelId, channelId);
      const kept = keepWebhook(webhook, channelId);
      kept.history = unheldHistories.get(webhook.id) ?? null;
      unheldHistories.delete(webhook.id);
      webhooks.set(webhook.id, kept);
    },
    getWebhook(webhookId) {
      const webhook = webhooks.get(webhookId);
      return webhook === undefined ? null : handOutWebhook(webhook);
    },
    listWebhooks(channelId) {
      const found: WebhookRecord[] = [];
      for (const webhook of webhooks.values()) if (webhook.channelId === channelId) found.push(handOutWebhook(webhook));
      // The port promises oldest first, whatever order the webhooks were inserted in (stable on ties).
      return found.sort((a, b) => a.createdAt - b.createdAt);
    },
    updateWebhookSecret(webhookId, secretHash, rotatedAt) {
      const webhook = webhooks.get(webhookId);
      if (webhook === undefined || webhook.revokedAt !== null) return null;
      webhook.secretHash = secretHash;
      webhook.rotatedAt = rotatedAt;
      return handOutWebhook(webhook);
    },
    revokeWebhook(webhookId, revokedAt) {
      const webhook = webhooks.get(webhookId);
      if (webhook === undefined) return null;
      if (webhook.revokedAt === null) webhook.revokedAt = revokedAt;
      return handOutWebhook(webhook);
    },
    updateWebhookProfile(webhookId, change) {
      const webhook = webhooks.get(webhookId);
      if (webhook === undefined || webhook.revokedAt !== null) return null;
      if (change.description !== undefined) webhook.description = change.description;
      if (change.avatarUrl !== undefined) webhook.avatarUrl = change.avatarUrl;
      return handOutWebhook(webhook);
    },
    insertMessage({ message, idempotencyKey, secretHash, postedAt }) {
      const webhookId = message.author.id;
      const webhook = webhooks.get(webhookId);
      if (webhook === undefined || webhook.revokedAt !== null || webhook.secretHash !== secretHash)
        return { outcome: 'webhook_inactive' };
      const channel = channels.get(webhook.channelId);
      if (channel === undefined) return { outcome: 'channel_not_found' };
      if (channel.archived) return { outcome: 'channel_archived' };
      let keys: Map<string, Message> | undefined;
      if (idempotencyKey !== null) {
        keys = messagesByKey.get(webhookId);
        const earlier = keys?.get(idempotencyKey);
        if (earlier !== undefined) return { outcome: 'duplicate', message: earlier };
      }
      const stored = freezeMessage(message);
      const list = messagesByChannel.get(stored.channelId);
      const number = ++lastNumber;
      feed.push(stored);
      feedNumbers.push(number);
      if (list === undefined) {
        messagesByChannel.set(stored.channelId, [stored]);
        numbersByChannel.set(stored.channelId, [number]);
      } else {
        list.push(stored);
        numbersByChannel.get(stored.channelId)!.push(number);
      }
      if (idempotencyKey !== null) {
        if (keys === undefined) messagesByKey.set(webhookId, new Map([[idempotencyKey, stored]]));
        else keys.set(idempotencyKey, stored);
      }
      webhook.lastPostTime = postedAt;
      watchers.notify(stored.channelId);
      return { outcome: 'created', message: stored };
    },
    recordPosts(records) {
      // One record after the other: a 415 or 429 finds the record of its minute in the ring even when
      // an earlier record of this very batch put it there.
      for (const record of records) {
        const webhook = webhooks.get(record.webhookId);
        let ring = webhook === undefined ? unheldHistories.get(record.webhookId) : webhook.history;
        if (ring === undefined || ring === null) {
          ring = newHistoryRing();
          if (webhook === undefined) unheldHistories.set(record.webhookId, ring);
          else webhook.history = ring;
        }
        addToHistory(ring, record);
      }
    },
    listPosts(webhookId, limit) {
      const ring = webhooks.get(webhookId)?.history ?? unheldHistories.get(webhookId);
      return ring === undefined ? [] : newestRecords(ring, webhookId, limit);
    },
    readFeed(options) {
      checkReadFeedOptions('memory store', options);
      const { channelId, after, limit } = options;
      let last = 0;
      if (after !== undefined) {
        const parsed = parseCursor(after, 1);
        if (parsed === null) throw invalidCursor('memory store', after);
        if (parsed.epoch !== epochOf())
          throw cursorExpired('memory store', 'it comes from another store object or an earlier process');
        last = Number(parsed.positions[0]!);
        if (last < prunedThrough) throw cursorExpired('memory store', 'messages after it were pruned');
      }
      const entries =
        channelId === undefined
          ? entriesAfter(feedNumbers, feed, last, limit)
          : entriesAfter(numbersByChannel.get(channelId) ?? [], messagesByChannel.get(channelId) ?? [], last, limit);
      return { entries, heldBack: false };
    },
    watchFeed: (listener) => watchers.watch(listener),
    pruneMessages(before, limit = 1_000) {
      checkArgument('MemoryStore.pruneMessages', 'before', before, EPOCH_MS);
      checkArgument('MemoryStore.pruneMessages', 'limit', limit, integer(1));
      const pruned = new Set<Message>();
      for (let i = 0; i < feed.length && pruned.size < limit; i++) {
        if (Date.parse(feed[i]!.createdAt) < before) {
          pruned.add(feed[i]!);
          prunedThrough = Math.max(prunedThrough, feedNumbers[i]!);
        }
      }
      if (pruned.size === 0) return 0;
      keep(feed, feedNumbers, pruned);
      const webhooks = new Set<string>();
      for (const message of pruned) {
        webhooks.add(message.author.id);
        const list = messagesByChannel.get(message.channelId);
        if (list === undefined) continue;
        keep(list, numbersByChannel.get(message.channelId)!, pruned);
        if (list.length === 0) {
          messagesByChannel.delete(message.channelId);
          numbersByChannel.delete(message.channelId);
        }
      }
      for (const webhookId of webhooks) {
        const keys = messagesByKey.get(webhookId);
        if (keys === undefined) continue;
        for (const [key, message] of keys) if (pruned.has(message)) keys.delete(key);
        if (keys.size === 0) messagesByKey.delete(webhookId);
      }
      return pruned.size;
    },
  };
}

/** Removes from `messages`, and from `numbers` beside it, the messages in `pruned`, in place. */
function keep(messages: Message[], numbers: number[], pruned: Set<Message>): void {
  let kept = 0;
  for (let i = 0; i < messages.length; i++) {
    if (pruned.has(messages[i]!)) continue;
    messages[kept] = messages[i]!;
    numbers[kept++] = numbers[i]!;
  }
  messages.length = kept;
  numbers.length = kept;
}

/** The index of the first number in `numbers` (ascending) greater than `last`. */
function firstAfter(numbers: number[], last: number): number {
  let low = 0;
  let high = numbers.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (numbers[middle]! <= last) low = middle + 1;
    else high = middle;
  }
  return low;
}

// A message's own fields are strings but for two: only those two need a walk.
function freezeMessage(message: Message): Message {
  Object.freeze(message.author);
  deepFreeze(message.blocks);
  return Object.freeze(message);
}

// Stored messages are handed to the sender, to `onMessage` and to `listMessages` callers: none of
// them may change what a later duplicate answer returns. Blocks are plain JSON, so the walk ends.
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}
