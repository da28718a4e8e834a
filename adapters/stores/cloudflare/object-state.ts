import { createSqliteStatements, MESSAGE_COLUMNS, toMessage, type SqliteRow } from '../sql/index.js';
import {
  ChannelWebhookError,
  cursorExpired,
  isFolded,
  minuteOf,
  POST_HISTORY_LIMIT,
  type Channel,
  type FeedPage,
  type InsertMessageInput,
  type InsertMessageResult,
  type Message,
  type PostRecord,
  type RateLimitDecision,
  type ReadFeedOptions,
  type WebhookProfileChange,
  type WebhookRecord,
} from '../../../src/store-kit/index.js';
import { OBJECT_SCHEMA_VERSION, objectMigrationsAfter } from './object-schema.js';
import type { DurableObjectStorageLike } from './storage-types.js';

/** The answer about a webhook whose id names this object while the webhook lives in another: its shard. */
export interface Route {
  routedTo: string;
}

/**
 * What one webhook object does, each operation one synchronous step over its own SQLite database:
 * the object runs one at a time, and every write is one `transactionSync`, so the checks and the
 * writes of an operation are atomic and nothing is ever half-written.
 */
export interface ObjectState {
  putChannel(channel: Channel): null;
  getChannel(channelId: string): Channel | null;
  listMessages(channelId: string): Message[];
  insertWebhook(webhook: WebhookRecord): null;
  claimRoute(webhookId: string, shard: string): null;
  getWebhook(webhookId: string): WebhookRecord | null | Route;
  listWebhooks(channelId: string): WebhookRecord[];
  updateWebhookSecret(webhookId: string, secretHash: string, rotatedAt: number): WebhookRecord | null | Route;
  revokeWebhook(webhookId: string, revokedAt: number): WebhookRecord | null | Route;
  updateWebhookProfile(webhookId: string, change: WebhookProfileChange): WebhookRecord | null | Route;
  insertMessage(input: InsertMessageInput): InsertMessageResult;
  hit(key: string, now: number, limit: number, windowMs: number): RateLimitDecision;
  recordPosts(records: readonly PostRecord[]): null;
  listPosts(webhookId: string, limit: number): PostRecord[];
  readFeed(options: ReadFeedOptions): FeedPage;
  pruneMessages(before: number, limit: number): number;
}

/** The operations another worker or object may call, by name. */
export type Operation = keyof ObjectState;

export const OPERATIONS: ReadonlySet<string> = new Set<Operation>([
  'putChannel',
  'getChannel',
  'listMessages',
  'insertWebhook',
  'claimRoute',
  'getWebhook',
  'listWebhooks',
  'updateWebhookSecret',
  'revokeWebhook',
  'updateWebhookProfile',
  'insertMessage',
  'hit',
  'recordPosts',
  'listPosts',
  'readFeed',
  'pruneMessages',
]);

type Row = SqliteRow;

/**
 * Brings the object's schema up to {@link OBJECT_SCHEMA_VERSION}, in one transaction, and refuses
 * (`schema_too_new`) a database that a newer release already migrated further.
 */
export function migrateObjectSchema(storage: DurableObjectStorageLike): void {
  const { sql } = storage;
  storage.transactionSync(() => {
    sql.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY)');
    const current = Number(
      sql.exec('SELECT coalesce(max(version), 0) AS version FROM schema_migrations').toArray()[0]!.version,
    );
    if (current > OBJECT_SCHEMA_VERSION) {
      throw new ChannelWebhookError(
        'schema_too_new',
        `Durable Object store: this object's schema is at version ${current}, newer than this release's ${OBJECT_SCHEMA_VERSION}: deploy the newer channel-webhooks`,
      );
    }
    for (const step of objectMigrationsAfter(current)) {
      for (const statement of step.sql.split(/;\s*\n/)) if (statement.trim() !== '') sql.exec(statement);
      sql.exec('INSERT INTO schema_migrations (version) VALUES (?)', step.version);
    }
  });
}

