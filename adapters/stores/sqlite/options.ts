import { DEFAULT_TABLE_PREFIX, TABLE_PREFIX } from '../sql/index.js';
import {
  BOOLEAN,
  ChannelWebhookError,
  checkOptions,
  integer,
  MAX_TIMEOUT_MS,
  oneOf,
  port,
  required,
  type OptionsShape,
} from '../../../src/store-kit/index.js';
import { migrationsAfter, SQLITE_SCHEMA_VERSION } from './schema.js';
import type { SqliteDatabase, SqliteParty, SqliteRunner } from './sqlite-database.js';

/**
 * What the SQLite store and limiter share: the connection and how the store sets it up.
 *
 * @example
 * ```ts
 * const options: SqliteConnectionOptions = { database, tablePrefix: 'hooks_', busyTimeoutMs: 1_000, synchronous: 'full' };
 * ```
 */
export interface SqliteConnectionOptions {
  /**
   * An open connection: a better-sqlite3 `Database`, a `bun:sqlite` `Database` or a `node:sqlite`
   * `DatabaseSync` (see {@link SqliteDatabase}). The store sets its `busy_timeout`, `journal_mode`
   * (WAL) and `synchronous` pragmas. It may be shared with the app and with the other of store and
   * limiter; the app must not hold a transaction open across an `await` on it, since the store's
   * `BEGIN IMMEDIATE` would then fail (a 500, nothing written).
   */
  database: SqliteDatabase;
  /** Prefix of every table name (see `sqliteSchema`). Default `'channel_webhooks_'`. */
  tablePrefix?: string;
  /**
   * How long a write waits for another connection's write lock (`PRAGMA busy_timeout`), in ms,
   * before it fails with a `store_failed` (or `rate_limiter_failed`) error: the post is answered
   * 500, never wrongly. The drivers are synchronous, so the wait holds this thread. Default 2,000.
   */
  busyTimeoutMs?: number;
  /**
   * `PRAGMA synchronous`, with the WAL journal. `'normal'` (default): a committed post is in the
   * write-ahead log before it is answered, so it survives the process being killed at any moment;
   * a power cut or an operating-system crash may lose the last posts committed before it (the
   * file stays consistent). `'full'`: the log is flushed to the disk (fsync) at every commit, so
   * they survive power loss too, at the cost of one fsync per post.
   */
  synchronous?: 'normal' | 'full';
  /**
   * Create or upgrade the tables at start-up (`migrate()`). Default `true`. With `false`, run
   * `migrate()` yourself (or `sqliteSchema()` through your migration tool) before the first call.
   */
  migrate?: boolean;
}

export interface ResolvedSqliteOptions {
  database: SqliteDatabase;
  prefix: string;
  busyTimeoutMs: number;
  synchronous: 'normal' | 'full';
  migrate: boolean;
}

const CONNECTION_OPTIONS: OptionsShape = {
  database: required(
    port(
      'a SQLite Database',
      ['prepare', 'exec'],
      'Pass a better-sqlite3 Database, a bun:sqlite Database or a node:sqlite DatabaseSync (anything with prepare() and exec()).',
    ),
  ),
  tablePrefix: TABLE_PREFIX,
  // A busy_timeout of 0 is SQLite's own "fail at once".
  busyTimeoutMs: integer(0, MAX_TIMEOUT_MS),
  synchronous: oneOf('normal', 'full'),
  migrate: BOOLEAN,
};

/**
 * Checks the options of a SQLite factory (the connection's, and the factory's own `extraOptions`)
 * and fills in the connection's defaults.
 */
export function resolveSqliteOptions(
  factory: string,
  options: SqliteConnectionOptions,
  extraOptions: OptionsShape = {},
): ResolvedSqliteOptions {
  checkOptions(factory, options, { ...CONNECTION_OPTIONS, ...extraOptions });
  return {
    database: options.database,
    prefix: options.tablePrefix ?? DEFAULT_TABLE_PREFIX,
    busyTimeoutMs: options.busyTimeoutMs ?? 2_000,
    synchronous: options.synchronous ?? 'normal',
    migrate: options.migrate ?? true,
  };
}

/**
 * Sets the connection's pragmas and, unless told not to, migrates: at start-up, so that a file
 * that is locked, read-only or of a newer schema is a clear error before the first post.
 */
export function setUpConnection(options: ResolvedSqliteOptions, runner: SqliteRunner, party: SqliteParty): void {
  runner.attempt('start-up', () => {
    const { database } = options;
    database.exec(`PRAGMA busy_timeout = ${options.busyTimeoutMs}`);
    // WAL lets readers go on while one connection writes, and makes a commit one append to the
    // log. An in-memory database answers 'memory', which is kept.
    const mode = String(
      (database.prepare('PRAGMA journal_mode = WAL').get() as { journal_mode?: unknown } | null)?.journal_mode,
    );
    if (mode !== 'wal' && mode !== 'memory') {
      throw new Error(
        `journal_mode stayed '${mode}' instead of 'wal': the file is read-only, or on a file system without shared memory (a network share)`,
      );
    }
    database.exec(`PRAGMA synchronous = ${options.synchronous.toUpperCase()}`);
  });
  if (options.migrate) migrate(options, runner, party);
}

/**
 * Brings the schema of `options.prefix` up to {@link SQLITE_SCHEMA_VERSION}, in one transaction
 * (`BEGIN IMMEDIATE`: connections that migrate at once take turns on the write lock). Every step not
 * recorded runs, by its record rather than by the highest version, so that a step released beside
 * another of a higher number is not passed over (the feed's, 3, came after the history's, 4).
 */
export function migrate(options: ResolvedSqliteOptions, runner: SqliteRunner, party: SqliteParty): void {
  const p = options.prefix;
  runner.transaction('migrate', () => {
    options.database.exec(`CREATE TABLE IF NOT EXISTS ${p}migrations (version INTEGER PRIMARY KEY)`);
    // A write that changes nothing: on a read-only connection it fails here, at start-up, even when
    // the schema is already there and nothing else would be written.
    runner.statement(`DELETE FROM ${p}migrations WHERE version < 0`).run();
    const rows = runner.statement(`SELECT version FROM ${p}migrations`).all() as Array<{ version: number | bigint }>;
    const applied = new Set(rows.map((row) => Number(row.version)));
    const newest = Math.max(0, ...applied);
    if (newest > SQLITE_SCHEMA_VERSION) {
      throw new ChannelWebhookError(
        'schema_too_new',
        `${party.name}: the tables of prefix '${p}' are at schema version ${newest}, newer than this release's ${SQLITE_SCHEMA_VERSION}: upgrade channel-webhooks`,
      );
    }
    for (const step of migrationsAfter(0, p)) {
      if (applied.has(step.version)) continue;
      options.database.exec(step.sql);
      runner.statement(`INSERT INTO ${p}migrations (version) VALUES (?)`).run(step.version);
    }
  });
}
