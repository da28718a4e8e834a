import type { FieldError } from '../http/problem.js';
import type { WebhookResponse } from '../http/http-types.js';
import type { PostRecord } from '../ports.js';

/** Most error entries of a 400 a record keeps: enough to say what went wrong, few enough to stay small. */
export const MAX_RECORDED_ERRORS = 5;

/**
 * The minute a folded record stands for: every 415, and every 429, of a webhook in it is one record.
 *
 * @example
 * ```ts
 * const minute = minuteOf(record.at); // the key of the record this 429 is added to
 * ```
 */
export const minuteOf = (at: number): number => Math.floor(at / 60_000);

/**
 * Whether a record of this status is folded into its webhook's record of the same status and
 * minute: 429, and 415, which comes before the rate count, so whoever holds the URL can send
 * either at line rate without either taking a place of its own in the history.
 *
 * @example
 * ```ts
 * if (isFolded(record.status) && addToItsMinute(record)) continue;
 * ```
 */
export const isFolded = (status: number): boolean => status === 429 || status === 415;

const NO_ERRORS: FieldError[] = Object.freeze([]) as unknown as FieldError[];

/**
 * The record of one answered post: its status and problem code, the first entries of a 400 (their
 * hints with them), the stored message's id, and what the handler learnt on the way (the key, the
 * body's size). Nothing of a refused body beyond what its answer already says.
 */
export function postRecordOf(
  webhookId: string,
  at: number,
  response: WebhookResponse,
  key: string | null,
  bodyBytes: number | null,
): PostRecord {
  const { status } = response;
  const body = response.body as { code?: string; errors?: FieldError[]; message?: { id: string } };
  const stored = status === 200 || status === 201;
  return {
    webhookId,
    at,
    status,
    code: stored ? null : (body.code ?? null),
    errors: status === 400 && body.errors !== undefined ? body.errors.slice(0, MAX_RECORDED_ERRORS) : NO_ERRORS,
    idempotencyKey: key,
    messageId: stored ? (body.message?.id ?? null) : null,
    bodyBytes,
    count: 1,
  };
}

/**
 * `records` with the folded records (see {@link isFolded}) of one webhook, status and minute made
 * one, in the place of the first, its `count` the sum and its `at` the earliest; the others as they
 * are, in order. What a store's `recordPosts` is given may hold several such records; a store adds
 * each merged one to its own record of that status and minute.
 *
 * @example
 * ```ts
 * for (const record of mergeFolded(records)) {
 *   if (isFolded(record.status) && (await addToMinute(record.webhookId, record.status, minuteOf(record.at), record.count))) continue;
 *   await insert(record);
 * }
 * ```
 */
export function mergeFolded(records: readonly PostRecord[]): PostRecord[] {
  const merged: PostRecord[] = [];
  const byMinute = new Map<string, number>();
  for (const record of records) {
    if (!isFolded(record.status)) {
      merged.push(record);
      continue;
    }
    const key = `${record.status} ${minuteOf(record.at)} ${record.webhookId}`;
    const at = byMinute.get(key);
    if (at === undefined) {
      byMinute.set(key, merged.length);
      merged.push(record);
    } else {
      const first = merged[at]!;
      merged[at] = { ...first, at: Math.min(first.at, record.at), count: first.count + record.count };
    }
  }
  return merged;
}
