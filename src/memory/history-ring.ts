import { isFolded, minuteOf } from '../history/post-record.js';
import { POST_HISTORY_LIMIT } from '../limits.js';
import type { PostRecord } from '../ports.js';

/**
 * A webhook's history in the memory store: one array holding how many records were ever written to
 * it, then up to {@link POST_HISTORY_LIMIT} records of {@link FIELDS} values each, the oldest
 * overwritten in place once it is full. One array rather than a ring object, its list and an object
 * per record: about 200 bytes less for a webhook that posted once, and no object per record for the
 * garbage collector to copy and trace.
 */
export type HistoryRing = unknown[];

// A record's values, in this order after the count: at, status, code, errors, idempotencyKey,
// messageId, bodyBytes, count. Its webhook is the ring's.
const FIELDS = 8;
const AT = 0;
const STATUS = 1;
const COUNT = 7;

export function newHistoryRing(): HistoryRing {
  return [0];
}

/**
 * Adds a record: a 415 or 429 to the ring's record of the same status and minute when it still
 * holds one (summing `count`, keeping the earliest time), anything else in the next place.
 */
export function addToHistory(ring: HistoryRing, record: PostRecord): void {
  if (isFolded(record.status) && addToItsMinute(ring, record)) return;
  const written = ring[0] as number;
  const at = 1 + (written % POST_HISTORY_LIMIT) * FIELDS;
  ring[at + AT] = record.at;
  ring[at + STATUS] = record.status;
  ring[at + 2] = record.code;
  ring[at + 3] =
    record.errors.length === 0 ? NO_ERRORS : Object.freeze(record.errors.map((error) => Object.freeze({ ...error })));
  ring[at + 4] = record.idempotencyKey;
  ring[at + 5] = record.messageId;
  ring[at + 6] = record.bodyBytes;
  ring[at + COUNT] = record.count;
  ring[0] = written + 1;
}

/** The ring's records, newest first, at most `limit`: frozen copies that share only the frozen errors. */
export function newestRecords(ring: HistoryRing, webhookId: string, limit: number): PostRecord[] {
  const written = ring[0] as number;
  const newest: PostRecord[] = [];
  const oldest = written - Math.min(limit, POST_HISTORY_LIMIT);
  for (let position = written - 1; position >= 0 && position >= oldest; position--) {
    const at = 1 + (position % POST_HISTORY_LIMIT) * FIELDS;
    newest.push(
      Object.freeze({
        webhookId,
        at: ring[at + AT] as number,
        status: ring[at + STATUS] as number,
        code: ring[at + 2] as string | null,
        errors: ring[at + 3] as PostRecord['errors'],
        idempotencyKey: ring[at + 4] as string | null,
        messageId: ring[at + 5] as string | null,
        bodyBytes: ring[at + 6] as number | null,
        count: ring[at + COUNT] as number,
      }),
    );
  }
  return newest;
}

function addToItsMinute(ring: HistoryRing, record: PostRecord): boolean {
  const minute = minuteOf(record.at);
  for (let at = 1; at < ring.length; at += FIELDS) {
    if (ring[at + STATUS] !== record.status || minuteOf(ring[at + AT] as number) !== minute) continue;
    ring[at + AT] = Math.min(ring[at + AT] as number, record.at);
    ring[at + COUNT] = (ring[at + COUNT] as number) + record.count;
    return true;
  }
  return false;
}

const NO_ERRORS = Object.freeze([]);
