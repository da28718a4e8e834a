import {
  checkOptions,
  fn,
  integer,
  MILLISECONDS,
  port,
  required,
  FEED_NOTIFIER_METHODS,
  type FeedNotifier,
  type OptionsShape,
} from '../../../src/store-kit/index.js';
import {
  CHANNEL_SOURCE,
  DEFAULT_TABLE_PREFIX,
  MESSAGE_MAPPING,
  resolveChannelSource,
  resolveMessageMapping,
  TABLE_PREFIX,
  type ChannelSource,
  type MessageMapping,
  type ResolvedChannelSource,
  type ResolvedMessageMapping,
} from '../sql/index.js';

/**
 * One query as mysql2 takes it: `?` placeholders bound from `values`; `timeout` (ms) makes mysql2
 * give up on a query that does not answer and close its connection.
 *
 * @example
 * ```ts
 * const query: MysqlQuery = { sql: 'SELECT ? AS one', values: [1], timeout: 5_000 };
 * ```
 */
export interface MysqlQuery {
  /** The statement, with `?` for each value. */
  sql: string;
  /** The values of its placeholders, in order. */
  values?: unknown[];
  /** What is left of the call's deadline, in ms. */
  timeout?: number;
}

/**
 * One connection of the pool, held for a transaction: mysql2's `PoolConnection` (of
 * `mysql2/promise`) fits.
 *
 * @example
 * ```ts
 * const connection: MysqlConnection = await pool.getConnection();
 * try { await connection.query({ sql: 'SELECT 1' }); } finally { connection.release(); }
 * ```
 */
export interface MysqlConnection {
  /** Runs a statement: its rows (a `SELECT`) or its result header (`affectedRows`), then its fields. */
  query(query: MysqlQuery): Promise<[unknown, unknown]>;
  /** Gives the connection back to the pool. */
  release(): void;
  /** Closes the connection (one left mid-transaction by a failure or a deadline). */
  destroy(): void;
}

/**
 * What the store needs of a database client: the pool of `mysql2/promise` fits. Only this shape is
 * used, so `mysql2` stays an optional peer dependency that this package never imports.
 *
 * @example
 * ```ts
 * import mysql from 'mysql2/promise';
 * const pool: MysqlPool = mysql.createPool({ uri: process.env.MYSQL_URL });
 * ```
 */
export interface MysqlPool {
  /** Runs one statement on a connection of the pool. */
  query(query: MysqlQuery): Promise<[unknown, unknown]>;
  /** Checks a connection out, for the statements of one transaction. */
  getConnection(): Promise<MysqlConnection>;
}

/**
 * Options of {@link createMysqlStore}.
 *
 * @example
 * ```ts
 * const options: MysqlStoreOptions = { pool, tablePrefix: 'hooks_', timeoutMs: 2_000 };
 * ```
 */