/**
 * The operations of one object over its storage. An object is made by its first call, and anyone
 * may post to a URL of the right shape, whose webhook id names an object: so an object without a
 * schema gets one only from a write of its own data (a channel, a webhook, a route, a rate window,
 * post records), and answers every read, and every change of a webhook it cannot hold, with the
 * empty answer, creating nothing. An object that has a schema brings it up to date now, as it starts.
 */
export function createObjectState(storage: DurableObjectStorageLike): ObjectState {
  let migrated = hasSchema(storage);
  if (migrated) migrateObjectSchema(storage);
  const state = createSchemaState(storage);
  const migrate = (): ObjectState => {
    if (!migrated) {
      migrateObjectSchema(storage);
      migrated = true;
    }
    return state;
  };
  return {
    putChannel: (channel) => migrate().putChannel(channel),
    insertWebhook: (webhook) => migrate().insertWebhook(webhook),
    claimRoute: (webhookId, shard) => migrate().claimRoute(webhookId, shard),
    hit: (key, now, limit, windowMs) => migrate().hit(key, now, limit, windowMs),
    recordPosts: (records) => migrate().recordPosts(records),
    getChannel: (channelId) => (migrated ? state.getChannel(channelId) : null),
    listMessages: (channelId) => (migrated ? state.listMessages(channelId) : []),
    getWebhook: (webhookId) => (migrated ? state.getWebhook(webhookId) : null),
    listWebhooks: (channelId) => (migrated ? state.listWebhooks(channelId) : []),
    updateWebhookSecret: (webhookId, secretHash, rotatedAt) =>
      migrated ? state.updateWebhookSecret(webhookId, secretHash, rotatedAt) : null,
    revokeWebhook: (webhookId, revokedAt) => (migrated ? state.revokeWebhook(webhookId, revokedAt) : null),
    updateWebhookProfile: (webhookId, change) => (migrated ? state.updateWebhookProfile(webhookId, change) : null),
    insertMessage: (input) => (migrated ? state.insertMessage(input) : { outcome: 'webhook_inactive' }),
    listPosts: (webhookId, limit) => (migrated ? state.listPosts(webhookId, limit) : []),
    readFeed(options) {
      if (migrated) return state.readFeed(options);
      // No message was ever stored here: only the cursor before the first one is one of this object's.
      if (options.after !== undefined && parseFeedCursor(options.after) !== 0) throw invalidCursor(options.after);
      return { entries: [], heldBack: false };
    },
    pruneMessages: (before, limit) => (migrated ? state.pruneMessages(before, limit) : 0),
  };
}

