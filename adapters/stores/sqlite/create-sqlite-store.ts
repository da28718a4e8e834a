import {
  CHANNEL_SOURCE,
  countPerWebhook,
  createSqliteStatements,
  chunksOf,
  historySlotRows,
  MESSAGE_COLUMNS,
  type LastPostPlace,
  MESSAGE_MAPPING,
  orNull,
  postRecordValues,
  resolveChannelSource,
  resolveMessageMapping,
  toMessage,
  type ChannelSource,
  type MessageMapping,
  type SqliteRow,
} from '../sql/index.js';
import { checkAppTables } from './app-tables.js';
import { migrate, resolveSqliteOptions, setUpConnection, type SqliteConnectionOptions } from './options.js';
import { createSqliteRunner, type SqliteParty } from './sqlite-database.js';
import {
  BOOLEAN,
  isFolded,
  mergeFolded,
  minuteOf,
  type Async,
  type Channel,
  type InsertMessageInput,
  type InsertMessageResult,
  type Message,
  type PostRecord,
  type StoreMethods,
  type Sync,
} from '../../../src/store-kit/index.js';
import { createSqliteFeed } from './sqlite-feed.js';
import { sqliteWriterOf } from './sqlite-writer.js';

/**
 * Options of {@link createSqliteStore}.
 *
 * @example
 * ```ts
 * const options: SqliteStoreOptions = { database, tablePrefix: 'hooks_', synchronous: 'full' };
 * ```
 */
export interface SqliteStoreOptions extends SqliteConnectionOptions {
  /**
   * Group commit (default `false`): `insertMessage` and `recordPosts` answer with a promise, and
   * every write handed over in one turn of the event loop, with the decisions of a limiter made
   * with `groupCommit` on the same `database` object, goes into one transaction at the end of that
   * turn (at most 64 operations), whose commit each answer waits for. Each
   * post keeps its own outcome, exactly as alone; an operation that fails runs again alone so that
   * it fails alone. For a server with many posts in flight: one commit costs more than the posts it
   * holds. With `false` every method answers synchronously, one transaction per write.
   */
  groupCommit?: boolean;
  /**
   * Read channels from the host app's own table or view instead of the store's `<prefix>channels`:
   * `getChannel` and the guarded insert read its rows inside their transaction, so the app's own
   * `UPDATE` of an owner or an archival holds from the next call, and `putChannel` writes there
   * (which needs a unique key on the id column). The table must exist when the store is created.
   * Default: the store's table.
   */
  channels?: ChannelSource;
  /**
   * Also write each stored message as a row of the host app's own messages table, inside the
   * guarded insert's transaction (see {@link MessageMapping}); with `groupCommit`, inside the
   * batch's. The table and its columns must exist when the store is created. Default: only the
   * store's own table.
   */
  messages?: MessageMapping;
}

/**
 * The SQLite store with group commit: as {@link SqliteStore}, but its two writes of posts answer
 * with a promise, settled once the group transaction that holds them has committed.
 *
 * @example
 * ```ts
 * const store: SqliteGroupCommitStore = createSqliteStore({ database, groupCommit: true });
 * const result = await store.insertMessage({ message, idempotencyKey: null, secretHash, postedAt: Date.now() });
 * ```
 */
export interface SqliteGroupCommitStore
  extends Omit<SqliteStore, 'insertMessage' | 'recordPosts'>,
    Async<Pick<StoreMethods, 'insertMessage' | 'recordPosts'>> {}

/**
 * The SQLite store: every method of the port answering at once, the reference stores' `putChannel`
 * and `listMessages`, `pruneMessages` as the memory store has it, and its migration.
 *
 * @example
 * ```ts
 * const store: SqliteStore = createSqliteStore({ database });
 * store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
 * const messages = store.listMessages('general');
 * ```
 */
export interface SqliteStore extends Sync<StoreMethods> {
  /** Creates or replaces a channel in the store's channels table. */
  putChannel(channel: Channel): void;
  /** The channel's messages, oldest first. */
  listMessages(channelId: string): Message[];
  /** Creates or upgrades the tables (safe to run on every start, from any number of processes). */
  migrate(): void;
  /**
   * Calls `listener` with the channel of each message this store object stores, right after its
   * commit, and without one when another connection (another process on the file) committed a
   * change: while anything watches, the store asks SQLite every 100 ms whether one did
   * (`PRAGMA data_version`, which reads no page), on a timer that does not keep the process alive.
   */
  watchFeed(listener: (channelId?: string) => void): () => void;
  /**
   * As the memory store's (see `MemoryStore.pruneMessages`), but it never deletes the newest
   * message: SQLite would give its `seq` to the next message, and cursors must never come back.
   * It finds the messages to delete without holding the write lock (a scan of the table in `seq`
   * order, as far as it takes to find `limit` of them), then deletes them in one transaction.
   */
  pruneMessages(before: number, limit?: number): number;
}

