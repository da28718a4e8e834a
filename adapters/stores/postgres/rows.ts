import type { ResolvedOptions } from './options.js';

// Every statement that reads something back returns one text column, `fields`: a JSON object whose
// keys are the record's own field names. So one reader serves every statement, a field is matched
// by name (never by position), and the caller's pool reads it the same way whatever type parsers it
// has installed; node-postgres also describes and copies one column rather than nine.

/** A webhook as a JSON object of `WebhookRecord`'s fields; bigint times become JSON numbers, exact below 2^53 ms. */
export const WEBHOOK_FIELDS = `json_build_object('id', id, 'channelId', channel_id, 'name', name, 'secretHash', secret_hash,
  'createdBy', created_by, 'createdAt', created_at, 'rotatedAt', rotated_at, 'revokedAt', revoked_at, 'lastPostAt', last_post_at,
  'description', description, 'avatarUrl', avatar_url)`;

/** A message as a JSON object of `Message`'s fields; body and blocks are embedded as the JSON they are stored as. */
export const MESSAGE_FIELDS = `json_build_object('id', id, 'channelId', channel_id, 'body', body, 'blocks', blocks,
  'author', json_build_object('type', 'webhook', 'id', webhook_id, 'name', author_name),
  'createdAt', to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;

/** A channel of the configured source as a JSON object of `Channel`'s fields. */
export function channelFields(c: ResolvedOptions['channels']): string {
  return `json_build_object('id', ${c.id}::text, 'ownerId', ${c.ownerId}::text, 'archived', coalesce(${c.archived}, false))`;
}

/** The select-list item that carries `fields` (a `json_build_object(…)`) to {@link readRows}. */
export function asFields(fields: string): string {
  return `${fields}::text AS fields`;
}

/** The reader of every statement's rows: each row's `fields`, parsed. */
export function readRows<Row>({ rows }: { rows: unknown[] }): Row[] {
  return rows.map((row) => JSON.parse((row as { fields: string }).fields) as Row);
}
