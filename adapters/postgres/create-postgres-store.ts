import { MESSAGE_JSON, WEBHOOK_JSON, toMessage, toWebhook } from './rows.js';
import { createLookupGate } from './lookup-gate.js';
import { resolveOptions, type PostgresStoreOptions, type ResolvedOptions } from './options.js';
import { postgresSchema } from './schema.js';
import { withDeadline } from './with-deadline.js';
import { ChannelWebhookError } from '../../src/internal.js';
import type { Channel, InsertMessageInput, InsertMessageResult, Message, WebhookRecord, WebhookStore } from '../../src/internal.js';

/**
 * The PostgreSQL store, with the extra methods of the reference stores and its migration.
 *
 * @example
 * ```ts
 * const store: PostgresStore = createPostgresStore({ pool });
 * await store.migrate();
 * const messages = await store.listMessages('general');
 * ```
 */
export interface PostgresStore extends WebhookStore {
  /** Creates the tables and indexes if they do not exist yet (safe to run on every start, from any number of instances). */
  migrate(): Promise<void>;
  /** Creates or replaces a channel in the store's channels table. */
  putChannel(channel: Channel): Promise<void>;
  /** The channel's messages, oldest first. */
  listMessages(channelId: string): Promise<Message[]>;
  getChannel(channelId: string): Promise<Channel | null>;
  insertWebhook(webhook: WebhookRecord): Promise<void>;
  getWebhook(webhookId: string): Promise<WebhookRecord | null>;
  listWebhooks(channelId: string): Promise<WebhookRecord[]>;
  updateWebhookSecret(webhookId: string, secretHash: string, rotatedAt: number): Promise<WebhookRecord | null>;
  revokeWebhook(webhookId: string, revokedAt: number): Promise<WebhookRecord | null>;
  insertMessage(input: InsertMessageInput): Promise<InsertMessageResult>;
}

const MIGRATE_TIMEOUT_MS = 60_000;

/**
 * A {@link WebhookStore} on PostgreSQL, shared by any number of instances. Every method is one
 * statement (one round trip), so an accepted post costs two (look up the webhook, insert the
 * message). The insert is guarded and idempotent in that one statement: it locks the webhook row and
 * then the channel row, stores only if, on their newest committed versions, the webhook still
 * answers to the post's secret and its channel is active, and uses
 * `INSERT … ON CONFLICT (webhook_id, idempotency_key) DO UPDATE … RETURNING`: N racing posts with
 * one key, on any number of instances, store one message and all get it back. A failed or
 * timed-out call rejects with a `ChannelWebhookError` (`store_failed` or `store_timeout`) and, being
 * one statement, has written nothing or everything. Webhook lookups pass a bounded gate
 * (`maxConcurrentLookups`, `maxQueuedLookups`), so a flood of posts to unknown ids cannot take
 * every connection. Bad options throw `ChannelWebhookError` code `invalid_argument`.
 *
 * Give the pool deadlines of its own too, so the server stops work nobody waits for:
 * `statement_timeout`, `query_timeout` and `connectionTimeoutMillis`.
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * import { createPostgresStore } from 'channel-webhooks/postgres';
 *
 * const pool = new pg.Pool({
 *   connectionString: process.env.DATABASE_URL,
 *   statement_timeout: 5_000,
 *   connectionTimeoutMillis: 5_000,
 * });
 * pool.on('error', (error) => console.error('idle PostgreSQL connection failed', error));
 * const store = createPostgresStore({ pool, tablePrefix: 'channel_webhooks_' });
 * await store.migrate();
 * await store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
 * ```
 */
