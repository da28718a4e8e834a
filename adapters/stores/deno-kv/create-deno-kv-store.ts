import {
  ChannelWebhookError,
  copyWebhookRecord,
  type Async,
  type Channel,
  type ImmediateStoreMethods,
  type InsertMessageResult,
  type Message,
  type StoreMethods,
  type WebhookRecord,
  type WebhookStore,
} from '../../../src/store-kit/index.js';
import type { DenoKvEntry } from './deno-kv.js';
import { readFeedPage, watchFeedHead } from './feed.js';
import { getAll, readFrames, setFrames, toFrames } from './frames.js';
import { keyLayout } from './key-layout.js';
import { createKvRunner, type KvParty, LOST_RACE } from './kv-runner.js';
import { layoutVersion } from './layout-version.js';
import { FEED_POLL_MS, resolveDenoKvOptions, type DenoKvConnectionOptions } from './options.js';
import { createPostHistory } from './post-history.js';

/**
 * Options of {@link createDenoKvStore}: the shared ones (see {@link DenoKvConnectionOptions}) and
 * how the feed is watched.
 *
 * @example
 * ```ts
 * const options: DenoKvStoreOptions = { kv: await Deno.openKv(), feedPollMs: 0 };
 * ```
 */
export interface DenoKvStoreOptions extends DenoKvConnectionOptions {
  /**
   * `watchFeed` follows the feed with `kv.watch`, which sees every commit to a KV on Deno Deploy and
   * every commit of this process to a local file, but not commits of other processes to that file;
   * so a watcher also reads the feed's head every `feedPollMs`. `0` turns that off (on Deno Deploy,
   * or with one process per file, where the watch alone is enough). Default 1,000.
   */
  feedPollMs?: number;
}

/**
 * The Deno KV store: the port with every optional part but `newWebhookId`, the extra methods of the
 * reference stores, and its migration.
 *
 * @example
 * ```ts
 * const store: DenoKvStore = createDenoKvStore({ kv });
 * await store.migrate();
 * await store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
 * ```
 */
export interface DenoKvStore extends Async<StoreMethods>, Pick<ImmediateStoreMethods, 'watchFeed'> {
  /**
   * Writes the key layout's version into a KV that has none, and fails with `store_failed` for a KV
   * written by a newer release. Every other method does it first anyway; call it at start-up to
   * fail there.
   */
  migrate(): Promise<void>;
  /** Creates or replaces a channel. */
  putChannel(channel: Channel): Promise<void>;
  /** The channel's messages, oldest first. */
  listMessages(channelId: string): Promise<Message[]>;
}

/** What the idempotency key of a stored message holds; its versionstamp is the message's. */
interface KeyEntry {
  messageId: string;
  channelId: string;
}

/**
 * A {@link WebhookStore} on Deno KV, over a `Deno.Kv` the app opens and passes in: a local file
 * (SQLite) for one process, or Deno Deploy's KV, shared by every isolate in every region. The
 * entry point imports nothing from Deno: `kv` is only described by its shape.
 *
 * The guarded insert reads the webhook, its channel and the idempotency key (one `getMany`), then
 * commits one atomic operation that checks all three versionstamps (the webhook and the channel
 * unchanged, the key still unused) and writes the message, the key, `lastPostAt` and the feed's
 * entries. When a check fails, another commit came between: nothing was written, and the insert
 * reads and decides again. So a revocation, rotation or archival that completed before the commit
 * is always seen, and N posts racing with one key store one message, which each of them gets back.
 * Posts do not write the webhook's own key (`lastPostAt` has a key of its own), so posts to one
 * webhook without a shared key never collide. A post costs one read and one commit here, on top of
 * the handler's `getWebhook` (one read).
 *
 * A message is stored as its JSON text, cut into values of at most 64 KiB: one at the body limit
 * takes two. Ids and keys longer than 256 bytes, or not well-formed Unicode, are hashed into their
 * key (SHA-256). A failing KV rejects with `store_failed`; a call that does not finish within
 * `timeoutMs`, lost races included, rejects with `store_timeout`. Each write is one atomic commit:
 * it lands whole or not at all. Bad options throw `invalid_argument`.
 *
 * @example
 * ```ts
 * import { createWebhookHandler, createWebhookManager } from 'channel-webhooks';
 * import { createDenoKvRateLimiter, createDenoKvStore } from 'channel-webhooks/deno-kv';
 *
 * const kv = await Deno.openKv(); // Deno Deploy's KV; locally: Deno.openKv('data/webhooks.kv')
 * const store = createDenoKvStore({ kv });
 * await store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
 * const handle = createWebhookHandler({ store, rateLimiter: createDenoKvRateLimiter({ kv }) });
 * ```
 */
