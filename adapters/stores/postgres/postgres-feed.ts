import {
  checkReadFeedOptions,
  cursorExpired,
  formatCursor,
  invalidCursor,
  parseCursor,
  type FeedPage,
  type Message,
  type ReadFeedOptions,
} from '../../../src/store-kit/index.js';
import { MESSAGE_FIELDS, asFields, readRows } from './rows.js';

const STORE = 'PostgreSQL store';

/**
 * The channel of the store's notifications: one per table prefix. A table name of the prefix fits
 * in PostgreSQL's 63 bytes, so this shorter one does too.
 */
export function feedChannel(p: string): string {
  return `${p}feed`;
}

/**
 * What the guarded insert adds to announce a new message, inside its own transaction, so that only
 * committed messages are announced: a `NOTIFY` on the feed's channel whose payload is the
 * message's channel id (empty when it is too long for a payload, which then concerns any channel).
 * `ins` is the insert's result and `$2` the channel id.
 */
export function announceSql(p: string): string {
  return `SELECT pg_notify('${feedChannel(p)}', CASE WHEN octet_length($2) <= 1000 THEN $2 ELSE '' END) FROM ins WHERE inserted`;
}

/**
 * What the guarded insert of a batch adds to announce its new messages: one `NOTIFY` per channel
 * that got one, with the same payload as {@link announceSql}'s (PostgreSQL also folds equal ones of
 * a transaction into one), all sent at the batch's one commit.
 */
export function announceBatchSql(p: string): string {
  return `SELECT pg_notify('${feedChannel(p)}', CASE WHEN octet_length(n.channel_id) <= 1000 THEN n.channel_id ELSE '' END)
     FROM (SELECT DISTINCT channel_id FROM ins WHERE inserted) n`;
}

/**
 * The read of the feed, one statement so that everything in it is of one snapshot. A message's
 * place is `(tx, seq)`: its transaction, then its number. The statement returns only messages of
 * transactions below the snapshot's `xmin`, the oldest transaction still open when it began:
 * every transaction below it has ended, and every one that begins later gets a larger id, so no
 * message can ever appear below a place already returned. A message of a transaction at or above
 * `xmin` that is already committed is held back (`heldBack`) until the older ones end.
 *
 * `$1`, `$2`: the place read after; `$3`: the limit; `$4`: the channel, for a channel's read.
 */
function readSql(p: string, channel: boolean): string {
  const only = channel ? ' AND m.channel_id = $4' : '';
  return `WITH h AS MATERIALIZED (
     SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin
   ), page AS MATERIALIZED (
     SELECT m.tx, m.seq, ${MESSAGE_FIELDS} AS message FROM ${p}messages m, h
     WHERE (m.tx, m.seq) > ($1::xid8, $2::bigint) AND m.tx < h.xmin${only}
     ORDER BY m.tx, m.seq LIMIT $3
   )
   SELECT ${asFields(`json_build_object(
     'entries', coalesce((SELECT json_agg(json_build_object('tx', tx::text, 'seq', seq::text, 'message', message) ORDER BY tx, seq) FROM page), '[]'::json),
     'heldBack', EXISTS (SELECT 1 FROM ${p}messages m, h WHERE m.tx >= h.xmin AND (m.tx, m.seq) > ($1::xid8, $2::bigint)${only}),
     'epoch', f.epoch, 'prunedTx', f.pruned_tx::text, 'prunedSeq', f.pruned_seq::text)`)}
   FROM ${p}feed f`;
}

/** The statements of the feed, for a table prefix. */
export function feedStatements(p: string) {
  return { all: readSql(p, false), channel: readSql(p, true) };
}

interface ReadRow {
  entries: Array<{ tx: string; seq: string; message: Message }>;
  heldBack: boolean;
  epoch: string;
  prunedTx: string;
  prunedSeq: string;
}

/**
 * `readFeed` on the store's statement runner: `run(channel, values)` runs the read of every
 * channel or of one.
 */
export function createFeedReader(run: (channel: boolean, values: unknown[]) => Promise<{ rows: unknown[] }>) {
  return async (options: ReadFeedOptions): Promise<FeedPage> => {
    checkReadFeedOptions(STORE, options);
    const { channelId, after, limit } = options;
    let from: [bigint, bigint] = [0n, 0n];
    let epoch: string | undefined;
    if (after !== undefined) {
      const parsed = parseCursor(after, 2);
      if (parsed === null || parsed.positions[1]! >= 2n ** 63n) throw invalidCursor(STORE, after);
      from = [parsed.positions[0]!, parsed.positions[1]!];
      epoch = parsed.epoch;
    }
    const values = [from[0].toString(), from[1].toString(), limit];
    const [row] = readRows<ReadRow>(
      await run(channelId !== undefined, channelId === undefined ? values : [...values, channelId]),
    );
    if (row === undefined) throw new Error(`the table ${'<prefix>'}feed has no row: run store.migrate()`);
    if (epoch !== undefined) {
      if (epoch !== row.epoch) throw cursorExpired(STORE, 'it comes from another database');
      const pruned: [bigint, bigint] = [BigInt(row.prunedTx), BigInt(row.prunedSeq)];
      if (from[0] < pruned[0] || (from[0] === pruned[0] && from[1] < pruned[1]))
        throw cursorExpired(STORE, 'messages after it were moved out of the table');
    }
    return {
      entries: row.entries.map(({ tx, seq, message }) => ({ cursor: formatCursor(row.epoch, tx, seq), message })),
      heldBack: row.heldBack,
    };
  };
}