export function createPostgresStore(options: PostgresStoreOptions): PostgresStore {
  const { prefix: p, timeoutMs, channels: c, maxConcurrentLookups, maxQueuedLookups, preparedStatements } = resolveOptions(options);
  const { pool } = options;
  const lookup = createLookupGate(maxConcurrentLookups, maxQueuedLookups);
  const channelColumns = `${c.id}::text AS id, ${c.ownerId}::text AS owner_id, coalesce(${c.archived}, false) AS archived`;
  const getWebhookSql = `SELECT ${WEBHOOK_JSON} AS webhook FROM ${p}webhooks WHERE id = $1`;
  const insertMessageSql = guardedInsertSql(p, c);
  // One name per statement text: stores with other table prefixes or channel sources may share the
  // pool, and node-postgres refuses one name for two texts on a connection.
  const names = new Map<string, string>();
  // Turned off for good when the server loses track of a prepared statement: a pooler between the
  // pool and PostgreSQL that does not keep them (PgBouncer in transaction mode before 1.21).
  let prepare = preparedStatements;
  const send = (what: string, text: string, values: unknown[], queryTimeout: number): Promise<{ rows: unknown[] }> => {
    if (!prepare) return pool.query({ text, values, query_timeout: queryTimeout });
    let name = names.get(text);
    if (name === undefined) {
      name = `channel_webhooks_${what}_${statementHash(text)}`;
      names.set(text, name);
    }
    // The server refuses such a statement at its Parse or Bind step, before running anything, so it
    // is sent again unnamed.
    return pool.query({ name, text, values, query_timeout: queryTimeout }).catch((error: unknown) => {
      if (!lostPreparedStatement(error)) throw error;
      prepare = false;
      return pool.query({ text, values, query_timeout: queryTimeout });
    });
  };

  const query = async <Row>(what: string, text: string, values: unknown[]): Promise<Row[]> => {
    const result = await withDeadline(send(what, text, values, timeoutMs), timeoutMs, what);
    return result.rows as Row[];
  };

  return {
    async migrate() {
      // One simple-protocol query runs as one transaction; the advisory lock keeps instances that
      // start together from racing on CREATE … IF NOT EXISTS, which is not safe concurrently.
      const sql = `SELECT pg_advisory_xact_lock(${lockKey(p)});\n${postgresSchema({ tablePrefix: p })}`;
      await withDeadline(pool.query({ text: sql, query_timeout: MIGRATE_TIMEOUT_MS }), MIGRATE_TIMEOUT_MS, 'migrate');
    },

    async putChannel(channel) {
      await query(
        'putChannel',
        `INSERT INTO ${c.table} (${c.id}, ${c.ownerId}, ${c.archived}) VALUES ($1, $2, $3)
         ON CONFLICT (${c.id}) DO UPDATE SET ${c.ownerId} = EXCLUDED.${c.ownerId}, ${c.archived} = EXCLUDED.${c.archived}`,
        [channel.id, channel.ownerId, channel.archived],
      );
    },

    async listMessages(channelId) {
      const rows = await query<{ message: string }>('listMessages', `SELECT ${MESSAGE_JSON} AS message FROM ${p}messages WHERE channel_id = $1 ORDER BY seq`, [
        channelId,
      ]);
      return rows.map((row) => toMessage(row.message));
    },

    async getChannel(channelId) {
      const rows = await query<{ id: string; owner_id: string; archived: boolean }>(
        'getChannel',
        `SELECT ${channelColumns} FROM ${c.table} WHERE ${c.id} = $1`,
        [channelId],
      );
      const row = rows[0];
      return row === undefined ? null : { id: row.id, ownerId: row.owner_id, archived: row.archived };
    },

    async insertWebhook(webhook) {
      await query(
        'insertWebhook',
        `INSERT INTO ${p}webhooks (id, channel_id, name, secret_hash, created_by, created_at, rotated_at, revoked_at, last_post_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          webhook.id,
          webhook.channelId,
          webhook.name,
          webhook.secretHash,
          webhook.createdBy,
          webhook.createdAt,
          webhook.rotatedAt,
          webhook.revokedAt,
          webhook.lastPostAt,
        ],
      );
    },

    async getWebhook(webhookId): Promise<WebhookRecord | null> {
      // A slot is held until the query itself settles, so the gate bounds the connections lookups
      // occupy. The deadline covers the wait for a slot too, and a lookup whose time ran out while
      // it waited gives the slot back without querying.
      const deadline = Date.now() + timeoutMs;
      const gated = lookup(() => {
        const left = deadline - Date.now();
        if (left <= 0) return Promise.reject(new ChannelWebhookError('store_timeout', `PostgreSQL store: getWebhook waited ${timeoutMs} ms for a lookup slot`));
        return send('getWebhook', getWebhookSql, [webhookId], left);
      });
      const rows = (await withDeadline(gated, timeoutMs, 'getWebhook')).rows as { webhook: string }[];
      return rows[0] === undefined ? null : toWebhook(rows[0].webhook);
    },

    async listWebhooks(channelId) {
      const rows = await query<{ webhook: string }>(
        'listWebhooks',
        `SELECT ${WEBHOOK_JSON} AS webhook FROM ${p}webhooks WHERE channel_id = $1 ORDER BY created_at, seq`,
        [channelId],
      );
      return rows.map((row) => toWebhook(row.webhook));
    },

    async updateWebhookSecret(webhookId, secretHash, rotatedAt): Promise<WebhookRecord | null> {
      const rows = await query<{ webhook: string }>(
        'updateWebhookSecret',
        `UPDATE ${p}webhooks SET secret_hash = $2, rotated_at = $3
         WHERE id = $1 AND revoked_at IS NULL
         RETURNING ${WEBHOOK_JSON} AS webhook`,
        [webhookId, secretHash, rotatedAt],
      );
      return rows[0] === undefined ? null : toWebhook(rows[0].webhook);
    },

    async revokeWebhook(webhookId, revokedAt): Promise<WebhookRecord | null> {
      const rows = await query<{ webhook: string }>(
        'revokeWebhook',
        `UPDATE ${p}webhooks SET revoked_at = COALESCE(revoked_at, $2)
         WHERE id = $1
         RETURNING ${WEBHOOK_JSON} AS webhook`,
        [webhookId, revokedAt],
      );
      return rows[0] === undefined ? null : toWebhook(rows[0].webhook);
    },

    async insertMessage({ message, idempotencyKey, secretHash, postedAt }): Promise<InsertMessageResult> {
      // One statement, so the guard and the write are one atomic step:
      // - `w` locks the webhook row FOR NO KEY UPDATE, found by id alone: when a revocation or
      //   rotation holds the row, the lock waits for it to commit and then yields the row's newest
      //   version, so `active` is judged on what was committed last, never on this statement's older
      //   snapshot. A revocation or rotation that comes later waits for this post to commit.
      //   Posts to one webhook serialize here, which its rate limit makes cheap.
      // - `c` locks the channel row FOR SHARE, only for an active webhook, and likewise reads its
      //   newest version: an archival waits for the post or the post sees it. The webhook is always
      //   locked before the channel, and the store's own writes each take one row, so posts, rotations,
      //   revocations and archivals cannot deadlock.
      // - The insert uses ON CONFLICT DO UPDATE (a no-op write) rather than DO NOTHING: DO NOTHING
      //   returns no row for a key that a concurrent transaction committed after this statement's
      //   snapshot, and a second SELECT would be another round trip. DO UPDATE returns the stored
      //   row; `xmax = 0` tells a fresh insert from the earlier row.
      // - `touch` sets last_post_at only when a message was created.
      // - Only a duplicate sends the stored message back (as one JSON array): a created row holds
      //   exactly the message sent, which is the answer then.
      const rows = await query<{ inserted: boolean | null; earlier: string | null; active: boolean | null; archived: boolean | null }>(
        'insertMessage',
        insertMessageSql,
        [
          message.id,
          message.channelId,
          message.author.id,
          message.author.name,
          JSON.stringify(message.body),
          JSON.stringify(message.blocks),
          message.createdAt,
          idempotencyKey === null ? null : JSON.stringify(idempotencyKey),
          secretHash,
          postedAt,
        ],
      );
      const row = rows[0]!;
      if (row.active !== true) return { outcome: 'webhook_inactive' };
      if (row.archived === null) return { outcome: 'channel_not_found' };
      if (row.archived) return { outcome: 'channel_archived' };
      return row.inserted === true ? { outcome: 'created', message } : { outcome: 'duplicate', message: toMessage(row.earlier!) };
    },
  };
}

// A stable 31-bit key per table prefix, so migrations of different prefixes do not wait on each other.
function lockKey(prefix: string): number {
  let hash = 0x6368;
  for (let i = 0; i < prefix.length; i++) hash = (Math.imul(hash, 31) + prefix.charCodeAt(i)) | 0;
  return hash & 0x7fffffff;
}

/** The guarded insert (see `insertMessage`), for a table prefix and a channel source. */
function guardedInsertSql(p: string, c: ResolvedOptions['channels']): string {
  return `WITH w AS MATERIALIZED (
     SELECT channel_id, (revoked_at IS NULL AND secret_hash = $9) AS active
     FROM ${p}webhooks WHERE id = $3
     FOR NO KEY UPDATE
   ), c AS MATERIALIZED (
     SELECT coalesce(ch.${c.archived}, false) AS archived
     FROM ${c.table} ch JOIN w ON ch.${c.id} = w.channel_id
     WHERE w.active
     FOR SHARE OF ch
   ), ins AS (
     INSERT INTO ${p}messages (id, channel_id, webhook_id, author_name, body, blocks, created_at, idempotency_key)
     SELECT $1, $2, $3, $4, $5::json, $6::json, $7::timestamptz, $8 FROM c WHERE c.archived IS FALSE
     ON CONFLICT (webhook_id, idempotency_key) DO UPDATE SET idempotency_key = EXCLUDED.idempotency_key
     RETURNING (xmax = 0) AS inserted, CASE WHEN xmax = 0 THEN NULL ELSE ${MESSAGE_JSON} END AS earlier
   ), touch AS (
     UPDATE ${p}webhooks SET last_post_at = $10 WHERE id = $3 AND EXISTS (SELECT 1 FROM ins WHERE inserted)
   )
   SELECT ins.*, (SELECT active FROM w) AS active, (SELECT bool_or(archived) FROM c) AS archived
   FROM (VALUES (1)) one LEFT JOIN ins ON true`;
}

// FNV-1a of a statement's text, in base 36: part of its prepared statement's name.
function statementHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return `${(hash >>> 0).toString(36)}${text.length.toString(36)}`;
}

// 26000: the named statement does not exist on the server's connection; 42P05: another statement
// of that name does. Both mean the session the pool prepared it in is not the one that runs it.
function lostPreparedStatement(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '26000' || code === '42P05';
}
