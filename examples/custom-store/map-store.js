// A WebhookStore written from scratch over plain Maps: the skeleton to copy when you write a store
// for your own database. Each method says what the contract asks of it; replace the Map work with
// your queries and keep those promises. Check your store with the conformance suite:
//
//   import { describe, it } from 'vitest';
//   import { runStoreConformance } from 'channel-webhooks/testing';
//   runStoreConformance({ describe, it, createStore: () => createMapStore() });

/**
 * @typedef {import('channel-webhooks').WebhookStore} WebhookStore
 * @typedef {import('channel-webhooks').Channel} Channel
 * @typedef {import('channel-webhooks').WebhookRecord} WebhookRecord
 * @typedef {import('channel-webhooks').Message} Message
 */

/**
 * A store over Maps. Besides the port's methods it has `putChannel` and `listMessages`, as the
 * reference stores do; a host app with its own channels table only needs `getChannel` to read it.
 *
 * @returns {WebhookStore & { putChannel(channel: Channel): Promise<void>, listMessages(channelId: string): Promise<Message[]> }}
 */
export function createMapStore() {
  /** @type {Map<string, Channel>} */
  const channels = new Map();
  /** @type {Map<string, WebhookRecord>} */
  const webhooks = new Map();
  /** @type {Message[]} */
  const messages = [];
  // The idempotency index: one entry per (webhook id, key). In SQL, a unique index on both columns.
  /** @type {Map<string, Message>} */
  const byKey = new Map();
  const keyOf = (webhookId, key) => JSON.stringify([webhookId, key]);

  // Copies on the way in and out: the contract says returned objects never change afterwards,
  // and callers must not be able to change stored state by mutating what they got.
  const copy = (value) => structuredClone(value);

  return {
    async putChannel(channel) {
      channels.set(channel.id, { id: channel.id, ownerId: channel.ownerId, archived: channel.archived });
    },

    async listMessages(channelId) {
      return messages.filter((message) => message.channelId === channelId).map(copy);
    },

    // The channel or null. The handler reads it on every post to apply the archived rule (409),
    // so a host app usually points this at its own channels table.
    async getChannel(channelId) {
      const channel = channels.get(channelId);
      return channel === undefined ? null : copy(channel);
    },

    // Stores a new webhook; rejects when the id is taken (a primary key in SQL). Ids are random,
    // so a clash means a bug, not a retry.
    async insertWebhook(webhook) {
      if (webhooks.has(webhook.id)) throw new Error(`webhook ${webhook.id} already exists`);
      webhooks.set(webhook.id, copy(webhook));
    },

    // The webhook in any state (active, rotated, revoked) or null. It must see the latest rotation
    // or revocation at once: the old URL answers 404 from the very next request. A store that can
    // join the channel in the same query may set `channel` on the result to save a round trip.
    async getWebhook(webhookId) {
      const webhook = webhooks.get(webhookId);
      return webhook === undefined ? null : copy(webhook);
    },

    // Every webhook of the channel, revoked ones included, oldest first.
    async listWebhooks(channelId) {
      return [...webhooks.values()]
        .filter((webhook) => webhook.channelId === channelId)
        .sort((a, b) => a.createdAt - b.createdAt)
        .map(copy);
    },

    // One atomic step (in SQL: UPDATE ... WHERE id = $1 AND revoked_at IS NULL RETURNING *):
    // a revoked webhook is never brought back by a rotation racing its revocation.
    async updateWebhookSecret(webhookId, secretHash, rotatedAt) {
      const webhook = webhooks.get(webhookId);
      if (webhook === undefined || webhook.revokedAt !== null) return null;
      const updated = { ...webhook, secretHash, rotatedAt };
      webhooks.set(webhookId, updated);
      return copy(updated);
    },

    // Sets revokedAt once; a second revocation keeps the first time (COALESCE in SQL).
    async revokeWebhook(webhookId, revokedAt) {
      const webhook = webhooks.get(webhookId);
      if (webhook === undefined) return null;
      if (webhook.revokedAt === null) webhooks.set(webhookId, { ...webhook, revokedAt });
      return copy(webhooks.get(webhookId));
    },

    // The heart of idempotency. Atomic per (webhook, key): when many requests race with one key,
    // exactly one stores its message and all of them get that message back. Here the check and
    // the write run with no await between them, so nothing can interleave; in SQL use
    // INSERT ... ON CONFLICT DO NOTHING and read the winner back. A null key always stores.
    async insertMessage(message, idempotencyKey) {
      if (idempotencyKey !== null) {
        const earlier = byKey.get(keyOf(message.author.id, idempotencyKey));
        if (earlier !== undefined) return { message: copy(earlier), created: false };
        byKey.set(keyOf(message.author.id, idempotencyKey), copy(message));
      }
      messages.push(copy(message));
      return { message: copy(message), created: true };
    },
  };
}
