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
 * webhook's 60 a minute. Each decision is one `BEGIN IMMEDIATE` transaction that reads the requests
 * other processes allowed since its last decision, counts the key's requests still in the window
 * and, only when this one is allowed, appends it to the file's log of requests. The windows are
 * kept in memory (as the memory limiter's) and read again from the file after a transaction of
 * its own rolled back. `now` comes from the caller's clock. Requests that left the window are
 * deleted by a sweep that each limiter runs at most once per window.
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
  const table = `${resolved.prefix}rate_log`;
  setUpConnection(resolved, runner, party);

  // Every key's requests still in the window, as the log held them at its row `synced` (and this
  // limiter's own since): each decision first reads the rows other processes appended after it,
  // under the write lock, so it counts exactly what the file holds.
  const windows = new Map<string, KeyWindow>();
  let synced: { seq: number; tag: number } | null = null;
  let nextSweepAt = -Infinity;
  // Tells apart rows of one key and one time, from any process: random per limiter, then counted.
  const instance = crypto.getRandomValues(new Uint32Array(1))[0]! * 2 ** 20;
  let counter = 0;

  const add = (row: LogRow): void => {
    let window = windows.get(row.key);
    if (window === undefined) {
      window = { expiries: [], start: 0 };
      windows.set(row.key, window);
    }
    insertSorted(window, row.expires_at);
    synced = { seq: Number(row.seq), tag: Number(row.tag) };
  };

  /** Brings the windows up to the log, inside the caller's transaction. */
  const sync = (now: number): void => {
    if (synced !== null) {
      const rows = statement(`SELECT seq, key, expires_at, tag FROM ${table} WHERE seq >= ? ORDER BY seq`).all(
        synced.seq,
      ) as LogRow[];
      const known = rows[0];
      if (known !== undefined && Number(known.seq) === synced.seq && Number(known.tag) === synced.tag) {
        for (let i = 1; i < rows.length; i++) add(rows[i]!);
        return;
      }
    }
    // The first decision, or the row last read is gone: a transaction that wrote it rolled back
    // (then what this limiter counted from it never happened), or a sweep deleted it.
    windows.clear();
    synced = null;
    const rows = statement(`SELECT seq, key, expires_at, tag FROM ${table} WHERE expires_at > ? ORDER BY seq`).all(
      now,
    ) as LogRow[];
    for (const row of rows) add(row);
  };

  /** One decision, inside the caller's transaction. */
  const decide = (key: string, now: number): RateLimitDecision => {
    sync(now);
    // Each row keeps the time its request leaves the window, not the time it came: limiters with
    // other windows may share the table, and each sweep then deletes only what has expired. The
    // sweep reads the whole log, once per window; it keeps the newest row, so that the limiter
    // that wrote it need not read the window again.
    if (now >= nextSweepAt) {
      statement(`DELETE FROM ${table} WHERE expires_at <= ? AND seq < (SELECT max(seq) FROM ${table})`).run(now);
      for (const [windowKey, window] of windows) if (dropExpired(window, now) === 0) windows.delete(windowKey);
      nextSweepAt = now + windowMs;
    }
    const window = windows.get(key);
    let count = window === undefined ? 0 : dropExpired(window, now);
    let first = count === 0 ? null : window!.expiries[window!.start]!;
    const allowed = count < limit;
    if (allowed) {
      const expiresAt = now + windowMs;
      const tag = instance + (counter++ % 2 ** 20);
      const row = statement(`INSERT INTO ${table} (key, expires_at, tag) VALUES (?, ?, ?) RETURNING seq`).get(
        key,
        expiresAt,
        tag,
      ) as { seq: number | bigint };
      add({ seq: row.seq, key, expires_at: expiresAt, tag });
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

interface LogRow {
  seq: number | bigint;
  key: string;
  expires_at: number;
  tag: number | bigint;
}

/** A key's requests still in the window: the times they leave it, ascending, from `start` on. */
interface KeyWindow {
  expiries: number[];
  start: number;
}

function insertSorted(window: KeyWindow, expiresAt: number): void {
  const { expiries } = window;
  let i = expiries.length;
  while (i > window.start && expiries[i - 1]! > expiresAt) i--;
  expiries.splice(i, 0, expiresAt);
}

/** Drops the requests that left the window by `now`; answers how many are left. */
function dropExpired(window: KeyWindow, now: number): number {
  const { expiries } = window;
  while (window.start < expiries.length && expiries[window.start]! <= now) window.start++;
  if (window.start > 64 && window.start * 2 > expiries.length) {
    expiries.splice(0, window.start);
    window.start = 0;
  }
  return expiries.length - window.start;
}
