// A WebhookStore written from scratch over plain Maps: the skeleton to copy when you write a store
// for your own database. Each method says what the contract asks of it; replace the Map work with
// your queries and keep those promises. What the library's own stores use besides (option rules,
// deadlines, the history's folding of 429s, feed cursors) is in channel-webhooks/store-kit. Check
// your store with the conformance suite:
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

    // The channel or null. The manager reads it for the permission and archived rules; the post's
    // own channel check happens inside insertMessage.
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
    // or revocation at once: the old URL answers 404 from the very next request.
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

    // Changes an active webhook's profile: a field the change holds is set (null clears it), the
    // others stay. A revoked or unknown webhook gives null and nothing changes.
    async updateWebhookProfile(webhookId, change) {
      const webhook = webhooks.get(webhookId);
      if (webhook === undefined || webhook.revokedAt !== null) return null;
      const updated = { ...webhook };
      if (change.description !== undefined) updated.description = change.description;
      if (change.avatarUrl !== undefined) updated.avatarUrl = change.avatarUrl;
      webhooks.set(webhookId, updated);
      return copy(updated);
    },

    // The heart of a post: guarded, atomic and idempotent. In one step (here: no await between the
    // checks and the write; in SQL: one statement that locks the webhook and channel rows), store
    // the message only if the webhook is still active under the secret hash the post matched and its
    // channel exists and is not archived; otherwise say which check failed, writing nothing. Then,
    // per (webhook, key), exactly one racing request stores its message and all get that message
    // back. A null key always stores. A new message sets the webhook's lastPostAt.
    async insertMessage({ message, idempotencyKey, secretHash, postedAt }) {
      const webhook = webhooks.get(message.author.id);
      if (webhook === undefined || webhook.revokedAt !== null || webhook.secretHash !== secretHash)
        return { outcome: 'webhook_inactive' };
      const channel = channels.get(webhook.channelId);
      if (channel === undefined) return { outcome: 'channel_not_found' };
      if (channel.archived) return { outcome: 'channel_archived' };
      if (idempotencyKey !== null) {
        const earlier = byKey.get(keyOf(message.author.id, idempotencyKey));
        if (earlier !== undefined) return { outcome: 'duplicate', message: copy(earlier) };
        byKey.set(keyOf(message.author.id, idempotencyKey), copy(message));
      }
      messages.push(copy(message));
      webhooks.set(webhook.id, { ...webhook, lastPostAt: postedAt });
      return { outcome: 'created', message: copy(message) };
    },
  };
}
