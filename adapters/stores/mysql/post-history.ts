import {
  ChannelWebhookError,
  isFolded,
  mergeFolded,
  minuteOf,
  POST_HISTORY_LIMIT,
  type PostRecord,
} from '../../../src/store-kit/index.js';
import { chunksOf, countPerWebhook, historySlotRows } from '../sql/index.js';
import { type createCalls, failsAlone, type MysqlRow, STORE } from './mysql-calls.js';
import { POST_COLUMNS, toPostRecord } from './rows.js';

// The most heads or ring rows one statement writes. A batch is a few hundred records at a busy time
// (up to the recorder's 10,000 after a slow write); one statement of 500 rows held a core long
// enough to raise the p99 of the posts beside it on a 2-core machine, one of 100 did not.
const CHUNK = 100;

/**
 * The post history: a ring of the last 100 records of each webhook in `<prefix>posts`, and its
 * head, the count of its records, in `<prefix>post_heads` (see `mysqlSchema`).
 *
 * A batch is one transaction at READ COMMITTED (see `createCalls`). It first moves the heads of its
 * webhooks past its records, in id order, in one statement: that locks them, so two writers of one
 * webhook take turns from there on, and two writers of many never wait for each other in a circle.
 * Under those locks it reads the heads and, when it has a 415 or 429, the 415s and 429s of those
 * rings; a 415 or 429 whose minute already has its record adds its count there and gives its place
 * back; the others take the places the heads moved past, in the batch's order, and every record goes
 * to its slot, 100 to a statement.
 */
export function createPostHistory(calls: ReturnType<typeof createCalls>, p: string) {
  const list = (count: number, item = '?') => Array.from({ length: count }, () => item).join(', ');
  const sql = {
    moveHeads: (count: number) =>
      `INSERT INTO ${p}post_heads (webhook_id, next) VALUES ${list(count, '(?, ?)')} ON DUPLICATE KEY UPDATE next = next + VALUES(next)`,
    heads: (count: number) => `SELECT webhook_id, next FROM ${p}post_heads WHERE webhook_id IN (${list(count)})`,
    folded: (count: number) =>
      `SELECT slot, position, ${POST_COLUMNS} FROM ${p}posts WHERE webhook_id IN (${list(count)}) AND status IN (415, 429)`,
    giveBack: (count: number) =>
      `UPDATE ${p}post_heads SET next = next - CASE webhook_id ${'WHEN ? THEN ? '.repeat(count)}END WHERE webhook_id IN (${list(count)})`,
    // A row at the position its slot already holds is a 415 or 429 of that record's minute: its
    // count is added and its first time kept. Any other row is a newer record, which replaces the
    // slot's. `position` is assigned last: the assignments before it compare the slot's own.
    writeSlots: (count: number) =>
      `INSERT INTO ${p}posts (webhook_id, slot, position, at, status, code, errors, idempotency_key, message_id, body_bytes, count)
       VALUES ${list(count, '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')}
       ON DUPLICATE KEY UPDATE count = IF(position = VALUES(position), count + VALUES(count), VALUES(count)),
         at = IF(position = VALUES(position), LEAST(at, VALUES(at)), VALUES(at)), status = VALUES(status),
         code = VALUES(code), errors = VALUES(errors), idempotency_key = VALUES(idempotency_key),
         message_id = VALUES(message_id), body_bytes = VALUES(body_bytes), position = VALUES(position)`,
  };

  /** Writes `records` (merged: one 415 and one 429 record a webhook and minute) in one transaction. */
  const write = (records: PostRecord[]) =>
    calls.transaction(
      'recordPosts',
      async (tx) => {
        const counts = countPerWebhook(records);
        const webhookIds = [...counts.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        for (const ids of chunksOf(webhookIds, CHUNK))
          await tx(
            sql.moveHeads(ids.length),
            ids.flatMap((id) => [id, counts.get(id)]),
          );
        const heads = new Map<string, number>();
        for (const ids of chunksOf(webhookIds, CHUNK))
          for (const row of (await tx(sql.heads(ids.length), ids)).rows)
            heads.set(String(row.webhook_id), Number(row.next));

        // Each 415 or 429 joins its minute's record when its ring has one.
        const withFolded = [...new Set(records.filter((record) => isFolded(record.status)).map((r) => r.webhookId))];
        const minutes = new Map<string, MysqlRow>();
        for (const ids of chunksOf(withFolded, CHUNK))
          for (const row of (await tx(sql.folded(ids.length), ids)).rows) {
            const key = minuteKey(String(row.webhook_id), Number(row.status), Number(row.at));
            if (Number(row.position) > Number(minutes.get(key)?.position ?? -1)) minutes.set(key, row);
          }
        const fresh: PostRecord[] = [];
        const joined: Array<{ record: PostRecord; slot: MysqlRow }> = [];
        for (const record of records) {
          const slot = isFolded(record.status)
            ? minutes.get(minuteKey(record.webhookId, record.status, record.at))
            : undefined;
          if (slot === undefined) fresh.push(record);
          else joined.push({ record, slot });
        }
        const givenBack = countPerWebhook(joined.map(({ record }) => record));
        const headAfter = new Map([...heads].map(([id, next]) => [id, next - (givenBack.get(id) ?? 0)]));
        for (const ids of chunksOf([...givenBack.keys()], CHUNK))
          await tx(sql.giveBack(ids.length), [...ids.flatMap((id) => [id, givenBack.get(id)]), ...ids]);

        // A joined record's slot that a newer record of the batch takes is left to that one.
        const rows = [
          ...joined
            .filter(({ slot }) => Number(slot.position) >= headAfter.get(String(slot.webhook_id))! - POST_HISTORY_LIMIT)
            .map(({ record, slot }) => [
              slot.webhook_id,
              slot.slot,
              slot.position,
              record.at,
              slot.status,
              slot.code,
              slot.errors,
              slot.idempotency_key,
              slot.message_id,
              slot.body_bytes,
              record.count,
            ]),
          ...historySlotRows(fresh, countPerWebhook(fresh), headAfter),
        ];
        for (const chunk of chunksOf(rows, CHUNK)) await tx(sql.writeSlots(chunk.length), chunk.flat());
        return { value: undefined, commit: true };
      },
      { readCommitted: true },
    );

  return {
    async record(records: readonly PostRecord[]): Promise<void> {
      if (records.length === 0) return;
      const merged = mergeFolded(records);
      try {
        await write(merged);
      } catch (error) {
        if (merged.length === 1 || !failsAlone(error)) throw error;
        // One record the server refuses fails the batch's statements: the records are written
        // again one by one, in order, and only those that fail alone are lost (and reported, once).
        const failures: unknown[] = [];
        for (const record of merged) await write([record]).catch((failure: unknown) => failures.push(failure));
        if (failures.length > 0)
          throw new ChannelWebhookError(
            'store_failed',
            `${STORE}: recordPosts failed for ${failures.length} of ${merged.length} records, each written alone; the others are kept`,
            { cause: failures.length === 1 ? failures[0] : new AggregateError(failures) },
          );
      }
    },

    list: async (webhookId: string, limit: number): Promise<PostRecord[]> =>
      (
        await calls.run(
          'listPosts',
          `SELECT ${POST_COLUMNS} FROM ${p}posts WHERE webhook_id = ? ORDER BY position DESC LIMIT ?`,
          [webhookId, limit],
        )
      ).rows.map(toPostRecord),
  };
}

/** The minute a 415 or 429 record of a webhook stands for. */
function minuteKey(webhookId: string, status: number, at: number): string {
  return `${status} ${minuteOf(at)} ${webhookId}`;
}
