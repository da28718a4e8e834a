import {
  checkArgument,
  checkReadFeedOptions,
  createFeedWatchers,
  cursorExpired,
  EPOCH_MS,
  formatCursor,
  integer,
  invalidCursor,
  parseCursor,
  type FeedPage,
  type Message,
  type ReadFeedOptions,
} from '../../../src/store-kit/index.js';
import type { SqliteRunner } from './sqlite-database.js';

/**
 * How often a watched store asks SQLite whether another connection committed, in ms. Each check is
 * one `PRAGMA data_version`, which compares a counter in the shared memory of the WAL and reads no
 * page, so it costs a few microseconds; a message stored by another process reaches this one's
 * followers within this much (plus the read).
 */
export const SQLITE_FEED_CHECK_MS = 100;

const STORE = 'SQLite store';

/** How the store's messages are read: its column list and its row reader. */
interface MessageReader<Row> {
  columns: string;
  toMessage: (row: Row) => Message;
}

/**
 * The SQLite store's feed. A message's `seq` is its position: the store writes under `BEGIN
 * IMMEDIATE`, one writer at a time, and SQLite gives each new row the largest `seq` plus one, so
 * positions follow the order of commits and a reader never sees a later one before an earlier.
 */
export function createSqliteFeed<Row>(runner: SqliteRunner, p: string, messages: MessageReader<Row>) {
  const { statement, transaction, attempt } = runner;
  let timer: ReturnType<typeof setInterval> | undefined;
  let version: unknown;
  const dataVersion = () => (statement('PRAGMA data_version').get() as { data_version: unknown }).data_version;
  const watchers = createFeedWatchers(
    () => {
      version = attempt('watchFeed', dataVersion);
      timer = setInterval(check, SQLITE_FEED_CHECK_MS);
      (timer as { unref?: () => void }).unref?.();
    },
    () => clearInterval(timer),
  );

  // `data_version` changes when another connection commits; this connection's own commits are
  // announced by `stored`, after them.
  function check() {
    let now: unknown;
    try {
      now = dataVersion();
    } catch {
      // The connection is closed or broken: the followers' next read says so.
      clearInterval(timer);
      watchers.notify();
      return;
    }
    if (now === version) return;
    version = now;
    watchers.notify();
  }

  const readState = () =>
    statement(`SELECT epoch, pruned_seq FROM ${p}feed WHERE id = 1`).get() as {
      epoch: string;
      pruned_seq: number | bigint;
    };

  return {
    read(options: ReadFeedOptions): FeedPage {
      checkReadFeedOptions(STORE, options);
      const { channelId, after, limit } = options;
      let last = 0;
      if (after !== undefined) {
        const parsed = parseCursor(after, 1);
        if (parsed === null || parsed.positions[0]! > BigInt(Number.MAX_SAFE_INTEGER))
          throw invalidCursor(STORE, after);
        last = Number(parsed.positions[0]!);
      }
      return attempt('readFeed', () => {
        const rows = (
          channelId === undefined
            ? statement(`SELECT seq, ${messages.columns} FROM ${p}messages WHERE seq > ? ORDER BY seq LIMIT ?`).all(
                last,
                limit,
              )
            : statement(
                `SELECT seq, ${messages.columns} FROM ${p}messages WHERE channel_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
              ).all(channelId, last, limit)
        ) as Array<Row & { seq: number | bigint }>;
        // Read after the rows: a pruning that came between the two can only make a cursor
        // expire that was still good, never let one through that lost messages.
        const state = readState();
        if (after !== undefined) {
          if (parseCursor(after, 1)!.epoch !== state.epoch)
            throw cursorExpired(STORE, 'it comes from another database');
          if (last < Number(state.pruned_seq)) throw cursorExpired(STORE, 'messages after it were pruned');
        }
        return {
          entries: rows.map((row) => ({
            cursor: formatCursor(state.epoch, row.seq),
            message: messages.toMessage(row),
          })),
          heldBack: false,
        };
      });
    },

    watch: (listener: (channelId?: string) => void) => watchers.watch(listener),

    /** Tells this store object's followers about its own commit of a message of `channelId`. */
    stored(channelId: string): void {
      if (watchers.size > 0) watchers.notify(channelId);
    },

    prune(before: number, limit = 1_000): number {
      checkArgument('SqliteStore.pruneMessages', 'before', before, EPOCH_MS);
      checkArgument('SqliteStore.pruneMessages', 'limit', limit, integer(1));
      // Found outside the write lock (WAL readers never wait), so posts do not wait for the scan;
      // found in order of `seq`, so the oldest go first. Times are ISO 8601 strings of one width,
      // which compare as they sort.
      const cutoff = new Date(before).toISOString();
      const found = attempt('pruneMessages', () =>
        statement(`SELECT seq FROM ${p}messages WHERE created_at < ? ORDER BY seq LIMIT ?`).all(cutoff, limit),
      ) as Array<{ seq: number | bigint }>;
      if (found.length === 0) return 0;
      return transaction('pruneMessages', () => {
        const newest = (statement(`SELECT max(seq) AS seq FROM ${p}messages`).get() as { seq: number | bigint }).seq;
        let through: number | bigint = 0;
        let count = 0;
        for (const { seq } of found) {
          if (seq === newest) continue;
          count += Number(
            (statement(`DELETE FROM ${p}messages WHERE seq = ?`).run(seq) as { changes?: number | bigint }).changes ??
              1,
          );
          through = seq;
        }
        statement(`UPDATE ${p}feed SET pruned_seq = ? WHERE id = 1 AND pruned_seq < ?`).run(through, through);
        return count;
      });
    },
  };
}
