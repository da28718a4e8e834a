import type { InsertMessageInput, InsertMessageResult } from '../../../src/store-kit/index.js';
import type { ResolvedChannelSource } from '../sql/index.js';
import type { createCalls } from './mysql-calls.js';
import { keyText, type messageWrites } from './message-writes.js';
import { MESSAGE_COLUMNS, toMessage } from './rows.js';

// MySQL's error for a duplicate entry in a unique index.
const ER_DUP_ENTRY = 1062;

/**
 * The guarded insert of one post, in one transaction (see `createMysqlStore`): answers its outcome
 * once committed or rolled back, and calls `stored` after the commit of a message.
 */
export function createGuardedInsert(
  calls: ReturnType<typeof createCalls>,
  p: string,
  c: ResolvedChannelSource,
  writes: ReturnType<typeof messageWrites>,
  stored: (channelId: string) => void,
) {
  const ownChannels = c.table === `${p}channels`;
  // A post with a key reads the message stored under it in the guard's statement: a locking read
  // by the unique index, of the newest committed row, which at READ COMMITTED (see `insert`) locks
  // the row it finds and never the gap where a missing key would go. The message's columns keep
  // their own names.
  const earlier = MESSAGE_COLUMNS.split(', ')
    .map((column) => `, m.${column}`)
    .join('');
  const keyed = `LEFT JOIN ${p}messages m ON m.webhook_id = w.id AND m.key_hash = UNHEX(SHA2(?, 256)) AND m.idempotency_key = ?`;
  // The webhook row, then its channel's, in one statement when the channel is the store's own.
  // The channel's lock is shared, as a batch takes it: posts to one channel need not wait for
  // each other, while an archival (putChannel, or the app's UPDATE) waits for them.
  const guard = (key: boolean) =>
    ownChannels
      ? `SELECT w.channel_id AS webhook_channel, (w.revoked_at IS NULL AND w.secret_hash = ?) AS active, c.archived${key ? earlier : ''}
       FROM ${p}webhooks w LEFT JOIN ${p}channels c ON c.id = w.channel_id ${key ? keyed : ''} WHERE w.id = ? LOCK IN SHARE MODE`
      : `SELECT w.channel_id AS webhook_channel, (w.revoked_at IS NULL AND w.secret_hash = ?) AS active${key ? earlier : ''}
       FROM ${p}webhooks w ${key ? keyed : ''} WHERE w.id = ? LOCK IN SHARE MODE`;
  const sql = {
    // The webhook's last_post_at is set first: the statement that writes it takes the row's lock,
    // exclusive, as a rotation or revocation takes it, so posts of one webhook take turns from here
    // on, and an earlier post with the same key has committed before the guard reads it. A post
    // that is refused rolls it back.
    touch: `UPDATE ${p}webhooks SET last_post_at = ? WHERE id = ?`,
    guard: guard(false),
    guardKeyed: guard(true),
    // The app's channel by the bound id, so that its own column's collation and index decide (a
    // join with the store's utf8mb4_bin column could refuse to mix collations).
    lockAppChannel: `SELECT COALESCE(${c.archived}, 0) AS archived FROM ${c.table} WHERE ${c.id} = ? LOCK IN SHARE MODE`,
    keyed: `SELECT ${MESSAGE_COLUMNS} FROM ${p}messages WHERE webhook_id = ? AND key_hash = UNHEX(SHA2(?, 256)) AND idempotency_key = ? LOCK IN SHARE MODE`,
  };

  const insert = ({ message, idempotencyKey, secretHash, postedAt }: InsertMessageInput, ms: number) => {
    const webhookId = message.author.id;
    const key = keyText(idempotencyKey);
    return calls.transaction<InsertMessageResult>(
      'insertMessage',
      async (tx) => {
        const refused = (result: InsertMessageResult) => ({ value: result, commit: false });
        await tx(sql.touch, [postedAt, webhookId]);
        const [guard] = (
          key === null
            ? await tx(sql.guard, [secretHash, webhookId])
            : await tx(sql.guardKeyed, [secretHash, key, key, webhookId])
        ).rows;
        if (guard === undefined || Number(guard.active) !== 1) return refused({ outcome: 'webhook_inactive' });
        const archived = ownChannels
          ? guard.archived
          : (await tx(sql.lockAppChannel, [guard.webhook_channel])).rows[0]?.archived;
        if (archived === null || archived === undefined) return refused({ outcome: 'channel_not_found' });
        if (Number(archived) !== 0) return refused({ outcome: 'channel_archived' });
        if (key !== null && guard.id !== null) return refused({ outcome: 'duplicate', message: toMessage(guard) });
        // The app's row in this transaction: a constraint of its table refusing it rolls the
        // message and its key back with it.
        if (writes.insertAppRows !== null) await tx(writes.insertAppRows(1), writes.appRowValues(message));
        // The feed's counter last: its lock is held from here to the commit, which every other
        // insert of the database waits for.
        await tx(writes.takePlaces, [1]);
        try {
          await tx(
            writes.insertMessages(1),
            writes.messageValues({ message, idempotencyKey, secretHash, postedAt }, 0),
          );
        } catch (error) {
          // The unique index answers for a key another writer stored after all.
          if ((error as { errno?: unknown }).errno !== ER_DUP_ENTRY || key === null) throw error;
          const found = (await tx(sql.keyed, [webhookId, key, key])).rows[0];
          if (found === undefined) throw error;
          return refused({ outcome: 'duplicate', message: toMessage(found) });
        }
        return { value: { outcome: 'created', message }, commit: true };
      },
      // A post that reads its key, or writes the app's row (whose triggers may read), runs at READ
      // COMMITTED (see `createCalls`); one without either only locks and writes rows, and takes no
      // snapshot at the session's own level.
      { ms, readCommitted: key !== null || writes.insertAppRows !== null },
    );
  };

  return async (input: InsertMessageInput, deadline: number): Promise<InsertMessageResult> => {
    const result = await insert(input, Math.max(1, deadline - Date.now()));
    // After the commit: a follower woken now reads the message.
    if (result.outcome === 'created') stored(result.message.channelId);
    return result;
  };
}