interface PostRow {
  webhook_id: string;
  at: number | bigint;
  status: number | bigint;
  code: string | null;
  errors: string;
  idempotency_key: string | null;
  message_id: string | null;
  body_bytes: number | bigint | null;
  count: number | bigint;
}

const POST_COLUMNS = 'webhook_id, at, status, code, errors, idempotency_key, message_id, body_bytes, count';

/**
 * A {@link channel-webhooks!WebhookStore} in a SQLite database file: durable, with no server to run, for one process
 * or several processes on one machine sharing the file (Node's `cluster`, PM2). It runs on any
 * synchronous driver, better-sqlite3 on Node, `bun:sqlite` on Bun or `node:sqlite` where the
 * runtime has it, over a connection you open and pass in (no driver is bundled).
 *
 * Every method answers synchronously. The guarded insert (webhook active under the post's secret
 * hash, channel present and not archived, key not used yet, then the message and `lastPostAt`) is
 * one `BEGIN IMMEDIATE` transaction: it holds the file's write lock from its first read to its
 * commit, so N posts racing with one key, in any number of processes, store one message and all
 * get it back, and a revocation, rotation or archival that completed before is always seen. The
 * The post history (`recordPosts`, `listPosts`) is a ring of 100 records per webhook, each batch one
 * transaction. The journal is WAL (readers never wait for the writer) with `synchronous` as chosen: a post answered
 * 201 survives the process being killed. A write that finds the file locked waits up to
 * `busyTimeoutMs` and then throws `store_failed`, which the handler answers 500 (a retry with the
 * same key stores the message once); nothing is ever half-written.
 *
 * The factory sets the connection up and migrates at once, so a locked, read-only or too-new
 * database throws `store_failed` at start-up with the reason. Bad options throw `invalid_argument`.
 *
 * @example
 * ```ts
 * import Database from 'better-sqlite3';
 * import { createWebhookHandler } from 'channel-webhooks';
 * import { createSqliteRateLimiter, createSqliteStore } from 'channel-webhooks/sqlite';
 *
 * const database = new Database('data/webhooks.sqlite');
 * const store = createSqliteStore({ database });
 * const rateLimiter = createSqliteRateLimiter({ database });
 * store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
 * const handle = createWebhookHandler({ store, rateLimiter });
 * ```
 *
 * @example
 * ```ts
 * // Bun
 * import { Database } from 'bun:sqlite';
 * const store = createSqliteStore({ database: new Database('webhooks.sqlite') });
 * ```
 */
