import type { WebhookRecord } from '../ports.js';

/**
 * A copy of a webhook record with exactly the port's fields, in one fixed key order: what a store
 * keeps never shares an object with its caller, and every record shares one hidden class (reads of
 * records stay monomorphic however many there are).
 *
 * @example
 * ```ts
 * insertWebhook(webhook) {
 *   webhooks.set(webhook.id, copyWebhookRecord(webhook));
 * }
 * ```
 */
export function copyWebhookRecord(webhook: WebhookRecord): WebhookRecord {
  return {
    id: webhook.id,
    channelId: webhook.channelId,
    name: webhook.name,
    secretHash: webhook.secretHash,
    createdBy: webhook.createdBy,
    createdAt: webhook.createdAt,
    rotatedAt: webhook.rotatedAt,
    revokedAt: webhook.revokedAt,
    lastPostAt: webhook.lastPostAt,
    description: webhook.description,
    avatarUrl: webhook.avatarUrl,
  };
}
