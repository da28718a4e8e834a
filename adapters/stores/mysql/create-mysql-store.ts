import {
  ChannelWebhookError,
  type Async,
  type Channel,
  type InsertMessageResult,
  type Message,
  type StoreMethods,
  type WebhookRecord,
} from '../../../src/store-kit/index.js';
import {
  createGroupCommit,
  createLookupGate,
  createProvenCredentials,
  WEBHOOK_COLUMNS,
  webhookRowValues,
} from '../sql/index.js';
import { type BatchPost, createBatchInsert } from './batch-insert.js';
import { createGuardedInsert } from './guarded-insert.js';
import { messageWrites } from './message-writes.js';
import { createCalls, STORE, storeTimedOut, withDeadline } from './mysql-calls.js';
import { createMysqlFeed } from './mysql-feed.js';
import { createPostHistory } from './post-history.js';
import { type MysqlStoreOptions, resolveMysqlOptions } from './options.js';
import { MESSAGE_COLUMNS, toMessage, toWebhook } from './rows.js';
import { MYSQL_SCHEMA_VERSION, migrationsAfter } from './schema.js';

/**
 * The MySQL store, with the extra methods of the reference stores, its feed and its migration.
 *
 * @example
 * ```ts
 * const store: MysqlStore = createMysqlStore({ pool });
 * await store.migrate();
 * const messages = await store.listMessages('general');
 * ```
 */
export interface MysqlStore extends Async<StoreMethods> {
  /**
   * Creates or upgrades the tables: each step of the schema once, recorded in
   * `<prefix>migrations`, under `GET_LOCK` so that instances starting together take turns. Safe to
   * run on every start. Tables of a newer schema than this release's are refused with code
   * `schema_too_new`, and nothing is changed.
   */
  migrate(): Promise<void>;
  /** Creates or replaces a channel in the table the store reads channels from (its own, or `channels`). */
  putChannel(channel: Channel): Promise<void>;
  /** The channel's messages, oldest first. */
  listMessages(channelId: string): Promise<Message[]>;
  /**
   * Deletes up to `limit` (default 1,000) messages created before `before` (epoch ms), oldest
   * first, and answers how many; a cursor before one of them then gets `cursor_expired`. Call it
   * until it answers 0 to remove them all.
   */
  pruneMessages(before: number, limit?: number): Promise<number>;
  /**
   * Calls `listener` with the channel of each message this store stores, right after its commit,
   * and without one when the feed's counter moved (another instance stored one), or was first read:
   * while anything watches, the store reads that one row every `feedCheckMs`, on a timer that does
   * not keep the process alive. With a `notifier`, another instance's commit wakes it when
   * announced, and the row is read only while the notifier is down.
   */
  watchFeed(listener: (channelId?: string) => void): () => void;
}

const MIGRATE_TIMEOUT_MS = 60_000;
// Credentials remembered as proven (see `createProvenCredentials`): about 1.5 MB at most.
const PROVEN_CREDENTIALS = 10_000;
// The most posts (or lookups) one transaction (or query) carries. A batch holds the row locks of
// its webhooks until it commits, so its size bounds how long one post can wait behind others' rows.
const MAX_BATCH = 64;
// One batch of each kind out at a time gathers the most posts per transaction; a batch out longer
// than 25 ms may be waiting on a lock (the app's row, the feed's counter) or a busy server, and then
// others may go beside it, four at most, so that the posts behind it are not held up and batches
// take at most four of the pool's connections (posts sent alone take their own).
const GROUP_COMMIT = { maxSize: MAX_BATCH, inFlight: 1, stalledAfterMs: 25, most: 4 };