/** Whether the object's database has the library's schema, at any version: its table of versions. */
function hasSchema(storage: DurableObjectStorageLike): boolean {
  return (
    storage.sql
      .exec("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
      .toArray().length > 0
  );
}

/** The operations of one object over its storage, whose schema {@link migrateObjectSchema} set up. */
function createSchemaState(storage: DurableObjectStorageLike): ObjectState {
  const { sql } = storage;
  const rows = (query: string, ...bindings: unknown[]): Row[] => sql.exec(query, ...bindings).toArray();
  const first = (query: string, ...bindings: unknown[]): Row | undefined => rows(query, ...bindings)[0];
  const write = <T>(work: () => T): T => storage.transactionSync(work);
  // The object's own tables have no prefix: the database is the object's alone.
  const statements = createSqliteStatements(
    { run: (query, ...bindings) => void sql.exec(query, ...bindings), get: first, all: rows },
    '',
  );
  const routeOf = (webhookId: string): Route | null => {
    const row = first('SELECT shard FROM webhook_routes WHERE id = ?', webhookId);
    return row === undefined ? null : { routedTo: String(row.shard) };
  };
  // An operation on one webhook: here when it lives here, else where its route leads.
  const onWebhook = <T>(webhookId: string, work: () => T | null): T | null | Route =>
    (routeOf(webhookId) ?? write(work)) as T | null | Route;
  const webhookTaken = (webhookId: string): boolean =>
    first(
      'SELECT 1 AS taken FROM webhooks WHERE id = ? UNION ALL SELECT 1 FROM webhook_routes WHERE id = ?',
      webhookId,
      webhookId,
    ) !== undefined;

  return {
    putChannel(channel) {
      write(() => statements.putChannel(channel));
      return null;
    },

    getChannel: statements.getChannel,
    listMessages: statements.listMessages,

    insertWebhook(webhook) {
      write(() => {
        if (webhookTaken(webhook.id))
          throw new ChannelWebhookError(
            'store_failed',
            `Durable Object store: insertWebhook failed: the id ${webhook.id} is taken`,
          );
        statements.insertWebhook(webhook);
      });
      return null;
    },

    claimRoute(webhookId, shard) {
      write(() => {
        const route = routeOf(webhookId);
        if (route?.routedTo === shard) return;
        if (route !== null || statements.getWebhook(webhookId) !== null) {
          throw new ChannelWebhookError(
            'store_failed',
            `Durable Object store: insertWebhook failed: the id ${webhookId} is taken`,
          );
        }
        sql.exec('INSERT INTO webhook_routes (id, shard) VALUES (?, ?)', webhookId, shard);
      });
      return null;
    },

    getWebhook: (webhookId) => routeOf(webhookId) ?? statements.getWebhook(webhookId),
    listWebhooks: statements.listWebhooks,
    updateWebhookSecret: (webhookId, secretHash, rotatedAt) =>
      onWebhook(webhookId, () => statements.updateWebhookSecret(webhookId, secretHash, rotatedAt)),
    revokeWebhook: (webhookId, revokedAt) => onWebhook(webhookId, () => statements.revokeWebhook(webhookId, revokedAt)),
    updateWebhookProfile: (webhookId, change) =>
      onWebhook(webhookId, () => statements.updateWebhookProfile(webhookId, change)),

    // The guarded insert: the checks and the writes are one transaction of an object that runs one
    // thing at a time, so a revocation, rotation or archival that completed is always seen, and of
    // N posts racing with one key exactly one stores its message.
    insertMessage: (input) => write(() => statements.insertMessage(input)),

    // The exact sliding window: drop what left it, count the rest, record this request when allowed.
    hit(key, now, limit, windowMs) {
      return write((): RateLimitDecision => {
        sql.exec('DELETE FROM rate_hits WHERE key = ? AND expires_at <= ?', key, now);
        const counted = first('SELECT count(*) AS count, min(expires_at) AS first FROM rate_hits WHERE key = ?', key)!;
        let count = Number(counted.count);
        let earliest = counted.first === null ? null : Number(counted.first);
        const allowed = count < limit;
        if (allowed) {
          const expiresAt = now + windowMs;
          sql.exec('INSERT INTO rate_hits (key, expires_at) VALUES (?, ?)', key, expiresAt);
          count++;
          if (earliest === null || expiresAt < earliest) earliest = expiresAt;
        }
        return { allowed, limit, windowMs, remaining: Math.max(0, limit - count), resetMs: earliest! - now };
      });
    },

    recordPosts(records) {
      write(() => {
        for (const record of records) {
          // A minute's 415s are one record, and so are its 429s: `minute` marks such a record.
          const minute = isFolded(record.status) ? minuteOf(record.at) : null;
          const same =
            minute === null
              ? undefined
              : first(
                  "SELECT seq, record FROM post_history WHERE webhook_id = ? AND minute = ? AND json_extract(record, '$.status') = ?",
                  record.webhookId,
                  minute,
                  record.status,
                );
          if (same !== undefined) {
            const kept = JSON.parse(String(same.record)) as PostRecord;
            sql.exec(
              'UPDATE post_history SET record = ? WHERE seq = ?',
              JSON.stringify({ ...kept, count: kept.count + record.count }),
              same.seq,
            );
            continue;
          }
          sql.exec(
            'INSERT INTO post_history (webhook_id, record, minute) VALUES (?, ?, ?)',
            record.webhookId,
            JSON.stringify(record),
            minute,
          );
          sql.exec(
            'DELETE FROM post_history WHERE webhook_id = ? AND seq NOT IN (SELECT seq FROM post_history WHERE webhook_id = ? ORDER BY seq DESC LIMIT ?)',
            record.webhookId,
            record.webhookId,
            POST_HISTORY_LIMIT,
          );
        }
      });
      return null;
    },

    listPosts(webhookId, limit) {
      return rows(
        'SELECT record FROM post_history WHERE webhook_id = ? ORDER BY seq DESC LIMIT ?',
        webhookId,
        limit,
      ).map((row) => JSON.parse(String(row.record)) as PostRecord);
    },

    // The channel's feed in `seq` order. Every write of this object is committed before the next
    // one starts, so no stored message can come before one already read: nothing is ever held back.
    readFeed({ channelId, after, limit }) {
      const from = after === undefined ? 0 : feedPosition(after);
      const entries = rows(
        `SELECT seq, ${MESSAGE_COLUMNS} FROM messages WHERE channel_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
        channelId,
        from,
        limit,
      ).map((row) => ({ cursor: feedCursor(Number(row.seq)), message: toMessage(row) }));
      if (after !== undefined && from < prunedSeq())
        throw cursorExpired('Durable Object store', 'messages after it were pruned');
      return { entries, heldBack: false };
    },

    // The oldest messages, in `seq` order, while they were created before `before`: it reads at
    // most `limit` rows and stops at the first younger one, so that one call never holds the object
    // (which runs one thing at a time) for a scan of the whole table. What it deletes is then all
    // of `seq` up to the mark, and a cursor at the mark or after it has lost nothing.
    pruneMessages(before, limit) {
      return write(() => {
        const newest = Number(first('SELECT coalesce(max(seq), 0) AS seq FROM messages')!.seq);
        let through = 0;
        let count = 0;
        for (const row of rows('SELECT seq, created_at FROM messages ORDER BY seq LIMIT ?', limit)) {
          const seq = Number(row.seq);
          if (Date.parse(String(row.created_at)) >= before || seq === newest) break;
          through = seq;
          count++;
        }
        if (count === 0) return 0;
        sql.exec('DELETE FROM messages WHERE seq <= ?', through);
        sql.exec('UPDATE feed SET pruned_seq = ? WHERE id = 1 AND pruned_seq < ?', through, through);
        return count;
      });
    },
  };

  function prunedSeq(): number {
    return Number(first('SELECT pruned_seq FROM feed WHERE id = 1')!.pruned_seq);
  }

  function feedPosition(cursor: string): number {
    const position = parseFeedCursor(cursor);
    const highest = Number(first('SELECT coalesce(max(seq), 0) AS seq FROM messages')!.seq);
    if (position > highest) throw invalidCursor(cursor);
    return position;
  }
}

/** A feed cursor: the message's `seq`, 16 hex digits, so that cursors compare as strings in reading order. */
export function feedCursor(seq: number): string {
  return seq.toString(16).padStart(16, '0');
}

/** The `seq` of a cursor, or `invalid_cursor` for a string that is none. */
export function parseFeedCursor(cursor: string): number {
  if (!/^[0-9a-f]{16}$/.test(cursor)) throw invalidCursor(cursor);
  return Number.parseInt(cursor, 16);
}

function invalidCursor(cursor: string): ChannelWebhookError {
  return new ChannelWebhookError(
    'invalid_cursor',
    `Durable Object store: readFeed: ${JSON.stringify(cursor)} is not a cursor this store gave out`,
  );
}
