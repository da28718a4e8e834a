import {
  checkArgument,
  checkReadFeedOptions,
  createFeedWatchers,
  createNotifiedFeed,
  cursorExpired,
  EPOCH_MS,
  formatCursor,
  integer,
  invalidCursor,
  parseCursor,
  type FeedNotifier,
  type FeedPage,
  type ReadFeedOptions,
} from '../../../src/store-kit/index.js';
import { type Answer, STORE, type createCalls } from './mysql-calls.js';
import { MESSAGE_COLUMNS, toMessage } from './rows.js';
import { createFailureReport } from '../sql/index.js';

/**
 * The MySQL store's feed. A message's `seq` is its place: the guarded insert takes it from the one
 * row of `<prefix>feed` under that row's lock, which it holds until its commit, so places commit in
 * the order they are taken and a read after a place never misses a message below a later one.
 *
 * There is no `LISTEN` on MySQL: while anything watches, the store reads that row's counter every
 * `checkMs` and wakes the watchers when it moved (another instance stored a message); its own
 * commits wake them at once, with their channel. With a `notifier`, the store announces its
 * commits' channels through it and wakes on what it hears instead, reading the counter only while
 * the notifier is down.
 */
export function createMysqlFeed(
  calls: ReturnType<typeof createCalls>,
  p: string,
  checkMs: number,
  onError: ((error: unknown) => void) | undefined,
  notifier: FeedNotifier | undefined,
) {
  const fail = createFailureReport(onError, 'createMysqlStore');
  const report = (error: unknown, stage = 'feed check') => fail(error, stage);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let seen: string | null = null;
  let watching = false;
  // Counts the watches started: a check still out from an earlier one ends with its answer, so that
  // a watch stopped and started again keeps one chain of checks, not two.
  let watch = 0;

  const counter = async () => {
    const { rows } = await calls.run('watchFeed', `SELECT next_seq FROM ${p}feed WHERE id = 1`);
    return rows.length === 0 ? null : String(rows[0]!.next_seq);
  };
  // One check at a time, each scheduled after the last one ends, so a slow server never has them pile up.
  const check = () => {
    const ofWatch = watch;
    const stands = () => watching && ofWatch === watch;
    counter().then(
      (now) => {
        if (!stands()) return;
        if (now !== seen) {
          seen = now;
          watchers.notify();
        }
        schedule();
      },
      (error: unknown) => {
        if (!stands()) return;
        report(error);
        watchers.notify();
        schedule();
      },
    );
  };
  const schedule = () => {
    timer = setTimeout(check, checkMs);
    (timer as { unref?: () => void }).unref?.();
  };
  const watchers = createFeedWatchers(
    () => {
      watching = true;
      watch++;
      seen = null;
      // The first check wakes the watchers too: a follower reads once it has started watching, but
      // this read may be answered after that one, and count another instance's commit between them.
      check();
    },
    () => {
      watching = false;
      clearTimeout(timer);
    },
  );

  let counted: string | null = null;
  const notified =
    notifier === undefined
      ? null
      : createNotifiedFeed({
          notifier,
          pollMs: checkMs,
          report,
          poll: async () => {
            const now = await counter();
            const moved = now !== counted;
            counted = now;
            return moved;
          },
        });

  const readState = async () => {
    const { rows } = await calls.run('readFeed', `SELECT epoch, pruned_seq FROM ${p}feed WHERE id = 1`);
    if (rows.length === 0) throw new Error(`the table ${p}feed has no row: run store.migrate()`);
    return { epoch: String(rows[0]!.epoch), prunedSeq: BigInt(String(rows[0]!.pruned_seq)) };
  };

  return {
    async read(options: ReadFeedOptions): Promise<FeedPage> {
      checkReadFeedOptions(STORE, options);
      const { channelId, after, limit } = options;
      let last = 0n;
      let epoch: string | undefined;
      if (after !== undefined) {
        const parsed = parseCursor(after, 1);
        if (parsed === null || parsed.positions[0]! >= 2n ** 63n) throw invalidCursor(STORE, after);
        last = parsed.positions[0]!;
        epoch = parsed.epoch;
      }
      const { rows }: Answer =
        channelId === undefined
          ? await calls.run(
              'readFeed',
              `SELECT seq, ${MESSAGE_COLUMNS} FROM ${p}messages WHERE seq > ? ORDER BY seq LIMIT ?`,
              [last.toString(), limit],
            )
          : await calls.run(
              'readFeed',
              `SELECT seq, ${MESSAGE_COLUMNS} FROM ${p}messages WHERE channel_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
              [channelId, last.toString(), limit],
            );
      // Read after the rows: a pruning between the two can only make a cursor expire that was
      // still good, never let one through that lost messages.
      const state = await readState();
      if (epoch !== undefined) {
        if (epoch !== state.epoch) throw cursorExpired(STORE, 'it comes from another database');
        if (last < state.prunedSeq) throw cursorExpired(STORE, 'messages after it were pruned');
      }
      return {
        entries: rows.map((row) => ({ cursor: formatCursor(state.epoch, String(row.seq)), message: toMessage(row) })),
        heldBack: false,
      };
    },

    watch: (listener: (channelId?: string) => void) => (notified ?? watchers).watch(listener),

    /** Tells this store's watchers (and, with a notifier, every instance's) about its own commit of a message of `channelId`. */
    stored(channelId: string): void {
      if (notified !== null) notified.stored(channelId);
      else if (watchers.size > 0) watchers.notify(channelId);
    },

    /**
     * Deletes up to `limit` messages created before `before`, oldest place first, and raises
     * `pruned_seq` to the last place deleted, in one transaction at READ COMMITTED: at REPEATABLE
     * READ its scan would lock the gap after the newest message too, which an insert holding the
     * feed's counter then waits for while the prune waits for the counter: a deadlock.
     */
    async prune(before: number, limit = 1_000): Promise<number> {
      checkArgument('MysqlStore.pruneMessages', 'before', before, EPOCH_MS);
      checkArgument('MysqlStore.pruneMessages', 'limit', limit, integer(1));
      const cutoff = new Date(before).toISOString();
      return calls.transaction(
        'pruneMessages',
        async (tx) => {
          const { rows } = await tx(
            `SELECT seq FROM ${p}messages WHERE created_at < ? ORDER BY seq LIMIT ? FOR UPDATE`,
            [cutoff, limit],
          );
          if (rows.length === 0) return { value: 0, commit: false };
          const through = String(rows[rows.length - 1]!.seq);
          const { affectedRows } = await tx(
            `DELETE FROM ${p}messages WHERE seq IN (${rows.map(() => '?').join(', ')})`,
            [...rows.map((row) => String(row.seq))],
          );
          await tx(`UPDATE ${p}feed SET pruned_seq = GREATEST(pruned_seq, ?) WHERE id = 1`, [through]);
          return { value: affectedRows, commit: true };
        },
        { readCommitted: true },
      );
    },
  };
}
