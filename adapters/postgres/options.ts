import { ChannelWebhookError } from '../../src/internal.js';
import { checkTablePrefix } from './schema.js';

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
   * Webhook lookups (`getWebhook`, one per post) this store runs at once; keep it below the pool's
   * size so that a flood of posts to unknown ids leaves connections for everything else. Default 8.
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
}

/**
 * Where the store reads channels when the host app keeps them in a table (or view) of its own.
 * Every name is an identifier, spliced into SQL: lower-case letters, digits and `_`, starting with a
 * letter or `_`; `table` may carry a schema (`app.channels`).
 *
 * @example
 * ```ts
 * const channels: PostgresChannelSource = { table: 'channels', id: 'id', ownerId: 'owner_id', archived: 'is_archived' };
 * const store = createPostgresStore({ pool, channels });
 * ```
 */
export interface PostgresChannelSource {
  /** Table or view holding the channels, optionally schema-qualified. */
  table: string;
  /** Column of the channel id, `text` or `varchar` (for another type, give a view that casts it). Default `'id'`. */
  id?: string;
  /** Column of the owner's user id (read as `text`). Default `'owner_id'`. */
  ownerId?: string;
  /** `boolean` column, `true` when the channel is archived (`NULL` counts as not archived). Default `'archived'`. */
  archived?: string;
}

/** The checked options the store runs with. */
export interface ResolvedOptions {
  prefix: string;
  timeoutMs: number;
  channels: { table: string; id: string; ownerId: string; archived: string };
  maxConcurrentLookups: number;
  maxQueuedLookups: number;
  preparedStatements: boolean;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

// `pool` is checked here like every other option, so it may be anything.
export function resolveOptions(options: Omit<PostgresStoreOptions, 'pool'> & { pool?: unknown }): ResolvedOptions {
  if (typeof options !== 'object' || options === null) invalid('createPostgresStore needs an options object: { pool }');
  if (typeof (options.pool as { query?: unknown } | null | undefined)?.query !== 'function') {
    invalid('createPostgresStore needs { pool }: a node-postgres Pool (anything with query())');
  }
  const prefix = checkTablePrefix(options.tablePrefix);
  const timeoutMs = options.timeoutMs ?? 5_000;
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    invalid(`timeoutMs must be a positive number, got ${String(timeoutMs)}`);
  }
  const maxConcurrentLookups = positiveInteger(options.maxConcurrentLookups ?? 8, 'maxConcurrentLookups', 1);
  const maxQueuedLookups = positiveInteger(options.maxQueuedLookups ?? 64, 'maxQueuedLookups', 0);
  const preparedStatements = options.preparedStatements ?? true;
  if (typeof preparedStatements !== 'boolean') invalid(`preparedStatements must be true or false, got ${String(preparedStatements)}`);
  return { prefix, timeoutMs, channels: resolveChannels(options.channels, prefix), maxConcurrentLookups, maxQueuedLookups, preparedStatements };
}

function resolveChannels(source: PostgresChannelSource | undefined, prefix: string): ResolvedOptions['channels'] {
  if (source === undefined) return { table: `${prefix}channels`, id: 'id', ownerId: 'owner_id', archived: 'archived' };
  if (typeof source !== 'object' || source === null) invalid('channels must be { table, id?, ownerId?, archived? }');
  const table = source.table;
  if (typeof table !== 'string' || !table.split('.').every((part) => IDENTIFIER.test(part)) || table.split('.').length > 2) {
    invalid(`channels.table must be a lower-case identifier, optionally schema-qualified ("app.channels"); got ${JSON.stringify(table)}`);
  }
  const column = (name: 'id' | 'ownerId' | 'archived', fallback: string): string => {
    const value = source[name] ?? fallback;
    if (typeof value !== 'string' || !IDENTIFIER.test(value)) {
      invalid(`channels.${name} must be a lower-case column name (letters, digits, "_"); got ${JSON.stringify(value)}`);
    }
    return value;
  };
  return { table, id: column('id', 'id'), ownerId: column('ownerId', 'owner_id'), archived: column('archived', 'archived') };
}

function positiveInteger(value: unknown, name: string, min: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) invalid(`${name} must be an integer ≥ ${min}, got ${String(value)}`);
  return value;
}

function invalid(message: string): never {
  throw new ChannelWebhookError('invalid_argument', message);
}