export interface MysqlStoreOptions {
  /** A pool of `mysql2/promise` (`mysql.createPool(…)`), on MySQL 8 or MariaDB 10.11 or later. */
  pool: MysqlPool;
  /** Prefix of every table name (see `mysqlSchema`). Default `'channel_webhooks_'`. */
  tablePrefix?: string;
  /**
   * Deadline of each call in ms, waiting for a pool connection included. Past it the call rejects
   * with code `store_timeout`, and a transaction it left open is closed with its connection, so
   * nothing it wrote commits. Default 5,000.
   */
  timeoutMs?: number;
  /**
   * Webhook lookups (`getWebhook`, one per post) this store has out at once, so that a flood of
   * posts to unknown ids leaves the pool's connections for everything else. Default 16.
   */
  maxConcurrentLookups?: number;
  /**
   * Read channels from the host app's own table or view instead of the store's `<prefix>channels`
   * table (see {@link ChannelSource}; `archived` is a number or `BOOLEAN`, non-zero is archived):
   * `getChannel` and the guarded insert read its rows, the insert under a shared lock
   * (`LOCK IN SHARE MODE`), and `putChannel` writes there (which needs a unique key on the id
   * column). Default: the store's table.
   */
  channels?: ChannelSource;
  /**
   * Also write each stored message as a row of the host app's own messages table, in the guarded
   * insert's transaction: see {@link MessageMapping}. Each value is bound as a parameter, so MySQL
   * converts it to its column's type; `createdAt` is bound as `YYYY-MM-DD HH:MM:SS.mmm` in UTC,
   * which a `DATETIME(3)`, a `TIMESTAMP(3)` (in a UTC session) or a text column takes. Default: only
   * the store's own table.
   */
  messages?: MessageMapping;
  /**
   * Lookups that may wait for one of those slots, in each of two lanes: one for credentials this
   * store saw accepted or issued, served first, and one for every other lookup. Past that,
   * `getWebhook` fails at once with `store_failed` (the poster gets a 500) rather than queuing
   * without bound. Default 64.
   */
  maxQueuedLookups?: number;
  /**
   * How often, in ms, a watched store asks the database whether another instance stored a message
   * (one read of one row by its key). Default 100.
   */
  feedCheckMs?: number;
  /**
   * Wakes the feed through a notifier (`createRedisFeedNotifier` of `channel-webhooks/redis`):
   * the store announces the channels of its commits through it, and its `watchFeed` wakes on what it
   * hears, from every instance, at once. The counter is then read every `feedCheckMs` only while the
   * notifier is down (and until it first subscribes); once it is back, watchers are woken once.
   * Default: none, the counter is read while anything watches.
   */
  notifier?: FeedNotifier;
  /**
   * Called when that check fails (followers are woken, so their next read reports the failure
   * too), and when the `notifier` goes down or an announcement fails (once per outage). Default:
   * one line on `console.error`, at most one every 10 s.
   */
  onError?: (error: unknown) => void;
}

/** The checked options the store runs with. */
export interface ResolvedMysqlOptions {
  prefix: string;
  timeoutMs: number;
  maxConcurrentLookups: number;
  maxQueuedLookups: number;
  feedCheckMs: number;
  channels: ResolvedChannelSource;
  messages: ResolvedMessageMapping | null;
}

const FACTORY = 'createMysqlStore';

const OPTIONS: OptionsShape = {
  pool: required(
    port(
      'a mysql2/promise Pool',
      ['query', 'getConnection'],
      "Pass mysql.createPool({ uri }) from 'mysql2/promise', or anything with query() and getConnection().",
    ),
  ),
  tablePrefix: TABLE_PREFIX,
  timeoutMs: MILLISECONDS,
  maxConcurrentLookups: integer(1),
  maxQueuedLookups: integer(0),
  feedCheckMs: integer(10),
  channels: CHANNEL_SOURCE,
  messages: MESSAGE_MAPPING,
  notifier: port(
    'a feed notifier',
    FEED_NOTIFIER_METHODS,
    "Pass createRedisFeedNotifier({ client }) from 'channel-webhooks/redis', or anything with announce() and subscribe().",
  ),
  onError: fn(),
};

// `pool` is checked here like every other option, so it may be anything.
export function resolveMysqlOptions(
  options: Omit<MysqlStoreOptions, 'pool'> & { pool?: unknown },
): ResolvedMysqlOptions {
  checkOptions(FACTORY, options, OPTIONS);
  const prefix = options.tablePrefix ?? DEFAULT_TABLE_PREFIX;
  return {
    prefix,
    timeoutMs: options.timeoutMs ?? 5_000,
    maxConcurrentLookups: options.maxConcurrentLookups ?? 16,
    maxQueuedLookups: options.maxQueuedLookups ?? 64,
    feedCheckMs: options.feedCheckMs ?? 100,
    channels: resolveChannelSource(FACTORY, options.channels, `${prefix}channels`),
    messages: resolveMessageMapping(FACTORY, options.messages),
  };
}