export function createDenoKvStore(options: DenoKvStoreOptions): DenoKvStore {
  const { kv, prefix, timeoutMs } = resolveDenoKvOptions('createDenoKvStore', options, 5_000, {
    feedPollMs: FEED_POLL_MS,
  });
  const feedPollMs = options.feedPollMs ?? 1_000;
  const party: KvParty = { name: 'Deno KV store', failed: 'store_failed', timedOut: 'store_timeout', timeoutMs };
  const keys = keyLayout(prefix);
  const attempt = createKvRunner(party);
  const layout = layoutVersion(kv, keys, attempt, party);
  // Every call checks the layout first (once per store, see layoutVersion).
  const run: typeof attempt = async (what, work) => {
    await layout.ready();
    return attempt(what, work);
  };
  const history = createPostHistory(kv, keys, run);

  const readWebhook = async (webhookId: string) => {
    const [webhook, lastPost] = await kv.getMany([keys.webhook(webhookId), keys.lastPost(webhookId)]);
    return { entry: webhook!, record: toRecord(webhook!, lastPost!) };
  };
  const readMessage = (channelId: string, versionstamp: string, entry?: DenoKvEntry): Promise<Message> =>
    (entry === undefined ? kv.get(keys.message(channelId, versionstamp)) : Promise.resolve(entry)).then((first) =>
      readFrames<Message>(kv, first, (part) => keys.messagePart(channelId, part, versionstamp)),
    );
  // Read, change and commit a webhook under a check of its versionstamp, unless `change` says no.
  const updateWebhook = (what: string, webhookId: string, change: (record: WebhookRecord) => WebhookRecord | null) =>
    run(what, async () => {
      const { entry, record } = await readWebhook(webhookId);
      if (record === null) return null;
      const changed = change(record);
      if (changed === null || changed === record) return changed;
      const result = await kv.atomic().check(entry).set(keys.webhook(webhookId), changed).commit();
      return result.ok ? changed : LOST_RACE;
    });

  return {
    migrate: layout.ready,

    putChannel: (channel) =>
      run('putChannel', async () => {
        await kv
          .atomic()
          .set(keys.channel(channel.id), { id: channel.id, ownerId: channel.ownerId, archived: channel.archived })
          .commit();
      }),

    listMessages: (channelId) =>
      run('listMessages', async () => {
        const messages: Promise<Message>[] = [];
        for await (const entry of kv.list({ prefix: keys.messagesOf(channelId) })) {
          messages.push(readMessage(channelId, entry.key.at(-1) as string, entry));
        }
        return Promise.all(messages);
      }),

    getChannel: (channelId) =>
      run('getChannel', async () => {
        const { value } = await kv.get(keys.channel(channelId));
        const channel = value as Channel | null;
        return channel === null ? null : { id: channel.id, ownerId: channel.ownerId, archived: channel.archived };
      }),

    insertWebhook: (webhook) =>
      run('insertWebhook', async () => {
        const key = keys.webhook(webhook.id);
        const result = await kv
          .atomic()
          .check({ key, versionstamp: null })
          .set(key, copyWebhookRecord(webhook))
          .set(keys.newWebhookOf(webhook.channelId, webhook.createdAt, kv.commitVersionstamp()), webhook.id)
          .commit();
        if (!result.ok)
          throw new ChannelWebhookError(
            'store_failed',
            `Deno KV store: insertWebhook failed: a webhook with id ${webhook.id} already exists`,
          );
      }),

    getWebhook: (webhookId) => run('getWebhook', async () => (await readWebhook(webhookId)).record),

    listWebhooks: (channelId) =>
      run('listWebhooks', async () => {
        const ids: string[] = [];
        for await (const entry of kv.list({ prefix: keys.webhooksOf(channelId) })) ids.push(entry.value as string);
        const entries = await getAll(
          kv,
          ids.flatMap((id) => [keys.webhook(id), keys.lastPost(id)]),
        );
        return ids.map((_, i) => toRecord(entries[2 * i]!, entries[2 * i + 1]!)!);
      }),

    updateWebhookSecret: (webhookId, secretHash, rotatedAt) =>
      updateWebhook('updateWebhookSecret', webhookId, (record) =>
        record.revokedAt === null ? { ...record, secretHash, rotatedAt } : null,
      ),

    revokeWebhook: (webhookId, revokedAt) =>
      updateWebhook('revokeWebhook', webhookId, (record) =>
        record.revokedAt === null ? { ...record, revokedAt } : record,
      ),

    updateWebhookProfile: (webhookId, change) =>
      updateWebhook('updateWebhookProfile', webhookId, (record) => {
        if (record.revokedAt !== null) return null;
        // A field left out of the change keeps its value; one given as null is cleared.
        return {
          ...record,
          description: change.description === undefined ? record.description : change.description,
          avatarUrl: change.avatarUrl === undefined ? record.avatarUrl : change.avatarUrl,
        };
      }),

    insertMessage({ message, idempotencyKey, secretHash, postedAt }) {
      const webhookId = message.author.id;
      let frames: Uint8Array[] | undefined;
      const keyKey = idempotencyKey === null ? null : keys.idempotencyKey(webhookId, idempotencyKey);
      return run('insertMessage', async (): Promise<InsertMessageResult | typeof LOST_RACE> => {
        const reads = [keys.webhook(webhookId), keys.channel(message.channelId)];
        if (keyKey !== null) reads.push(keyKey);
        const [webhookEntry, guessedChannel, keyEntry] = await kv.getMany(reads);
        const webhook = webhookEntry!.value as WebhookRecord | null;
        if (webhook === null || webhook.revokedAt !== null || webhook.secretHash !== secretHash)
          return { outcome: 'webhook_inactive' };
        // The message names its webhook's channel; should it not, the webhook's is the one to guard.
        const channelEntry =
          webhook.channelId === message.channelId ? guessedChannel! : await kv.get(keys.channel(webhook.channelId));
        const channel = channelEntry.value as Channel | null;
        if (channel === null) return { outcome: 'channel_not_found' };
        if (channel.archived) return { outcome: 'channel_archived' };
        if (keyEntry !== undefined && keyEntry.versionstamp !== null) {
          const earlier = keyEntry.value as KeyEntry;
          return { outcome: 'duplicate', message: await readMessage(earlier.channelId, keyEntry.versionstamp) };
        }

        const versionstamp = kv.commitVersionstamp();
        const operation = kv.atomic().check(webhookEntry!, channelEntry);
        if (keyKey !== null) {
          const entry: KeyEntry = { messageId: message.id, channelId: message.channelId };
          operation.check({ key: keyKey, versionstamp: null }).set(keyKey, entry);
        }
        frames ??= toFrames(message);
        setFrames(operation, frames, keys.message(message.channelId, versionstamp), (part) =>
          keys.messagePart(message.channelId, part, versionstamp),
        );
        operation
          .set(keys.feedEntry(versionstamp), message.channelId)
          .set(keys.lastPost(webhookId), postedAt)
          // Its value says nothing: its versionstamp moves with every message, for watchFeed.
          .set(keys.feedHead(), null);
        const result = await operation.commit();
        return result.ok ? { outcome: 'created', message } : LOST_RACE;
      });
    },

    recordPosts: (records) => history.record(records),
    listPosts: (webhookId, limit) => history.list(webhookId, limit),

    readFeed: (feedOptions) => run('readFeed', () => readFeedPage(kv, keys, feedOptions, readMessage)),
    watchFeed: (listener) => watchFeedHead(kv, keys, listener, feedPollMs),
  };
}

// One literal with a fixed key order: what is stored, and what every reader gets (a fresh object).
/** A webhook as its two keys hold it: the record, and the time of its last post when it has one. */
function toRecord(webhook: DenoKvEntry, lastPost: DenoKvEntry): WebhookRecord | null {
  if (webhook.value === null) return null;
  const record = copyWebhookRecord(webhook.value as WebhookRecord);
  if (lastPost.value !== null) record.lastPostAt = lastPost.value as number;
  return record;
}