export function createSqliteStore(options: SqliteStoreOptions & { groupCommit: true }): SqliteGroupCommitStore;
export function createSqliteStore(options: SqliteStoreOptions & { groupCommit?: false }): SqliteStore;
export function createSqliteStore(options: SqliteStoreOptions): SqliteStore | SqliteGroupCommitStore;
export function createSqliteStore(options: SqliteStoreOptions): SqliteStore | SqliteGroupCommitStore {
  const resolved = resolveSqliteOptions('createSqliteStore', options, {
    groupCommit: BOOLEAN,
    channels: CHANNEL_SOURCE,
    messages: MESSAGE_MAPPING,
  });
  const party: SqliteParty = { name: 'SQLite store', code: 'store_failed', busyTimeoutMs: resolved.busyTimeoutMs };
  const runner = createSqliteRunner(resolved.database, party);
  const { statement, transaction, attempt } = runner;
  const p = resolved.prefix;
  const tables = {
    channels: resolveChannelSource('createSqliteStore', options.channels, `${p}channels`),
    messages: resolveMessageMapping('createSqliteStore', options.messages),
  };
  setUpConnection(resolved, runner, party);
  checkAppTables('createSqliteStore', runner, options.channels === undefined ? null : tables.channels, tables.messages);

  const feed = createSqliteFeed(runner, p, { columns: MESSAGE_COLUMNS, toMessage });
  const sql = createSqliteStatements(
    {
      run: (text, ...bindings) => void statement(text).run(...bindings),
      // bun:sqlite answers `null` for no row, the other drivers `undefined`.
      get: (text, ...bindings) => (statement(text).get(...bindings) ?? undefined) as SqliteRow | undefined,
      all: (text, ...bindings) => statement(text).all(...bindings) as SqliteRow[],
    },
    p,
    tables,
    lastPostPlace(p),
  );

  /** Appends a batch of history records to the log, inside the caller's transaction; folds a full log. */
  function appendRecords(records: readonly PostRecord[]): void {
    const values = records.map((record) => [record.webhookId, ...postRecordValues(record)]);
    for (const chunk of chunksOf(values, CHUNK)) statement(logSql(p, chunk.length)).run(...chunk.flat());
    const held = statement(`SELECT max(seq) - min(seq) + 1 AS held FROM ${p}post_log`).get() as {
      held: number | bigint;
    };
    if (Number(held.held) >= FOLD_AT) foldLog();
  }

  /**
   * Moves every record of the log into its webhook's ring, in the order they were written, and the
   * last posts' times into the heads, then empties the log, inside the caller's transaction. The
   * log is only ever emptied whole, so its `seq`s run without a gap and `max - min + 1` is its length.
   */
  function foldLog(): void {
    foldTimes();
    const rows = statement(`SELECT ${POST_COLUMNS} FROM ${p}post_log ORDER BY seq`).all() as PostRow[];
    if (rows.length === 0) return;
    writeRings(rows.map(toPostRecord));
    statement(`DELETE FROM ${p}post_log`).run();
  }

  /**
   * Moves the times of the last posts into the history heads, inside the caller's transaction: with
   * the log's records, so that a fold writes each head's page once for both.
   */
  function foldTimes(): void {
    statement(
      `INSERT INTO ${p}post_heads (webhook_id, next, last_post_at) SELECT webhook_id, 0, at FROM ${p}post_times WHERE true
       ON CONFLICT (webhook_id) DO UPDATE SET last_post_at = excluded.last_post_at`,
    ).run();
    statement(`DELETE FROM ${p}post_times`).run();
  }

  /** Writes a batch of history records into the rings, inside the caller's transaction. */
  function writeRings(records: readonly PostRecord[]): void {
    const fresh: PostRecord[] = [];
    for (const record of mergeFolded(records)) {
      // A minute's 415s are one record, and so are its 429s: added to it when it is still in the ring.
      if (isFolded(record.status)) {
        const added = statement(
          `UPDATE ${p}posts SET count = count + ?, at = min(at, ?) WHERE webhook_id = ? AND status = ? AND at / 60000 = ? RETURNING 1 AS added`,
        ).get(record.count, record.at, record.webhookId, record.status, minuteOf(record.at));
        if (added != null) continue;
      }
      fresh.push(record);
    }
    // Each webhook's next positions, taken for the whole batch in one statement per 32 webhooks;
    // then the records, 32 to a statement: each statement call costs more than its rows.
    const counts = countPerWebhook(fresh);
    const headAfter = new Map<string, number>();
    for (const chunk of chunksOf([...counts], CHUNK)) {
      const rows = statement(headsSql(p, chunk.length)).all(...chunk.flat()) as Array<{
        webhook_id: string;
        next: number | bigint;
      }>;
      for (const row of rows) headAfter.set(row.webhook_id, Number(row.next));
    }
    const values = historySlotRows(fresh, counts, headAfter);
    for (const chunk of chunksOf(values, CHUNK)) statement(postsSql(p, chunk.length)).run(...chunk.flat());
  }

  const store: SqliteStore = {
    migrate: () => migrate(resolved, runner, party),

    putChannel: (channel) => transaction('putChannel', () => sql.putChannel(channel)),
    listMessages: (channelId) => attempt('listMessages', () => sql.listMessages(channelId)),
    getChannel: (channelId) => attempt('getChannel', () => sql.getChannel(channelId)),
    insertWebhook: (webhook) => transaction('insertWebhook', () => sql.insertWebhook(webhook)),
    getWebhook: (webhookId) => attempt('getWebhook', () => sql.getWebhook(webhookId)),
    listWebhooks: (channelId) => attempt('listWebhooks', () => sql.listWebhooks(channelId)),
    updateWebhookSecret: (webhookId, secretHash, rotatedAt) =>
      transaction('updateWebhookSecret', () => sql.updateWebhookSecret(webhookId, secretHash, rotatedAt)),
    revokeWebhook: (webhookId, revokedAt) =>
      transaction('revokeWebhook', () => sql.revokeWebhook(webhookId, revokedAt)),
    updateWebhookProfile: (webhookId, change) =>
      transaction('updateWebhookProfile', () => sql.updateWebhookProfile(webhookId, change)),

    readFeed: feed.read,
    watchFeed: feed.watch,
    pruneMessages: feed.prune,

    insertMessage(input: InsertMessageInput): InsertMessageResult {
      const result = transaction('insertMessage', () => sql.insertMessage(input));
      // After the commit: a follower woken now reads the message.
      if (result.outcome === 'created') feed.stored(input.message.channelId);
      return result;
    },

    recordPosts(records) {
      if (records.length > 0) transaction('recordPosts', () => appendRecords(records));
    },

    listPosts(webhookId, limit) {
      const read = () =>
        (
          statement(`SELECT ${POST_COLUMNS} FROM ${p}posts WHERE webhook_id = ? ORDER BY position DESC LIMIT ?`).all(
            webhookId,
            limit,
          ) as PostRow[]
        ).map(toPostRecord);
      // Reads are rare and posts many: a read folds what the log holds (under the write lock),
      // and reads without the lock when the log is empty.
      const logged = attempt('listPosts', () => statement(`SELECT 1 AS logged FROM ${p}post_log LIMIT 1`).get());
      if (logged == null) return attempt('listPosts', read);
      return transaction('listPosts', () => {
        foldLog();
        return read();
      });
    },
  };
  if (options.groupCommit !== true) return store;

  // Every channel that got messages in a group transaction is announced once, after its commit.
  const writer = sqliteWriterOf(resolved.database);
  const committedChannels = new Set<string>();
  const announce = (): void => {
    for (const channelId of committedChannels) feed.stored(channelId);
    committedChannels.clear();
  };
  return {
    ...store,
    insertMessage: (input) =>
      writer.run(
        party,
        'insertMessage',
        () => sql.insertMessage(input),
        (result) => {
          if (result.outcome !== 'created') return;
          if (committedChannels.size === 0) queueMicrotask(announce);
          committedChannels.add(input.message.channelId);
        },
      ),
    recordPosts: (records) =>
      records.length === 0 ? Promise.resolve() : writer.run(party, 'recordPosts', () => appendRecords(records)),
  };
}

