import type {
  Channel,
  InsertMessageInput,
  InsertMessageResult,
  Message,
  WebhookProfileChange,
  WebhookRecord,
} from '../../../src/store-kit/index.js';
import { messageFieldValue, type ResolvedChannelSource, type ResolvedMessageMapping } from './app-tables.js';
import { WEBHOOK_COLUMNS, webhookRowValues } from './webhook-row.js';

/** A row as a SQLite driver gives it: values by column name, integers as numbers or BigInts. */
export type SqliteRow = Record<string, unknown>;

/**
 * How statements reach a SQLite database: run one with its `?` bindings, read its first row
 * (`undefined` when there is none) or all of them. The SQLite store gives prepared statements of
 * its driver, the Durable Object its `ctx.storage.sql.exec`.
 */
export interface SqliteExec {
  run(sql: string, ...bindings: unknown[]): void;
  get(sql: string, ...bindings: unknown[]): SqliteRow | undefined;
  all(sql: string, ...bindings: unknown[]): SqliteRow[];
}

/** The message columns every read of a message selects, in the order {@link toMessage} reads them. */
export const MESSAGE_COLUMNS = 'id, channel_id, webhook_id, author_name, body, blocks, created_at';

/**
 * The store methods whose SQL is the same on every SQLite database with the library's tables (the
 * SQLite store's, with its table prefix, and each Durable Object's, without one): each is one or a
 * few statements and runs in the caller's transaction, if any, so that the caller decides how
 * writes are made atomic (`BEGIN IMMEDIATE`, a group commit, `transactionSync`) and how failures
 * are reported. `body`, `blocks` and `idempotency_key` hold JSON text, which keeps any string
 * exactly, so keys compare exactly.
 */
export interface SqliteStatements {
  putChannel(channel: Channel): void;
  getChannel(channelId: string): Channel | null;
  listMessages(channelId: string): Message[];
  insertWebhook(webhook: WebhookRecord): void;
  getWebhook(webhookId: string): WebhookRecord | null;
  listWebhooks(channelId: string): WebhookRecord[];
  updateWebhookSecret(webhookId: string, secretHash: string, rotatedAt: number): WebhookRecord | null;
  revokeWebhook(webhookId: string, revokedAt: number): WebhookRecord | null;
  updateWebhookProfile(webhookId: string, change: WebhookProfileChange): WebhookRecord | null;
  /**
   * The guarded insert, to run inside a write transaction: the webhook active under the post's
   * secret hash, its channel present and not archived, the key unused, then the message and the
   * webhook's `lastPostAt`, checked in that order and reported as the port says.
   */
  insertMessage(input: InsertMessageInput): InsertMessageResult;
}

/**
 * Where a webhook's `lastPostAt` is kept: the statement the guarded insert sets it with (bound to
 * the post's time, then the webhook's id), and the expression that reads it in a query of the
 * webhook table (which may name that table's columns, and `<prefix>webhooks.id`).
 */
export interface LastPostPlace {
  set: string;
  read: string;
}

/** `lastPostAt` in the webhook's own row (the Durable Object's schema keeps it there). */
export function lastPostInRow(p: string): LastPostPlace {
  return { set: `UPDATE ${p}webhooks SET last_post_at = ? WHERE id = ?`, read: 'last_post_at' };
}

/** The host app's own tables the statements read channels from and write messages to, if any. */
export interface SqliteAppTables {
  /** Where channels are read (default: the store's `<prefix>channels`). */
  channels?: ResolvedChannelSource;
  /** The app's messages table, written beside the store's own in the guarded insert. */
  messages?: ResolvedMessageMapping | null;
}

/**
 * The statements of {@link SqliteStatements} over `db`, on the tables of prefix `p` and the app's
 * own `tables`, with `lastPostAt` kept where `lastPost` says.
 */
