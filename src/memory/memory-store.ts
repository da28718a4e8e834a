import { markInProcess } from './in-process-ports.js';
import type { Channel, InsertMessageResult, Message, WebhookLookup, WebhookRecord, WebhookStore } from '../ports.js';

/**
 * The in-memory store, with the two extra methods of the reference stores.
 *
 * @example
 * ```ts
 * const store: MemoryStore = createMemoryStore();
 * await store.putChannel({ id: 'deploys', ownerId: 'u1', archived: false });
 * const messages = await store.listMessages('deploys');
 * ```
 */
export interface MemoryStore extends WebhookStore {
  /** Creates or replaces a channel (the host app's channels live elsewhere; this seeds them). */
  putChannel(channel: Channel): Promise<void>;
  /** The channel's messages, oldest first. */
  listMessages(channelId: string): Promise<Message[]>;
}

/**
 * A {@link WebhookStore} in this process's memory: the embedded default for one process, examples and
 * tests. Every method finishes its work synchronously before its promise settles, so the idempotent
 * insert is atomic: N concurrent posts with one key store one message and all answer with it.
 * State lives as long as the store object; nothing is persisted.
 *
 * @example
 * ```ts
 * const store = createMemoryStore();
 * await store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
 * const handle = createWebhookHandler({ store });
 * // ... after posts:
 * const messages = await store.listMessages('general');
 * ```
 */
export function createMemoryStore(): MemoryStore {
  // Channels and webhooks are frozen when stored and handed out as they are: no copy per lookup,
  // and no caller can change the store through what it was given.
  const channels = new Map<string, Readonly<Channel>>();
  const webhooks = new Map<string, Readonly<WebhookRecord>>();
  const messagesByChannel = new Map<string, Message[]>();
  // Keyed by webhook id, then idempotency key: keys are scoped to their webhook.
  const messagesByKey = new Map<string, Map<string, Message>>();

  return markInProcess<MemoryStore>({
    async putChannel(channel) {
      channels.set(channel.id, Object.freeze({ id: channel.id, ownerId: channel.ownerId, archived: channel.archived }));
    },
    async listMessages(channelId) {
      return [...(messagesByChannel.get(channelId) ?? [])];
    },
    async getChannel(channelId) {
      return channels.get(channelId) ?? null;
    },
    async insertWebhook(webhook) {
      if (webhooks.has(webhook.id)) throw new Error(`a webhook with id ${webhook.id} already exists`);
      webhooks.set(webhook.id, Object.freeze({ ...webhook }));
    },
    async getWebhook(webhookId): Promise<WebhookLookup | null> {
      return webhooks.get(webhookId) ?? null;
    },
    async listWebhooks(channelId) {
      const found: WebhookRecord[] = [];
      for (const webhook of webhooks.values()) if (webhook.channelId === channelId) found.push(webhook);
      // The port promises oldest first, whatever order the webhooks were inserted in (stable on ties).
      return found.sort((a, b) => a.createdAt - b.createdAt);
    },
    async updateWebhookSecret(webhookId, secretHash, rotatedAt) {
      const webhook = webhooks.get(webhookId);
      if (webhook === undefined || webhook.revokedAt !== null) return null;
      const updated = Object.freeze({ ...webhook, secretHash, rotatedAt });
      webhooks.set(webhookId, updated);
      return updated;
    },
    async revokeWebhook(webhookId, revokedAt) {
      const webhook = webhooks.get(webhookId);
      if (webhook === undefined) return null;
      if (webhook.revokedAt === null) webhooks.set(webhookId, Object.freeze({ ...webhook, revokedAt }));
      return webhooks.get(webhookId)!;
    },
    async insertMessage(message, idempotencyKey): Promise<InsertMessageResult> {
      let keys: Map<string, Message> | undefined;
      if (idempotencyKey !== null) {
        keys = messagesByKey.get(message.author.id);
        const earlier = keys?.get(idempotencyKey);
        if (earlier !== undefined) return { message: earlier, created: false };
      }
      let list = messagesByChannel.get(message.channelId);
      if (list === undefined) messagesByChannel.set(message.channelId, (list = []));
      list.push(message);
      if (idempotencyKey !== null) {
        if (keys === undefined) messagesByKey.set(message.author.id, (keys = new Map()));
        keys.set(idempotencyKey, message);
      }
      return { message, created: true };
    },
  });
}
