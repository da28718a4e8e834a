import { ChannelWebhookError, isChannelWebhookError, settleWithin } from '../../../src/store-kit/index.js';
import type { MysqlConnection, MysqlPool, MysqlQuery } from './options.js';

export const STORE = 'MySQL store';

/** The error of a call that missed its deadline of `ms`. */
export function storeTimedOut(what: string, ms: number): ChannelWebhookError {
  return new ChannelWebhookError('store_timeout', `${STORE}: ${what} did not finish within ${ms} ms`);
}

/**
 * Settles like `work`, or rejects with a `store_timeout` error after `ms`. A failure becomes a
 * `store_failed` error with the driver's error as its cause; mysql2's own query timeout (set to
 * what is left of the same deadline) is this deadline passing too.
 */
export function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  const failed = (error: unknown): never => {
    if ((error as { code?: unknown } | null)?.code === 'PROTOCOL_SEQUENCE_TIMEOUT') throw storeTimedOut(what, ms);
    throw isChannelWebhookError(error)
      ? error
      : new ChannelWebhookError(
          'store_failed',
          `${STORE}: ${what} failed: ${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        );
  };
  return settleWithin(work.then(undefined, failed), ms, () => storeTimedOut(what, ms));
}

/**
 * Runs the connection's next transaction, and only that one, at READ COMMITTED: each plain read
 * sees what was committed when it began, and no snapshot outlives a statement. At REPEATABLE READ
 * the first plain read takes a snapshot for the whole transaction, and with
 * `innodb_snapshot_isolation` (on by default since MariaDB 11.6.2) a later lock or write of a row
 * committed since then fails with error 1020: the feed's counter row, which every insert changes, is
 * one. REPEATABLE READ also locks the gaps beside the rows a locking read scans or misses, which
 * other transactions' inserts then wait for. Row locks are the same at both levels. MySQL 8 and
 * MariaDB both take it; the session's own level stays as it was.
 */
const READ_COMMITTED = 'SET TRANSACTION ISOLATION LEVEL READ COMMITTED';

// Errors after which the posts of a batch, or the records of a history batch, are written again
// one by one: a deadlock (1213), a lock wait timeout (1205) or a row changed since the snapshot it
// read (1020, `innodb_snapshot_isolation`: at READ COMMITTED only within one statement, such as a
// trigger of the app's table that reads) ended the transaction, or the server refused a value one
// of them holds: SQLSTATE classes 22 (data) and 23 (a duplicate entry, a foreign key, NOT NULL,
// MariaDB's CHECK), and the refusals filed under HY000: MySQL's CHECK (3819), an incorrect string
// for the column's character set (1366), a trigger's SIGNAL (1644), a statement over
// `max_allowed_packet` (1153).
const ALONE_ERRNOS = new Set([1020, 1205, 1213, 1153, 1366, 1644, 3819]);

/** Whether a statement for several posts or records that failed with `error` may fail for one of them alone (see ALONE_ERRNOS). */
export function failsAlone(error: unknown): boolean {
  const driver = (isChannelWebhookError(error) ? error.cause : error) as { errno?: unknown; sqlState?: unknown } | null;
  const sqlState = typeof driver?.sqlState === 'string' ? driver.sqlState : '';
  return ALONE_ERRNOS.has(Number(driver?.errno)) || sqlState.startsWith('22') || sqlState.startsWith('23');
}

/** A row as mysql2 gives it: values by column name. */
export type MysqlRow = Record<string, unknown>;

/** What a statement answered: its rows for a `SELECT`, else its header. */
export interface Answer {
  rows: MysqlRow[];
  affectedRows: number;
}

function answerOf([result]: [unknown, unknown]): Answer {
  if (Array.isArray(result)) return { rows: result as MysqlRow[], affectedRows: 0 };
  return { rows: [], affectedRows: Number((result as { affectedRows?: unknown } | null)?.affectedRows ?? 0) };
}

/** Runs statements on a pool, or in a transaction on one connection, each under the call's deadline. */
export function createCalls(pool: MysqlPool, timeoutMs: number) {
  const left = (deadline: number, what: string): number => {
    const ms = deadline - Date.now();
    if (ms <= 0) throw storeTimedOut(what, timeoutMs);
    return ms;
  };
  const query = async (
    on: MysqlPool | MysqlConnection,
    sql: string,
    values: unknown[],
    deadline: number,
    what: string,
  ) => answerOf(await on.query({ sql, values, timeout: left(deadline, what) } satisfies MysqlQuery));

  return {
    /** One statement on the pool, under its own deadline. */
    run(what: string, sql: string, values: unknown[] = [], ms = timeoutMs): Promise<Answer> {
      const deadline = Date.now() + ms;
      return withDeadline(
        Promise.resolve().then(() => query(pool, sql, values, deadline, what)),
        ms,
        what,
      );
    },

    /**
     * `work` inside `START TRANSACTION` … `COMMIT` on a connection of its own, under one deadline
     * (`ms`). `work` says whether to commit (`commit: false` rolls back, as a refusal that wrote
     * nothing does). A failure rolls back; a connection whose transaction may still be open on the
     * server (a statement that did not answer in time) is closed, so that nothing of it commits.
     *
     * With `readCommitted`, the transaction runs at READ COMMITTED (see `READ_COMMITTED`).
     */
    transaction<T>(
      what: string,
      work: (tx: (sql: string, values?: unknown[]) => Promise<Answer>) => Promise<{ value: T; commit: boolean }>,
      { ms = timeoutMs, readCommitted = false }: { ms?: number; readCommitted?: boolean } = {},
    ): Promise<T> {
      const deadline = Date.now() + ms;
      let timedOut = false;
      const attempt = async (): Promise<T> => {
        left(deadline, what);
        const connection = await pool.getConnection();
        if (timedOut) {
          connection.release();
          throw storeTimedOut(what, ms);
        }
        const tx = (sql: string, values: unknown[] = []) => {
          if (timedOut) return Promise.reject(storeTimedOut(what, ms));
          return query(connection, sql, values, deadline, what);
        };
        let open = false;
        try {
          // Should START TRANSACTION fail after it, the connection is closed below, so the level
          // never reaches a statement of the app's on the pool.
          if (readCommitted) await tx(READ_COMMITTED);
          await tx('START TRANSACTION');
          open = true;
          const { value, commit } = await work(tx);
          await tx(commit ? 'COMMIT' : 'ROLLBACK');
          open = false;
          connection.release();
          return value;
        } catch (error) {
          if (open && !timedOut) {
            const rolledBack = await tx('ROLLBACK').then(
              () => true,
              () => false,
            );
            if (rolledBack) connection.release();
            else connection.destroy();
          } else connection.destroy();
          throw error;
        }
      };
      return withDeadline(attempt(), ms, what).catch((error: unknown) => {
        timedOut = true;
        throw error;
      });
    },
  };
}
