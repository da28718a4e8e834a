import {
  ChannelWebhookError,
  isChannelWebhookError,
  type ChannelWebhookErrorCode,
} from '../../../src/store-kit/index.js';

/**
 * A prepared statement, as every synchronous SQLite driver has it. The store binds strings,
 * numbers and `null` to its `?` placeholders (booleans as `0` and `1`, since better-sqlite3 refuses
 * them). Rows are plain objects keyed by column name; a `get` that finds no row answers `undefined` (better-sqlite3, node:sqlite) or
 * `null` (bun:sqlite), and both are read as "no row".
 *
 * @example
 * ```ts
 * const statement: SqliteStatement = database.prepare('SELECT name FROM channel_webhooks_webhooks WHERE id = ?');
 * const row = statement.get('wh_5kQ2R1rWmH0bV8sYq3XJ9w') as { name: string } | undefined;
 * ```
 */
export interface SqliteStatement {
  run(...params: unknown[]): unknown;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

/**
 * What the SQLite store and limiter need of a database connection: `prepare` and `exec`. A
 * better-sqlite3 `Database`, a `bun:sqlite` `Database` and a `node:sqlite` `DatabaseSync` all fit
 * as they are, so no driver is a dependency of this package; it is only ever imported as a type.
 *
 * @example
 * ```ts
 * import Database from 'better-sqlite3';
 * const database: SqliteDatabase = new Database('data/chat.sqlite');
 * ```
 */
export interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
  exec(sql: string): unknown;
}

/** Which side of the package a failure is reported for. */
export interface SqliteParty {
  /** `'SQLite store'` or `'SQLite rate limiter'`, the start of every message. */
  name: string;
  code: Extract<ChannelWebhookErrorCode, 'store_failed' | 'rate_limiter_failed'>;
  busyTimeoutMs: number;
}

/**
 * Prepares each statement once, on first use, and runs work in `BEGIN IMMEDIATE` transactions.
 * Every failure comes out as a `ChannelWebhookError` of the party's code, with the driver's error
 * as `cause`.
 */
export interface SqliteRunner {
  statement(sql: string): SqliteStatement;
  /**
   * Runs `work` between `BEGIN IMMEDIATE` and `COMMIT`. IMMEDIATE takes the write lock before the
   * first read, so what `work` reads cannot change before it writes, also from other processes on
   * the file; a lock held elsewhere is waited for (`busy_timeout`), never answered from a stale
   * read. On any failure the transaction is rolled back and nothing is written.
   */
  transaction<T>(what: string, work: () => T): T;
  /** Runs `work` outside a transaction, turning a failure into the party's error. */
  attempt<T>(what: string, work: () => T): T;
}

export function createSqliteRunner(database: SqliteDatabase, party: SqliteParty): SqliteRunner {
  const statements = new Map<string, SqliteStatement>();
  const statement = (sql: string): SqliteStatement => {
    let prepared = statements.get(sql);
    if (prepared === undefined) {
      prepared = database.prepare(sql);
      statements.set(sql, prepared);
    }
    return prepared;
  };
  const attempt = <T>(what: string, work: () => T): T => {
    try {
      return work();
    } catch (error) {
      throw sqliteFailure(party, what, error);
    }
  };
  return {
    statement,
    attempt,
    transaction: (what, work) =>
      attempt(what, () => {
        statement('BEGIN IMMEDIATE').run();
        try {
          const result = work();
          statement('COMMIT').run();
          return result;
        } catch (error) {
          // Only our own transaction is rolled back: BEGIN succeeded above. SQLite may already have
          // rolled it back itself (after an I/O error or a full disk); then ROLLBACK fails, harmlessly.
          try {
            statement('ROLLBACK').run();
          } catch {}
          throw error;
        }
      }),
  };
}

/** The party's error for a driver failure, saying plainly when the file was locked or read-only. */
export function sqliteFailure(party: SqliteParty, what: string, error: unknown): ChannelWebhookError {
  if (isChannelWebhookError(error)) return error;
  const detail = error instanceof Error ? error.message : String(error);
  const kind = sqliteErrorKind(error);
  const reason =
    kind === 'busy'
      ? `the database file stayed locked by another connection for busyTimeoutMs (${party.busyTimeoutMs} ms): ${detail}`
      : kind === 'readonly'
        ? `the database is read-only (file or directory permissions, or a connection opened read-only); the store needs to write to it: ${detail}`
        : detail;
  return new ChannelWebhookError(party.code, `${party.name}: ${what} failed: ${reason}`, { cause: error });
}

// better-sqlite3 and bun:sqlite give the SQLite code name (`SQLITE_BUSY`, `SQLITE_BUSY_SNAPSHOT`);
// node:sqlite gives the numeric code as `errcode`, whose low byte is the primary code.
function sqliteErrorKind(error: unknown): 'busy' | 'readonly' | 'other' {
  const { code, errcode } = (error ?? {}) as { code?: unknown; errcode?: unknown };
  const primary = typeof errcode === 'number' ? errcode & 0xff : null;
  if ((typeof code === 'string' && code.startsWith('SQLITE_BUSY')) || primary === 5) return 'busy';
  if ((typeof code === 'string' && code.startsWith('SQLITE_READONLY')) || primary === 8) return 'readonly';
  return 'other';
}