export function createSqliteStatements(
  db: SqliteExec,
  p: string,
  tables: SqliteAppTables = {},
  lastPost: LastPostPlace = lastPostInRow(p),
): SqliteStatements {
  const c = tables.channels ?? { table: `${p}channels`, id: 'id', ownerId: 'owner_id', archived: 'archived' };
  const mapped = tables.messages ?? null;
  const columns = WEBHOOK_COLUMNS.replace('last_post_at', `${lastPost.read} AS last_post_at`);
  // Built once: the SQLite store prepares each statement by its text, once.
  const sql = {
    putChannel: `INSERT INTO ${c.table} (${c.id}, ${c.ownerId}, ${c.archived}) VALUES (?, ?, ?)
       ON CONFLICT (${c.id}) DO UPDATE SET ${c.ownerId} = excluded.${c.ownerId}, ${c.archived} = excluded.${c.archived}`,
    getChannel: `SELECT ${c.id} AS id, ${c.ownerId} AS owner_id, coalesce(${c.archived}, 0) AS archived FROM ${c.table} WHERE ${c.id} = ?`,
    listMessages: `SELECT ${MESSAGE_COLUMNS} FROM ${p}messages WHERE channel_id = ? ORDER BY seq`,
    insertWebhook: `INSERT INTO ${p}webhooks (${WEBHOOK_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    getWebhook: `SELECT ${columns} FROM ${p}webhooks WHERE id = ?`,
    listWebhooks: `SELECT ${columns} FROM ${p}webhooks WHERE channel_id = ? ORDER BY created_at, seq`,
    updateWebhookSecret: `UPDATE ${p}webhooks SET secret_hash = ?, rotated_at = ? WHERE id = ? AND revoked_at IS NULL RETURNING ${columns}`,
    revokeWebhook: `UPDATE ${p}webhooks SET revoked_at = coalesce(revoked_at, ?) WHERE id = ? RETURNING ${columns}`,
    // A field left out of the change keeps its value; one given as null is cleared.
    updateWebhookProfile: `UPDATE ${p}webhooks SET description = CASE WHEN ? THEN ? ELSE description END, avatar_url = CASE WHEN ? THEN ? ELSE avatar_url END
       WHERE id = ? AND revoked_at IS NULL RETURNING ${columns}`,
    // `found` tells a missing channel from one whose archived column is NULL (not archived).
    guard: `SELECT w.revoked_at IS NULL AND w.secret_hash = ? AS active, ch.${c.id} IS NOT NULL AS found,
       coalesce(ch.${c.archived}, 0) AS archived
       FROM ${p}webhooks w LEFT JOIN ${c.table} ch ON ch.${c.id} = w.channel_id WHERE w.id = ?`,
    keyed: `SELECT ${MESSAGE_COLUMNS} FROM ${p}messages WHERE webhook_id = ? AND idempotency_key = ?`,
    insertMessage: `INSERT INTO ${p}messages (id, channel_id, webhook_id, author_name, body, blocks, created_at, idempotency_key)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    lastPostAt: lastPost.set,
    appMessage:
      mapped === null
        ? ''
        : `INSERT INTO ${mapped.table} (${mapped.columns.map(({ column }) => column).join(', ')})
       VALUES (${mapped.columns.map(() => '?').join(', ')})`,
  };

  return {
    putChannel(channel) {
      db.run(sql.putChannel, channel.id, channel.ownerId, channel.archived ? 1 : 0);
    },
    getChannel(channelId) {
      const row = db.get(sql.getChannel, channelId);
      return row === undefined
        ? null
        : { id: String(row.id), ownerId: String(row.owner_id), archived: Number(row.archived) !== 0 };
    },
    listMessages: (channelId) => db.all(sql.listMessages, channelId).map(toMessage),
    insertWebhook(webhook) {
      db.run(sql.insertWebhook, ...webhookRowValues(webhook));
    },
    getWebhook: (webhookId) => toWebhook(db.get(sql.getWebhook, webhookId)),
    listWebhooks: (channelId) => db.all(sql.listWebhooks, channelId).map((row) => toWebhook(row)!),
    updateWebhookSecret: (webhookId, secretHash, rotatedAt) =>
      toWebhook(db.get(sql.updateWebhookSecret, secretHash, rotatedAt, webhookId)),
    revokeWebhook: (webhookId, revokedAt) => toWebhook(db.get(sql.revokeWebhook, revokedAt, webhookId)),
    updateWebhookProfile: (webhookId, change) =>
      toWebhook(
        db.get(
          sql.updateWebhookProfile,
          change.description === undefined ? 0 : 1,
          change.description ?? null,
          change.avatarUrl === undefined ? 0 : 1,
          change.avatarUrl ?? null,
          webhookId,
        ),
      ),
    insertMessage({ message, idempotencyKey, secretHash, postedAt }) {
      const webhookId = message.author.id;
      const key = idempotencyKey === null ? null : JSON.stringify(idempotencyKey);
      const guard = db.get(sql.guard, secretHash, webhookId);
      if (guard === undefined || Number(guard.active) !== 1) return { outcome: 'webhook_inactive' };
      if (Number(guard.found) !== 1) return { outcome: 'channel_not_found' };
      if (Number(guard.archived) !== 0) return { outcome: 'channel_archived' };
      if (key !== null) {
        const earlier = db.get(sql.keyed, webhookId, key);
        if (earlier !== undefined) return { outcome: 'duplicate', message: toMessage(earlier) };
      }
      db.run(
        sql.insertMessage,
        message.id,
        message.channelId,
        webhookId,
        message.author.name,
        JSON.stringify(message.body),
        JSON.stringify(message.blocks),
        message.createdAt,
        key,
      );
      if (mapped !== null) db.run(sql.appMessage, ...appMessageValues(mapped, message));
      db.run(sql.lastPostAt, postedAt, webhookId);
      return { outcome: 'created', message };
    },
  };
}

/** The values of the app's row for `message`, in the mapping's column order (booleans as 0 and 1). */
function appMessageValues(mapped: ResolvedMessageMapping, message: Message): unknown[] {
  return mapped.columns.map((column) => {
    if ('field' in column) return messageFieldValue(message, column.field);
    return typeof column.value === 'boolean' ? Number(column.value) : column.value;
  });
}

/** A message from its row of {@link MESSAGE_COLUMNS}. */
export function toMessage(row: SqliteRow): Message {
  return {
    id: String(row.id),
    channelId: String(row.channel_id),
    body: JSON.parse(String(row.body)) as string,
    blocks: JSON.parse(String(row.blocks)) as Message['blocks'],
    author: { type: 'webhook', id: String(row.webhook_id), name: String(row.author_name) },
    createdAt: String(row.created_at),
  };
}

// Times are read with Number(): a connection set to read integers as BigInt (better-sqlite3's
// safeIntegers, node:sqlite's readBigInts) still gives the port's numbers.
function toWebhook(row: SqliteRow | undefined): WebhookRecord | null {
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

/** A nullable integer column as the port's number or `null`. */
export function orNull(value: unknown): number | null {
  return value === null ? null : Number(value);
}
