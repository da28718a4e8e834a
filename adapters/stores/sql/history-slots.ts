import { POST_HISTORY_LIMIT, type PostRecord } from '../../../src/store-kit/index.js';

/** How many of `records` each webhook has: what its history head moves by. */
export function countPerWebhook(records: readonly PostRecord[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const record of records) counts.set(record.webhookId, (counts.get(record.webhookId) ?? 0) + 1);
  return counts;
}

/**
 * The rows of a batch of history records in each webhook's ring of its last posts, in the column
 * order `webhook_id, slot, position, at, status, code, errors, idempotency_key, message_id,
 * body_bytes, count`, for the SQL stores that keep the ring in rows (SQLite, MySQL).
 *
 * @param records - the batch, in the order the posts were answered.
 * @param counts - {@link countPerWebhook} of `records`.
 * @param headAfter - each webhook's next position once the batch is added (its head, moved by its count).
 */
export function historySlotRows(
  records: readonly PostRecord[],
  counts: ReadonlyMap<string, number>,
  headAfter: ReadonlyMap<string, number>,
): unknown[][] {
  const next = new Map<string, number>();
  const rows: unknown[][] = [];
  for (const record of records) {
    const end = headAfter.get(record.webhookId)!;
    const position = next.get(record.webhookId) ?? end - counts.get(record.webhookId)!;
    next.set(record.webhookId, position + 1);
    // A record whose slot a later record of this batch takes is left out.
    if (position < end - POST_HISTORY_LIMIT) continue;
    rows.push([record.webhookId, position % POST_HISTORY_LIMIT, position, ...postRecordValues(record)]);
  }
  return rows;
}

/**
 * A history record's own values, JSON text where the tables keep JSON, in the column order `at,
 * status, code, errors, idempotency_key, message_id, body_bytes, count`.
 */
export function postRecordValues(record: PostRecord): unknown[] {
  return [
    record.at,
    record.status,
    record.code,
    JSON.stringify(record.errors),
    record.idempotencyKey === null ? null : JSON.stringify(record.idempotencyKey),
    record.messageId,
    record.bodyBytes,
    record.count,
  ];
}

/** `items` in runs of at most `size`, in order: the rows of one multi-row statement each. */
export function chunksOf<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}
