import { type SqliteDatabase, type SqliteParty, type SqliteStatement, sqliteFailure } from './sqlite-database.js';

/**
 * Most operations one group transaction holds. A batch holds the file's write lock for its whole
 * transaction (a post's guarded insert or decision takes 5 to 20 µs inside it), so 64 keep that under
 * about a millisecond for the other processes on the file, while the commit's fixed cost (about
 * 30 µs) spread over 32 or more operations is already about a microsecond each: a larger batch would
 * save little and make every other writer wait longer.
 */
export const MAX_BATCH = 64;

/**
 * The group commit of one connection: what the store and the limiter built with `groupCommit` on
 * that connection hand to it goes, with everything else handed over in the same turn of the event
 * loop, into one `BEGIN IMMEDIATE … COMMIT`, run at the end of that turn (`setImmediate`, never a
 * timer: a lone operation waits for nothing but the rest of its turn).
 */
export interface SqliteWriter {
  /**
   * Runs `work` in the next group transaction and answers its result once that transaction has
   * committed (`committed` is called then, synchronously, before any answer is given). `work` runs
   * inside the transaction: it must not start one of its own. A failure is the party's error.
   */
  run<T>(party: SqliteParty, what: string, work: () => T, committed?: (result: T) => void): Promise<T>;
}

interface Job {
  party: SqliteParty;
  what: string;
  work: () => unknown;
  committed: ((result: never) => void) | undefined;
  resolve: (result: unknown) => void;
  reject: (error: unknown) => void;
}

const writers = new WeakMap<SqliteDatabase, SqliteWriter>();

/** The writer of `database`: one per connection, shared by the store and the limiter on it. */
export function sqliteWriterOf(database: SqliteDatabase): SqliteWriter {
  let writer = writers.get(database);
  if (writer === undefined) {
    writer = createSqliteWriter(database);
    writers.set(database, writer);
  }
  return writer;
}

// Where the runtime has no setImmediate (Deno, workers), a zero-delay timer is the end of the turn.
const endOfTurn: (callback: () => void) => unknown = globalThis.setImmediate ?? ((callback) => setTimeout(callback, 0));

function createSqliteWriter(database: SqliteDatabase): SqliteWriter {
  let queue: Job[] = [];
  let scheduled = false;
  let begin: SqliteStatement | undefined;
  let commit: SqliteStatement | undefined;
  let rollback: SqliteStatement | undefined;

  const schedule = (): void => {
    if (scheduled) return;
    scheduled = true;
    endOfTurn(flush);
  };

  function flush(): void {
    scheduled = false;
    const batch = queue.length > MAX_BATCH ? queue.splice(0, MAX_BATCH) : queue;
    if (batch === queue) queue = [];
    // What did not fit goes at the end of the next turn, with what arrives in this one.
    if (queue.length > 0) schedule();
    if (batch.length === 1) {
      runAlone(batch[0]!);
      return;
    }
    runTogether(batch);
  }

  function runTogether(batch: Job[]): void {
    try {
      begin ??= database.prepare('BEGIN IMMEDIATE');
      commit ??= database.prepare('COMMIT');
      begin.run();
    } catch (error) {
      for (const job of batch) job.reject(sqliteFailure(job.party, job.what, error));
      return;
    }
    const results: unknown[] = [];
    try {
      for (const job of batch) results.push(job.work());
    } catch {
      // One operation failed: nothing of the batch is kept, and each runs again in a transaction
      // of its own, so that only the one that fails alone fails. Every operation reads what it
      // decides on inside its transaction, so running it again after the rollback is running it once.
      rollBack();
      for (const job of batch) runAlone(job);
      return;
    }
    try {
      commit.run();
    } catch (error) {
      // The commit itself failed (the disk, or the lock): every operation of the batch failed.
      rollBack();
      for (const job of batch) job.reject(sqliteFailure(job.party, job.what, error));
      return;
    }
    for (let i = 0; i < batch.length; i++) settle(batch[i]!, results[i]);
  }

  function runAlone(job: Job): void {
    let result: unknown;
    try {
      begin ??= database.prepare('BEGIN IMMEDIATE');
      commit ??= database.prepare('COMMIT');
      begin.run();
    } catch (error) {
      job.reject(sqliteFailure(job.party, job.what, error));
      return;
    }
    try {
      result = job.work();
      commit.run();
    } catch (error) {
      rollBack();
      job.reject(sqliteFailure(job.party, job.what, error));
      return;
    }
    settle(job, result);
  }

  function settle(job: Job, result: unknown): void {
    job.committed?.(result as never);
    job.resolve(result);
  }

  // SQLite may already have rolled the transaction back itself (an I/O error, a full disk); then
  // ROLLBACK fails, harmlessly.
  function rollBack(): void {
    try {
      rollback ??= database.prepare('ROLLBACK');
      rollback.run();
    } catch {}
  }

  return {
    run<T>(party: SqliteParty, what: string, work: () => T, committed?: (result: T) => void): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({
          party,
          what,
          work,
          committed: committed as ((result: never) => void) | undefined,
          resolve: resolve as (result: unknown) => void,
          reject,
        });
        schedule();
      });
    },
  };
}