/**
 * Where the store keeps a webhook's `lastPostAt` (schema version 7): the time of a post goes to
 * `post_times`, one row per webhook that posted since the last fold, which the fold moves into
 * the webhook's history head; the webhook's row keeps the time written before version 7. A read
 * takes the first of the three that has one, so it sees every post's time as soon as it committed.
 */
function lastPostPlace(p: string): LastPostPlace {
  const webhook = `webhook_id = ${p}webhooks.id`;
  return {
    set: `INSERT INTO ${p}post_times (at, webhook_id) VALUES (?, ?) ON CONFLICT (webhook_id) DO UPDATE SET at = excluded.at`,
    read: `coalesce((SELECT at FROM ${p}post_times WHERE ${webhook}), (SELECT last_post_at FROM ${p}post_heads WHERE ${webhook}), last_post_at)`,
  };
}

/** Rows a history statement takes at most. */
const CHUNK = 32;

/**
 * Records the log holds before a write folds it into the rings: about half a megabyte, and a fold
 * (a few milliseconds of the write lock on 1,000 webhooks) every 2,048 posts, which then writes
 * each ring page once for all the records it takes.
 */
const FOLD_AT = 2_048;

/** Adds `count` to each webhook's head (its number of records ever written) and returns the new heads. */
function headsSql(p: string, webhooks: number): string {
  return `INSERT INTO ${p}post_heads (webhook_id, next) VALUES ${Array(webhooks).fill('(?, ?)').join(', ')}
     ON CONFLICT (webhook_id) DO UPDATE SET next = next + excluded.next RETURNING webhook_id, next`;
}

/** Appends records to the log, in the order given. */
function logSql(p: string, rows: number): string {
  return `INSERT INTO ${p}post_log (${POST_COLUMNS}) VALUES ${Array(rows).fill('(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`;
}

/** Writes records into their slots, over the older records there. */
function postsSql(p: string, rows: number): string {
  return `INSERT INTO ${p}posts (webhook_id, slot, position, at, status, code, errors, idempotency_key, message_id, body_bytes, count)
     VALUES ${Array(rows).fill('(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}
     ON CONFLICT (webhook_id, slot) DO UPDATE SET position = excluded.position, at = excluded.at, status = excluded.status,
       code = excluded.code, errors = excluded.errors, idempotency_key = excluded.idempotency_key,
       message_id = excluded.message_id, body_bytes = excluded.body_bytes, count = excluded.count`;
}

function toPostRecord(row: PostRow): PostRecord {
  return {
    webhookId: row.webhook_id,
    at: Number(row.at),
    status: Number(row.status),
    code: row.code,
    errors: JSON.parse(row.errors) as PostRecord['errors'],
    idempotencyKey: row.idempotency_key === null ? null : (JSON.parse(row.idempotency_key) as string),
    messageId: row.message_id,
    bodyBytes: orNull(row.body_bytes),
    count: Number(row.count),
  };
}