/**
 * A `WebhookStore` on MySQL 8 or MariaDB 10.11 (or later), shared by any number of
 * instances, over a `mysql2/promise` pool.
 *
 * The guarded insert is one transaction: it locks the webhook row (the `UPDATE` of its
 * `last_post_at`, undone when the post is refused) and then its channel's, shared
 * (`LOCK IN SHARE MODE`), reads both at their newest committed versions, stores only if the webhook
 * still answers to the post's secret and the channel is active, and keeps a key once per webhook
 * with a unique index: N racing posts with one key, on any number of instances, store one message
 * and all get it back. Revocations, rotations and archivals wait for a post in flight, or the post
 * sees them. The message takes its place in the feed from one counter row, under its lock, right
 * before its commit, so places commit in order and the feed never skips a message (see
 * `mysqlSchema`). A failed or timed-out call rejects with a `ChannelWebhookError` (`store_failed`
 * or `store_timeout`) and, being one transaction, has written nothing or everything. Transactions
 * that read run at READ COMMITTED, set for each alone (with the binary log on, `binlog_format` must
 * be `ROW` or `MIXED`).
 *
 * Posts that arrive while a guarded insert is out share the next transaction, and lookups one query
 * (group commit), each with its own outcome; a post alone costs what it did. A post whose row
 * another transaction holds, or that its batch failed for, goes again alone (docs/mysql.md).
 *
 * Webhook lookups pass a bounded gate (`maxConcurrentLookups`, `maxQueuedLookups`), so a flood of
 * posts to unknown ids cannot take every connection, and a credential this store saw accepted waits
 * in a lane of its own. There is no `LISTEN`: `watchFeed` wakes at once for this store's own
 * messages, and for other instances' when its check of the feed's counter (every `feedCheckMs`)
 * sees it move, or at once through a `notifier` (`createRedisFeedNotifier`). The channels are the
 * store's own table, or the app's (`channels`), and each message can also be written into the
 * app's own messages table in the same transaction (`messages`). There is no rate limiter on
 * MySQL: use the Redis limiter, which is exact across instances. Bad options throw `ChannelWebhookError` code
 * `invalid_argument`.
 *
 * @example
 * ```ts
 * import mysql from 'mysql2/promise';
 * import { createMysqlStore } from 'channel-webhooks/mysql';
 *
 * const pool = mysql.createPool({ uri: process.env.MYSQL_URL, connectionLimit: 10 });
 * const store = createMysqlStore({ pool, tablePrefix: 'channel_webhooks_' });
 * await store.migrate();
 * await store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
 * ```
 */
