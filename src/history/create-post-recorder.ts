import { ChannelWebhookError } from '../errors.js';
import type { MaybePromise, PostRecord } from '../ports.js';
import type { Deadline } from '../waiting/deadline.js';
import { isThenable } from '../waiting/maybe-promise.js';
import { minuteOf } from './post-record.js';

/** Most records waiting for the store: past it, a record is dropped (and counted) rather than kept. */
export const MAX_WAITING_RECORDS = 10_000;

/**
 * Takes the records of answered posts and hands them to the store in batches, off the answer's
 * path. See {@link createPostRecorder}.
 */
export interface PostRecorder {
  /** Hands over one record. It never throws and never waits: the store sees it on a later tick. */
  record(record: PostRecord): void;
}

/** What the recorder needs: the store's write, the handler's deadline for it, and where failures go. */
export interface PostRecorderOptions {
  recordPosts: (records: readonly PostRecord[]) => MaybePromise<void>;
  deadline: Deadline;
  report: (error: unknown) => void;
}

/**
 * The post history's writer. Records gather while nothing is written, and go to `recordPosts` in
 * one batch on the next tick; while a batch is being written, the next one gathers, and goes as
 * soon as that write settles. A batch never waits to fill, so a quiet webhook's record is stored at
 * once, and a busy store gets fewer, larger writes. Within what waits, the 429s of one webhook and
 * one minute are one record (its `count` summed), so a flood of them costs one record a minute.
 * At most {@link MAX_WAITING_RECORDS} wait; past that records are dropped, and the count of them is
 * reported. A failed or late write (the handler's store deadline) loses its batch and is reported;
 * nothing of it reaches an answer.
 */
export function createPostRecorder({ recordPosts, deadline, report }: PostRecorderOptions): PostRecorder {
  let waiting: PostRecord[] = [];
  // The 429 record of each webhook and minute among those waiting, which later 429s add to.
  const rateLimited = new Map<string, PostRecord>();
  let scheduled = false;
  let writing = false;
  let dropped = 0;

  const schedule = (): void => {
    if (scheduled || writing || waiting.length === 0) return;
    scheduled = true;
    setTimeout(write, 0);
  };

  const written = (): void => {
    writing = false;
    if (dropped > 0) {
      report(new ChannelWebhookError('history_unavailable', `${dropped} post records were dropped: ${MAX_WAITING_RECORDS} were already waiting for the store`));
      dropped = 0;
    }
    schedule();
  };

  const failed = (error: unknown): void => {
    report(error);
    written();
  };

  function write(): void {
    scheduled = false;
    const batch = waiting;
    waiting = [];
    rateLimited.clear();
    writing = true;
    let result: MaybePromise<void>;
    try {
      result = deadline(recordPosts(batch));
    } catch (error) {
      failed(error);
      return;
    }
    if (isThenable(result)) result.then(written, failed);
    else written();
  }

  return {
    record(record) {
      const key = record.status === 429 ? `${minuteOf(record.at)} ${record.webhookId}` : null;
      const earlier = key === null ? undefined : rateLimited.get(key);
      if (earlier !== undefined) {
        earlier.count += record.count;
        return;
      }
      if (waiting.length >= MAX_WAITING_RECORDS) {
        dropped++;
        return;
      }
      if (key !== null) rateLimited.set(key, record);
      waiting.push(record);
      schedule();
    },
  };
}
