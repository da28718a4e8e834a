import { resolveSqliteOptions, setUpConnection, type SqliteConnectionOptions } from './options.js';
import { createSqliteRunner, type SqliteParty } from './sqlite-database.js';
import { sqliteWriterOf } from './sqlite-writer.js';
import {
  BOOLEAN,
  checkArgument,
  DEFAULT_RATE_LIMIT,
  DEFAULT_RATE_WINDOW_MS,
  HIT_TIME,
  integer,
  POSITIVE_MS,
  type Async,
  type RateLimitDecision,
  type RateLimiterMethods,
  type Sync,
} from '../../../src/store-kit/index.js';

/**
 * Options of {@link createSqliteRateLimiter}: the connection's (see {@link SqliteConnectionOptions})
 * and the window's.
 *
 * @example
 * ```ts
 * const options: SqliteRateLimiterOptions = { database, limit: 30, windowMs: 60_000 };
 * ```
 */
export interface SqliteRateLimiterOptions extends SqliteConnectionOptions {
  /** Allowed requests per key per window. Default 60. */
  limit?: number;
  /** Window length in ms. Default 60,000. */
  windowMs?: number;
  /**
   * Group commit (default `false`): `hit` answers with a promise, and the decisions asked for in one
   * turn of the event loop go, with the writes of a store made with `groupCommit` on the same
   * `database` object, into one transaction at the end of that turn (see `SqliteStoreOptions`).
   * Each decision is the one it would be alone, in the order they were asked for.
   */
  groupCommit?: boolean;
}

/**
 * The SQLite limiter: it decides synchronously.
 *
 * @example
 * ```ts
 * const rateLimiter: SqliteRateLimiter = createSqliteRateLimiter({ database });
 * const { allowed, remaining } = rateLimiter.hit('wh_5kQ2R1rWmH0bV8sYq3XJ9w', Date.now());
 * ```
 */
export interface SqliteRateLimiter extends Sync<RateLimiterMethods> {}

/**
 * The SQLite limiter with group commit: its decisions answer once their group transaction committed.
 *
 * @example
 * ```ts
 * const rateLimiter: SqliteGroupCommitRateLimiter = createSqliteRateLimiter({ database, groupCommit: true });
 * const { allowed } = await rateLimiter.hit('wh_5kQ2R1rWmH0bV8sYq3XJ9w', Date.now());
 * ```
 */
export interface SqliteGroupCommitRateLimiter extends Async<RateLimiterMethods> {}

/**
 * An exact sliding-window {@link channel-webhooks!RateLimiter} in a SQLite database file, shared by every process
 * that opens the file: the same rule as `createMemoryRateLimiter` (never more than `limit` allowed
 * in any `windowMs`, refused requests not counted), so two processes behind one port share one
 * webhook's 60 a minute. Each decision is one `BEGIN IMMEDIATE` transaction that drops the key's
 * requests that left the window, counts the rest and records this one only when it is allowed.
 * `now` comes from the caller's clock. Requests of keys that went idle are deleted by a sweep
 * that each limiter runs at most once per window.
 *
 * A decision that finds the file locked past `busyTimeoutMs`, or fails otherwise, throws
 * `rate_limiter_failed`: the handler then lets the post through and reports it to `onError`, or
 * answers 500 with `onRateLimiterError: 'reject'`. Start-up errors (a locked or read-only file)
 * throw `rate_limiter_failed` from the factory; bad options throw `invalid_argument`.
 *
 * @example
 * ```ts
 * import Database from 'better-sqlite3';
 * import { createSqliteRateLimiter, createSqliteStore } from 'channel-webhooks/sqlite';
 *
 * const database = new Database('data/webhooks.sqlite');
 * const rateLimiter = createSqliteRateLimiter({ database });            // 60 per 60 s
 * const handle = createWebhookHandler({ store: createSqliteStore({ database }), rateLimiter });
 * ```
 */
export function createSqliteRateLimiter(
  options: SqliteRateLimiterOptions & { groupCommit: true },
): SqliteGroupCommitRateLimiter;
export function createSqliteRateLimiter(options: SqliteRateLimiterOptions & { groupCommit?: false }): SqliteRateLimiter;
export function createSqliteRateLimiter(
  options: SqliteRateLimiterOptions,
): SqliteRateLimiter | SqliteGroupCommitRateLimiter;
export function createSqliteRateLimiter(
  options: SqliteRateLimiterOptions,
): SqliteRateLimiter | SqliteGroupCommitRateLimiter {
  const resolved = resolveSqliteOptions('createSqliteRateLimiter', options, {
    limit: integer(1),
    windowMs: POSITIVE_MS,
    groupCommit: BOOLEAN,
  });
  const limit = options.limit ?? DEFAULT_RATE_LIMIT;
  const windowMs = options.windowMs ?? DEFAULT_RATE_WINDOW_MS;
  const party: SqliteParty = {
    name: 'SQLite rate limiter',
    code: 'rate_limiter_failed',
    busyTimeoutMs: resolved.busyTimeoutMs,
  };
  const runner = createSqliteRunner(resolved.database, party);
  const { statement, transaction } = runner;
  const table = `${resolved.prefix}rate_hits`;
  setUpConnection(resolved, runner, party);

  let nextSweepAt = -Infinity;
  // Tells apart rows of one key and one time, from any process: random per limiter, then counted.
  const instance = crypto.getRandomValues(new Uint32Array(1))[0]! * 2 ** 20;
  let counter = 0;

  /** One decision, inside the caller's transaction. */
  const decide = (key: string, now: number): RateLimitDecision => {
    // Each row keeps the time its request leaves the window, not the time it came: limiters with
    // other windows may share the table, and each sweep then deletes only what has expired. The
    // sweep reads the whole table, once per window, so that no other index costs every hit a write.
    if (now >= nextSweepAt) {
      statement(`DELETE FROM ${table} WHERE expires_at <= ?`).run(now);
      nextSweepAt = now + windowMs;
    } else {
      statement(`DELETE FROM ${table} WHERE key = ? AND expires_at <= ?`).run(key, now);
    }
    const counted = statement(`SELECT count(*) AS count, min(expires_at) AS first FROM ${table} WHERE key = ?`).get(
      key,
    ) as {
      count: number | bigint;
      first: number | null;
    };
    let count = Number(counted.count);
    let first = counted.first;
    const allowed = count < limit;
    if (allowed) {
      const expiresAt = now + windowMs;
      statement(`INSERT INTO ${table} (key, expires_at, tag) VALUES (?, ?, ?)`).run(
        key,
        expiresAt,
        instance + (counter++ % 2 ** 20),
      );
      count++;
      if (first === null || expiresAt < first) first = expiresAt;
    }
    return { allowed, limit, windowMs, remaining: Math.max(0, limit - count), resetMs: first! - now };
  };

  if (options.groupCommit === true) {
    const writer = sqliteWriterOf(resolved.database);
    return {
      hit(key, now) {
        checkArgument('RateLimiter.hit', 'now', now, HIT_TIME);
        return writer.run(party, 'hit', () => decide(key, now));
      },
    };
  }
  return {
    hit(key, now) {
      checkArgument('RateLimiter.hit', 'now', now, HIT_TIME);
      return transaction('hit', () => decide(key, now));
    },
  };
}