export function createMysqlStore(options: MysqlStoreOptions): MysqlStore {
  const {
    prefix: p,
    timeoutMs,
    maxConcurrentLookups,
    maxQueuedLookups,
    feedCheckMs,
    channels: c,
    messages: appMessages,
  } = resolveMysqlOptions(options);
  const calls = createCalls(options.pool, timeoutMs);
  const { run, transaction } = calls;
  const gate = createLookupGate(maxConcurrentLookups, maxQueuedLookups, STORE);
  const proven = createProvenCredentials(PROVEN_CREDENTIALS);
  const feed = createMysqlFeed(calls, p, feedCheckMs, options.onError, options.notifier);
  const history = createPostHistory(calls, p);

  const sql = {
    getWebhook: `SELECT ${WEBHOOK_COLUMNS} FROM ${p}webhooks WHERE id = ?`,
    getWebhooks: (count: number) =>
      `SELECT ${WEBHOOK_COLUMNS} FROM ${p}webhooks WHERE id IN (${Array.from({ length: count }, () => '?').join(', ')})`,
    lockWebhook: `SELECT ${WEBHOOK_COLUMNS} FROM ${p}webhooks WHERE id = ? FOR UPDATE`,
    getChannel: `SELECT ${c.id} AS id, ${c.ownerId} AS owner_id, ${c.archived} AS archived FROM ${c.table} WHERE ${c.id} = ?`,
    putChannel: `INSERT INTO ${c.table} (${c.id}, ${c.ownerId}, ${c.archived}) VALUES (?, ?, ?)
         ON DUPLICATE KEY UPDATE ${c.ownerId} = VALUES(${c.ownerId}), ${c.archived} = VALUES(${c.archived})`,
  };

  // Lookups and guarded inserts that arrive while others are out go together (see
  // `createGroupCommit`): a batch of one is the single query or transaction, a larger one a query
  // of the batch's ids or one transaction of its posts (see `createBatchInsert`). Each call gets
  // its own outcome.
  const lookups = createGroupCommit<string, WebhookRecord | null>(
    GROUP_COMMIT,
    async (ids, deadline) => {
      const ms = Math.max(1, deadline - Date.now());
      if (ids.length === 1) return [toWebhook((await run('getWebhook', sql.getWebhook, ids, ms)).rows[0])];
      const found = new Map(
        (await run('getWebhook', sql.getWebhooks(ids.length), ids, ms)).rows.map((row) => [String(row.id), row]),
      );
      return ids.map((id) => toWebhook(found.get(id)));
    },
    () => storeTimedOut('getWebhook', timeoutMs),
  );
  const writes = messageWrites(p, appMessages);
  const single = createGuardedInsert(calls, p, c, writes, feed.stored);
  const batch = createBatchInsert(calls, p, c, writes, single, feed.stored);
  const inserts = createGroupCommit<BatchPost, InsertMessageResult>(
    GROUP_COMMIT,
    async (posts, deadline) =>
      posts.length === 1 ? [await single(posts[0]!.post, posts[0]!.deadline)] : batch(posts, deadline),
    () => storeTimedOut('insertMessage', timeoutMs),
  );

  /** A change of one webhook row: locked, judged by `change` (null: nothing to change), then written. */
  const changeWebhook = (
    what: string,
    webhookId: string,
    change: (webhook: WebhookRecord) => { set: string; values: unknown[]; result: WebhookRecord } | null,
  ) =>
    transaction<WebhookRecord | null>(what, async (tx) => {
      const webhook = toWebhook((await tx(sql.lockWebhook, [webhookId])).rows[0]);
      if (webhook === null) return { value: null, commit: false };
      const next = change(webhook);
      if (next === null) return { value: webhook.revokedAt === null ? webhook : null, commit: false };
      await tx(`UPDATE ${p}webhooks SET ${next.set} WHERE id = ?`, [...next.values, webhookId]);
      return { value: next.result, commit: true };
    });

  return {
    async migrate() {
      await transaction(
        'migrate',
        async (tx) => {
          // GET_LOCK is the connection's, not the transaction's: released at the end, whatever happens.
          const lock = `channel_webhooks_migrate_${p}`;
          const [got] = (await tx('SELECT GET_LOCK(?, 60) AS got', [lock])).rows;
          if (Number(got?.got) !== 1) throw new Error(`could not take the lock ${lock} within 60 s`);
          try {
            await tx(`CREATE TABLE IF NOT EXISTS ${p}migrations (version INT NOT NULL PRIMARY KEY) ENGINE=InnoDB`);
            const [row] = (await tx(`SELECT COALESCE(MAX(version), 0) AS version FROM ${p}migrations`)).rows;
            const current = Number(row?.version ?? 0);
            if (current > MYSQL_SCHEMA_VERSION)
              throw new ChannelWebhookError(
                'schema_too_new',
                `${STORE}: the tables of prefix '${p}' are at schema version ${current}, newer than this release's ${MYSQL_SCHEMA_VERSION}: upgrade channel-webhooks`,
              );
            // Each DDL statement commits by itself; a step cut short runs again whole, its
            // statements being `IF NOT EXISTS` or `INSERT IGNORE`.
            for (const step of migrationsAfter(current, p)) {
              for (const statement of step.statements) await tx(statement);
              await tx(`INSERT INTO ${p}migrations (version) VALUES (?)`, [step.version]);
            }
          } finally {
            await tx('SELECT RELEASE_LOCK(?)', [lock]);
          }
          return { value: undefined, commit: true };
        },
        { ms: MIGRATE_TIMEOUT_MS },
      );
    },

    async putChannel(channel) {
      await run('putChannel', sql.putChannel, [channel.id, channel.ownerId, channel.archived]);
    },

    listMessages: async (channelId) =>
      (
        await run('listMessages', `SELECT ${MESSAGE_COLUMNS} FROM ${p}messages WHERE channel_id = ? ORDER BY seq`, [
          channelId,
        ])
      ).rows.map(toMessage),

    async getChannel(channelId) {
      const [row] = (await run('getChannel', sql.getChannel, [channelId])).rows;
      return row === undefined
        ? null
        : { id: String(row.id), ownerId: String(row.owner_id), archived: Number(row.archived) !== 0 };
    },

    async insertWebhook(webhook) {
      await run(
        'insertWebhook',
        `INSERT INTO ${p}webhooks (${WEBHOOK_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        webhookRowValues(webhook),
      );
      if (webhook.revokedAt === null) proven.prove(webhook.id, webhook.secretHash);
    },

    getWebhook(webhookId, presentedSecretHash) {
      // A slot is held until the lookup's batch settles, so the gate bounds the lookups out at once.
      // The lane is chosen by the whole presented credential: a wrong secret for a real id waits
      // where an unknown id waits, so neither the answer nor its odds tell them apart. A lookup
      // joins only a batch not yet sent, so it never reads a webhook as it was before it was asked.
      const deadline = Date.now() + timeoutMs;
      return withDeadline(
        gate(proven.has(webhookId, presentedSecretHash), () => lookups(webhookId, deadline)),
        timeoutMs,
        'getWebhook',
      );
    },

    listWebhooks: async (channelId) =>
      (
        await run(
          'listWebhooks',
          `SELECT ${WEBHOOK_COLUMNS} FROM ${p}webhooks WHERE channel_id = ? ORDER BY created_at, seq`,
          [channelId],
        )
      ).rows.map((row) => toWebhook(row)!),

    async updateWebhookSecret(webhookId, secretHash, rotatedAt) {
      const webhook = await changeWebhook('updateWebhookSecret', webhookId, (current) =>
        current.revokedAt !== null
          ? null
          : {
              set: 'secret_hash = ?, rotated_at = ?',
              values: [secretHash, rotatedAt],
              result: { ...current, secretHash, rotatedAt },
            },
      );
      if (webhook !== null) proven.prove(webhookId, secretHash);
      return webhook;
    },

    async revokeWebhook(webhookId, revokedAt) {
      const webhook = await transaction<WebhookRecord | null>('revokeWebhook', async (tx) => {
        const current = toWebhook((await tx(sql.lockWebhook, [webhookId])).rows[0]);
        if (current === null) return { value: null, commit: false };
        if (current.revokedAt !== null) return { value: current, commit: false };
        await tx(`UPDATE ${p}webhooks SET revoked_at = ? WHERE id = ?`, [revokedAt, webhookId]);
        return { value: { ...current, revokedAt }, commit: true };
      });
      proven.forget(webhookId);
      return webhook;
    },

    updateWebhookProfile: (webhookId, change) =>
      changeWebhook('updateWebhookProfile', webhookId, (current) => {
        if (current.revokedAt !== null) return null;
        const description = change.description === undefined ? current.description : change.description;
        const avatarUrl = change.avatarUrl === undefined ? current.avatarUrl : change.avatarUrl;
        return {
          set: 'description = ?, avatar_url = ?',
          values: [description, avatarUrl],
          result: { ...current, description, avatarUrl },
        };
      }),

    async insertMessage(input) {
      const deadline = Date.now() + timeoutMs;
      const result = await withDeadline(inserts({ post: input, deadline }, deadline), timeoutMs, 'insertMessage');
      const webhookId = input.message.author.id;
      if (result.outcome === 'webhook_inactive') proven.forget(webhookId, input.secretHash);
      else if (result.outcome === 'created' || result.outcome === 'duplicate')
        proven.prove(webhookId, input.secretHash);
      return result;
    },

    recordPosts: history.record,
    listPosts: history.list,

    readFeed: feed.read,
    watchFeed: feed.watch,
    pruneMessages: feed.prune,
  };
}
