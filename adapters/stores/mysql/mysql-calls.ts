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
     * `work` inside `START TRANSACTION` … `COMMIT` on a connection of its own, under one deadline.
     * `work` says whether to commit (`commit: false` rolls back, as a refusal that wrote nothing
     * does). A failure rolls back; a connection whose transaction may still be open on the server
     * (a statement that did not answer in time) is closed, so that nothing of it commits.
     */
    transaction<T>(
      what: string,
      work: (tx: (sql: string, values?: unknown[]) => Promise<Answer>) => Promise<{ value: T; commit: boolean }>,
      ms = timeoutMs,
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
