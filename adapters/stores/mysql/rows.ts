import type { Message, PostRecord, WebhookRecord } from '../../../src/store-kit/index.js';
import type { MysqlRow } from './mysql-calls.js';

// Values are read with String() and Number(): a pool set to give BIGINTs as strings
// (`bigNumberStrings`) or text as Buffers still gives the port's records.

/** The message columns every read of a message selects, in the order {@link toMessage} reads them. */
export const MESSAGE_COLUMNS = 'id, channel_id, webhook_id, author_name, body, blocks, created_at';

/** The post record columns `listPosts` selects. */
export const POST_COLUMNS = 'webhook_id, at, status, code, errors, idempotency_key, message_id, body_bytes, count';

/** A message from its row of {@link MESSAGE_COLUMNS}. */
export function toMessage(row: MysqlRow): Message {
  return {
    id: String(row.id),
    channelId: String(row.channel_id),
    body: JSON.parse(String(row.body)) as string,
    blocks: JSON.parse(String(row.blocks)) as Message['blocks'],
    author: { type: 'webhook', id: String(row.webhook_id), name: String(row.author_name) },
    createdAt: String(row.created_at),
  };
}

/** A webhook from its row of `WEBHOOK_COLUMNS`, or null for no row. */
export function toWebhook(row: MysqlRow | undefined): WebhookRecord | null {
  if (row === undefined) return null;
  return {
    id: String(row.id),
    channelId: String(row.channel_id),
    name: String(row.name),
    secretHash: String(row.secret_hash),
    createdBy: String(row.created_by),
    createdAt: Number(row.created_at),
    rotatedAt: orNull(row.rotated_at),
    revokedAt: orNull(row.revoked_at),
    lastPostAt: orNull(row.last_post_at),
    description: row.description === null ? null : String(row.description),
    avatarUrl: row.avatar_url === null ? null : String(row.avatar_url),
  };
}

/** A post record from its row of {@link POST_COLUMNS}. */
export function toPostRecord(row: MysqlRow): PostRecord {
  return {
    webhookId: String(row.webhook_id),
    at: Number(row.at),
    status: Number(row.status),
    code: row.code === null ? null : String(row.code),
    errors: JSON.parse(String(row.errors)) as PostRecord['errors'],
    idempotencyKey: row.idempotency_key === null ? null : (JSON.parse(String(row.idempotency_key)) as string),
    messageId: row.message_id === null ? null : String(row.message_id),
    bodyBytes: orNull(row.body_bytes),
    count: Number(row.count),
  };
}

function orNull(value: unknown): number | null {
  return value === null ? null : Number(value);
}
