import type { InsertMessageInput, Message } from '../../../src/store-kit/index.js';
import { messageFieldValue, type ResolvedMessageMapping } from '../sql/index.js';

/**
 * The statements that write the messages of one transaction, a single post's or a batch's, and
 * take their places in the feed: the app's rows (with a `messages` mapping), then the block of
 * places, then the store's rows, last before the commit.
 */
export function messageWrites(p: string, appMessages: ResolvedMessageMapping | null) {
  const rows = (count: number, row: string) => Array.from({ length: count }, () => row).join(', ');
  const appRow = appMessages === null ? '' : `(${appMessages.columns.map(() => '?').join(', ')})`;
  return {
    /**
     * The app's rows, before the feed's counter is taken: a row its table makes wait (a lock of
     * the app's own) then holds up only this transaction, not every insert of the database.
     */
    insertAppRows:
      appMessages === null
        ? null
        : (count: number) =>
            `INSERT INTO ${appMessages.table} (${appMessages.columns.map(({ column }) => column).join(', ')})
       VALUES ${rows(count, appRow)}`,

    /** The values of the app's row for `message`, in its columns' order. */
    appRowValues: (message: Message): unknown[] =>
      (appMessages?.columns ?? []).map((entry) =>
        'value' in entry
          ? entry.value
          : entry.field === 'createdAt'
            ? mysqlTime(message.createdAt)
            : messageFieldValue(message, entry.field),
      ),

    /**
     * Takes the next `count` places (bound) under the counter row's lock, held to the commit, so
     * that places commit in the order they are taken. LAST_INSERT_ID(expr) keeps the last of them
     * on the connection for the insert that follows (an insert into the app's table, whose
     * AUTO_INCREMENT would change it, comes before).
     */
    takePlaces: `UPDATE ${p}feed SET next_seq = LAST_INSERT_ID(next_seq + ?) WHERE id = 1`,

    /** The store's rows of `count` messages, each at the place `LAST_INSERT_ID() - offset`. */
    insertMessages: (count: number) =>
      `INSERT INTO ${p}messages (seq, id, channel_id, webhook_id, author_name, body, blocks, created_at, idempotency_key, key_hash)
       VALUES ${rows(count, '(LAST_INSERT_ID() - ?, ?, ?, ?, ?, ?, ?, ?, ?, IF(? IS NULL, NULL, UNHEX(SHA2(?, 256))))')}`,

    /** The values of one row of `insertMessages`: the place `offset` below the block's last. */
    messageValues: ({ message, idempotencyKey }: InsertMessageInput, offset: number): unknown[] => {
      const key = keyText(idempotencyKey);
      return [
        offset,
        message.id,
        message.channelId,
        message.author.id,
        message.author.name,
        JSON.stringify(message.body),
        JSON.stringify(message.blocks),
        message.createdAt,
        key,
        key,
        key,
      ];
    },
  };
}

/** An idempotency key as the `idempotency_key` column holds it (JSON text), or null. */
export function keyText(idempotencyKey: string | null): string | null {
  return idempotencyKey === null ? null : JSON.stringify(idempotencyKey);
}

/** An ISO 8601 time in UTC as MySQL's `DATETIME` literal takes it (`2026-01-01 12:00:00.000`), without the `T` and `Z`. */
function mysqlTime(iso: string): string {
  return iso.replace('T', ' ').replace(/Z$/, '');
}
