import type { Message, WebhookRecord } from '../../src/internal.js';

// Every statement that reads a webhook or a message back reads it as one JSON array in one text
// column, so each reads it the same way whatever type parsers the caller's pool has installed, and
// node-postgres describes, parses and copies one column rather than seven or nine (which is most
// of its cost per query on the lookup every post makes).

/** A webhook as one JSON array text; bigint times become JSON numbers, exact below 2^53 ms. */
export const WEBHOOK_JSON = `json_build_array(id, channel_id, name, secret_hash, created_by, created_at, rotated_at, revoked_at, last_post_at)::text`;

/** A message as one JSON array text; body and blocks are embedded as the JSON they are stored as. */
export const MESSAGE_JSON = `json_build_array(id, channel_id, webhook_id, author_name, body, blocks,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text`;

/** A webhook record from {@link WEBHOOK_JSON}'s text. */
export function toWebhook(json: string): WebhookRecord {
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

/** A message from {@link MESSAGE_JSON}'s text. */
export function toMessage(json: string): Message {
  const [id, channelId, webhookId, authorName, body, blocks, createdAt] = JSON.parse(json) as [string, string, string, string, string, unknown[], string];
  return { id, channelId, body, blocks, author: { type: 'webhook', id: webhookId, name: authorName }, createdAt };
}
