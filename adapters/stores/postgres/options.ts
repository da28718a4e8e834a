import {
  BOOLEAN,
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
 * One query as node-postgres takes it. `query_timeout` makes pg drop a connection that hangs.
 *
 * @example
 * ```ts
 * const query: PostgresQuery = { text: 'SELECT 1 WHERE $1', values: [true], query_timeout: 5_000 };
 * ```
 */
export interface PostgresQuery {
  /**
   * Set when the store runs the statement as a named prepared statement (see
   * `PostgresStoreOptions.preparedStatements`): node-postgres parses and plans it once per
   * connection and then only binds and executes it. A pool of another kind may ignore it.
   */
  name?: string;
  text: string;
  values?: unknown[];
  query_timeout?: number;
}

/**
 * What the store needs of a database client: node-postgres's `Pool` (or `Client`) fits. Only this
 * shape is used, so `pg` stays an optional peer dependency that this package never imports.
 *
 * @example
 * ```ts
 * // Count the queries of each post by wrapping the pool:
 * const counting: PostgresQueryable = { query: (query) => (count++, pool.query(query)) };
 * const store = createPostgresStore({ pool: counting });
 * ```
 */
export interface PostgresQueryable {
  query(query: PostgresQuery): Promise<{ rows: unknown[] }>;
}

/**
 * A connection of its own for the feed's `LISTEN`: node-postgres's `PoolClient` fits.
 *
 * @example
 * ```ts
 * const client: PostgresListenClient = await pool.connect();
 * client.on('notification', ({ channel, payload }) => console.log(channel, payload));
 * ```
 */
export interface PostgresListenClient {
  /** Runs `LISTEN` and the ping on this connection. */
  query(query: PostgresQuery): Promise<unknown>;
  /** Hears each `NOTIFY` on a channel this connection listens on. */
  on(event: 'notification', listener: (message: { channel: string; payload?: string }) => void): unknown;
  /** Hears the connection failing: the store then connects again. */
  on(event: 'error', listener: (error: Error) => void): unknown;
  /** Hears the connection ending: the store then connects again. */
  on(event: 'end', listener: () => void): unknown;
  /** Stops hearing notifications (when nothing watches any more). */
  removeListener(event: 'notification', listener: (message: { channel: string; payload?: string }) => void): unknown;
  /** Stops hearing failures. */
  removeListener(event: 'error', listener: (error: Error) => void): unknown;
  /** Stops hearing the end. */
  removeListener(event: 'end', listener: () => void): unknown;
  /** Gives the connection back, or with an error (or `true`) closes it. */
  release(destroy?: Error | boolean): void;
}

/**
 * Options of {@link createPostgresStore}.
 *
 * @example
 * ```ts
 * const options: PostgresStoreOptions = { pool, tablePrefix: 'hooks_', timeoutMs: 2_000 };
 * ```
 */
export interface PostgresStoreOptions {
  /** A node-postgres `Pool`. Give it an `'error'` listener: an idle connection that drops emits one. */
  pool: PostgresQueryable;
  /** Prefix of every table name (see `postgresSchema`). Default `'channel_webhooks_'`. */
  tablePrefix?: string;
  /**
   * Deadline of each query in ms, waiting for a pool connection included. Past it the call rejects
   * with code `store_timeout` and pg drops the connection. Default 5,000.
   */
  timeoutMs?: number;
  /**
   * Read channels from the host app's own table or view instead of the store's `<prefix>channels`
   * table: `getChannel` and the guarded insert read (and lock, `FOR SHARE`) its rows, and
   * `putChannel` writes there (which needs a unique key on the id column). Default: the store's table.
   */
  channels?: PostgresChannelSource;
  /**
   * Also write each stored message as a row of the host app's own messages table, in the guarded
   * insert's own statement (so its transaction): see {@link MessageMapping}. Values reach the app's
   * columns through `json_populate_record`, so each is converted to its column's type (`uuid`,
   * `timestamptz`, `jsonb`, an enum) as a literal would be. Default: only the store's own table.
   */
  messages?: MessageMapping;
  /**
   * Webhook lookups (`getWebhook`, one per post) this store has out at once. Lookups asked while
   * others are out go together in one query (`WHERE id = ANY(…)`), so they take one connection (up
   * to four while a query is slow), and a flood of posts to unknown ids leaves connections for
   * everything else whatever this number. Default 32.
   */
  maxConcurrentLookups?: number;
  /**
   * Lookups that may wait for one of those slots, in each of two lanes: one for credentials this
   * store saw accepted or issued, served first, and one for every other lookup. Past that,
   * `getWebhook` fails at once with `store_failed` (the poster gets a 500) rather than queuing
   * without bound. Default 64.
   */
  maxQueuedLookups?: number;
  /**
   * Run the store's statements as named prepared statements, which PostgreSQL parses and plans once
   * per connection instead of on every call: the guarded insert is a statement of several parts, and
   * preparing it gives 1.6 to 2 times the posts per second in the project's benchmark. Set `false` behind a
   * pooler that does not keep prepared statements across transactions (PgBouncer in transaction mode
   * before 1.21, or with `max_prepared_statements = 0`). Default `true`. Should the server report a
   * prepared statement missing or already there (such a pooler, unannounced), the store sends that
   * statement again unnamed, since the server refused it before running it, and prepares no more.
   */
  preparedStatements?: boolean;
  /**
   * Where the message feed's one listening connection comes from (`LISTEN` needs a session of its
   * own, held while anything watches the feed; it is given back with `release()`). Default: a
   * connection checked out of `pool` when it is a node-postgres `Pool`; with another kind of pool
   * and no `listen`, the store has no feed. Give one when the pool goes through a pooler in
   * transaction mode (PgBouncer), where `LISTEN` hears nothing: a direct connection, e.g.
   * `listen: () => directPool.connect()`.
   */
  listen?: () => Promise<PostgresListenClient>;
  /**
   * Wakes the feed through a notifier instead of `LISTEN` (`createRedisFeedNotifier` of
   * `channel-webhooks/redis`), for instances that reach PostgreSQL only through a pooler in
   * transaction mode or run on an engine without `LISTEN`: the store announces the channels of each
   * committed batch through it, and its `watchFeed` wakes on what it hears, from every instance.
   * While the notifier is down (and until it first subscribes), watchers are woken every
   * `feedPollMs` instead; once it is back, once more. Given with `listen`, both wake the feed.
   * Default: none.
   */
  notifier?: FeedNotifier;
  /** With `notifier`: the period in ms of the poll while it is down. Default 1,000. */
  feedPollMs?: number;
  /**
   * Called when the feed's listening connection fails or cannot be had; the store then opens
   * another (waiting 0.1 s, doubling up to 10 s) and, once it listens again, wakes every watcher
   * to read what came meanwhile. Also called when the `notifier` goes down or an announcement
   * fails (once per outage). Default: one line on `console.error`, at most one every 10 s.
   */
  onError?: (error: unknown) => void;
}

/**
 * Where the PostgreSQL store reads channels in the host app's own table or view (see {@link ChannelSource}).
 *
 * @example
 * ```ts
 * const channels: PostgresChannelSource = { table: 'channels', id: 'id', ownerId: 'owner_id', archived: 'is_archived' };
 * const store = createPostgresStore({ pool, channels });
 * ```
 */
export type PostgresChannelSource = ChannelSource;

/** The checked options the store runs with. */
export interface ResolvedOptions {
  prefix: string;
  timeoutMs: number;
  channels: ResolvedChannelSource;
  messages: ResolvedMessageMapping | null;
  maxConcurrentLookups: number;
  maxQueuedLookups: number;
  preparedStatements: boolean;
  feedPollMs: number;
}

const FACTORY = 'createPostgresStore';

const OPTIONS: OptionsShape = {
  pool: required(
    port('a node-postgres Pool', ['query'], 'Pass new pg.Pool({ connectionString }) or anything with query().'),
  ),
  tablePrefix: TABLE_PREFIX,
  timeoutMs: MILLISECONDS,
  channels: CHANNEL_SOURCE,
  messages: MESSAGE_MAPPING,
  maxConcurrentLookups: integer(1),
  maxQueuedLookups: integer(0),
  preparedStatements: BOOLEAN,
  listen: fn(),
  notifier: port(
    'a feed notifier',
    FEED_NOTIFIER_METHODS,
    "Pass createRedisFeedNotifier({ client }) from 'channel-webhooks/redis', or anything with announce() and subscribe().",
  ),
  feedPollMs: integer(10),
  onError: fn(),
};

// `pool` is checked here like every other option, so it may be anything.
export function resolveOptions(options: Omit<PostgresStoreOptions, 'pool'> & { pool?: unknown }): ResolvedOptions {
  checkOptions(FACTORY, options, OPTIONS);
  const prefix = options.tablePrefix ?? DEFAULT_TABLE_PREFIX;
  return {
    prefix,
    timeoutMs: options.timeoutMs ?? 5_000,
    channels: resolveChannelSource(FACTORY, options.channels, `${prefix}channels`),
    messages: resolveMessageMapping(FACTORY, options.messages),
    maxConcurrentLookups: options.maxConcurrentLookups ?? 32,
    maxQueuedLookups: options.maxQueuedLookups ?? 64,
    preparedStatements: options.preparedStatements ?? true,
    feedPollMs: options.feedPollMs ?? 1_000,
  };
}
