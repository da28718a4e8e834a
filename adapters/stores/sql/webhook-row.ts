import type { WebhookRecord } from '../../../src/store-kit/index.js';

/** The webhook table's columns, in the order {@link webhookRowValues} gives their values (the SQLite and PostgreSQL stores and the Durable Object). */
export const WEBHOOK_COLUMNS =
  'id, channel_id, name, secret_hash, created_by, created_at, rotated_at, revoked_at, last_post_at, description, avatar_url';

/** A webhook record's values for an `INSERT INTO webhooks (WEBHOOK_COLUMNS) VALUES (?, …)` (or `$1, …`), in column order. */
export function webhookRowValues(webhook: WebhookRecord): unknown[] {
  return [
    webhook.id,
    webhook.channelId,
    webhook.name,
    webhook.secretHash,
    webhook.createdBy,
    webhook.createdAt,
    webhook.rotatedAt,
    webhook.revokedAt,
    webhook.lastPostAt ?? null,
    webhook.description,
    webhook.avatarUrl,
  ];
}
