import type { Message, WebhookRecord } from '../../src/internal.js';

// Column lists shared by every statement that reads a row back, so each reads it the same way:
// bigint and json as text, whatever type parsers the caller's pool has installed.
export const WEBHOOK_COLUMNS = `id, channel_id, name, secret_hash, created_by,
  created_at::text AS created_at, rotated_at::text AS rotated_at, revoked_at::text AS revoked_at,
  last_post_at::text AS last_post_at`;

export const MESSAGE_COLUMNS = `id, channel_id, webhook_id, author_name, body::text AS body, blocks::text AS blocks,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at`;

// A webhook as one JSON array text (bigint times become JSON numbers, exact below 2^53 ms), for the
// lookup every post makes: one column costs node-postgres far less than nine.
export const WEBHOOK_ARRAY = `json_build_array(id, channel_id, name, secret_hash, created_by, created_at, rotated_at, revoked_at, last_post_at)::text`;

// The same message as one JSON array text (body and blocks are embedded as the JSON they are), for
// the one place that reads a message back on the hot path: a duplicate's answer. One column costs
// node-postgres far less than seven.
export const MESSAGE_ARRAY = `json_build_array(id, channel_id, webhook_id, author_name, body, blocks,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text`;

export interface WebhookRow {
  id: string;
  channel_id: string;
  name: string;
  secret_hash: string;
  created_by: string;
  created_at: string;
  rotated_at: string | null;
  revoked_at: string | null;
  last_post_at: string | null;
}

export interface MessageRow {
  id: string;
  channel_id: string;
  webhook_id: string;
  author_name: string;
  body: string;
  blocks: string;
  created_at: string;
}

export function toWebhook(row: WebhookRow): WebhookRecord {
  return {
    id: row.id,
    channelId: row.channel_id,
    name: row.name,
    secretHash: row.secret_hash,
    createdBy: row.created_by,
    createdAt: Number(row.created_at),
    rotatedAt: row.rotated_at === null ? null : Number(row.rotated_at),
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
    lastPostAt: row.last_post_at === null ? null : Number(row.last_post_at),
  };
}

export function toMessage(row: MessageRow): Message {
  return {
    id: row.id,
    channelId: row.channel_id,
    body: JSON.parse(row.body) as string,
    blocks: JSON.parse(row.blocks) as unknown[],
    author: { type: 'webhook', id: row.webhook_id, name: row.author_name },
    createdAt: row.created_at,
  };
}

/** A message from {@link MESSAGE_ARRAY}'s text. */
export function toEarlierMessage(json: string): Message {
  const [id, channelId, webhookId, authorName, body, blocks, createdAt] = JSON.parse(json) as [string, string, string, string, string, unknown[], string];
  return { id, channelId, body, blocks, author: { type: 'webhook', id: webhookId, name: authorName }, createdAt };
}

/** A webhook record from {@link WEBHOOK_ARRAY}'s text. */
export function toWebhookFromArray(json: string): WebhookRecord {
  const [id, channelId, name, secretHash, createdBy, createdAt, rotatedAt, revokedAt, lastPostAt] = JSON.parse(json) as [
    string,
    string,
    string,
    string,
    string,
    number,
    number | null,
    number | null,
    number | null,
  ];
  return { id, channelId, name, secretHash, createdBy, createdAt, rotatedAt, revokedAt, lastPostAt };
}
