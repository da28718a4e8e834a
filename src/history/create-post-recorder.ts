import { ChannelWebhookError } from '../errors.js';
import type { MaybePromise, PostRecord } from '../ports.js';
import type { Deadline } from '../waiting/deadline.js';
import { isThenable } from '../waiting/maybe-promise.js';
import { isFolded, minuteOf } from './post-record.js';

/** Most records waiting for the store: past it, a record is dropped (and counted) rather than kept. */
export const MAX_WAITING_RECORDS = 10_000;

/** How long records gather for a store that answers with a promise (a network away), in ms. */
export const LINGER_MS = 50;

/**
 * Records gathered for such a store that are written at once, without waiting for the rest of the
 * linger; for a store that answers at once, the records after which a batch goes on a microtask
 * rather than on the next turn of the event loop.
 */
const FULL_BATCH = 500;

/** How long the further 415s or 429s of a webhook's minute are held and counted before their count is written, in ms. */
export const HOLD_MS = 1_000;

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

/** The 415s, or the 429s, of one webhook in one minute: the record of them waiting to be written, or those held since. */
interface Minute {
  minute: number;
  waiting: PostRecord | null;
  held: PostRecord | null;
}

/**
 * The post history's writer. Records gather while nothing is written, and go to `recordPosts` in
 * one batch on the next tick (for a store that answers at once, on a microtask once
 * {@link FULL_BATCH} wait), or, for a store that answered the last batch with a promise, after
 * {@link LINGER_MS} (sooner once {@link FULL_BATCH} wait): a statement over the network costs more
 * than its rows. While a batch is being written the next one gathers, and goes once that write
 * settles. A batch never waits to fill beyond that, so a quiet webhook's record is stored at once.
 *
 * The 415s of one webhook in one minute are one record, and so are its 429s (see
 * {@link isFolded}): those that come while it waits add to its `count`; those that come after it
 * was handed over are held and counted, and their count goes to the store (which adds it to the
 * minute's record) every {@link HOLD_MS}. So a flood of either costs a write a second, whatever its
 * rate.
 *
 * At most {@link MAX_WAITING_RECORDS} wait, and at most as many webhook minutes of folded records are kept
 * (a minute is forgotten once it is over and written); past that records are dropped, and the count
 * of them is reported. A failed or late write (the handler's store deadline) loses its batch and is reported;
 * nothing of it reaches an answer.
 */
export function createPostRecorder({ recordPosts, deadline, report }: PostRecorderOptions): PostRecorder {
  let waiting: PostRecord[] = [];
  const minutes = new Map<string, Minute>();
  let newestMinute = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A write queued as a microtask (see schedule).
  let soon = false;
  let holding: ReturnType<typeof setTimeout> | undefined;
  let writing = false;
  let remote = false;
  let dropped = 0;

  const schedule = (): void => {
    if (writing || waiting.length === 0 || soon) return;
    if (!remote && waiting.length >= FULL_BATCH) {
      // A store that answers at once, under a caller whose posts never let a timer run (a loop of
      // awaited posts in one process, each settled by microtasks alone): a full batch goes on a
      // microtask, still after the post that filled it has its answer, rather than the records
      // piling up to the bound and being dropped.
      clearTimeout(timer);
      timer = undefined;
      soon = true;
      queueMicrotask(write);
      return;
    }
    if (timer !== undefined && !(remote && waiting.length === FULL_BATCH)) return;
    clearTimeout(timer);
    timer = setTimeout(write, remote && waiting.length < FULL_BATCH ? LINGER_MS : 0);
  };

  const written = (): void => {
    writing = false;
    if (dropped > 0) {
      report(
        new ChannelWebhookError(
          'history_unavailable',
          `${dropped} post records were dropped: ${MAX_WAITING_RECORDS} were already waiting for the store`,
        ),
      );
      dropped = 0;
    }
    schedule();
  };

  const failed = (error: unknown): void => {
    report(error);
    written();
  };

  function write(): void {
    timer = undefined;
    soon = false;
    const batch = waiting;
    waiting = [];
    for (const [key, minute] of minutes) {
      minute.waiting = null;
      forgetIfOver(key, minute);
    }
    writing = true;
    let result: MaybePromise<void>;
    try {
      result = deadline(recordPosts(batch));
    } catch (error) {
      failed(error);
      return;
    }
    remote = isThenable(result);
    if (remote) (result as PromiseLike<void>).then(written, failed);
    else written();
  }

  // A minute that is over and has nothing waiting or held is forgotten: a later 415 or 429 of it (a clock
  // step back) gets a record of its own, which the store adds to the minute's.
  function forgetIfOver(key: string, minute: Minute): void {
    if (minute.waiting === null && minute.held === null && minute.minute < newestMinute) minutes.delete(key);
  }

  // The held counts go out together.
  function release(): void {
    holding = undefined;
    for (const [key, minute] of minutes) {
      if (minute.held !== null) {
        waiting.push(minute.held);
        minute.waiting = minute.held;
        minute.held = null;
      } else forgetIfOver(key, minute);
    }
    schedule();
  }

  const add = (record: PostRecord): boolean => {
    if (waiting.length >= MAX_WAITING_RECORDS) {
      dropped++;
      return false;
    }
    waiting.push(record);
    schedule();
    return true;
  };

  function folded(record: PostRecord): void {
    const at = minuteOf(record.at);
    const key = `${record.status} ${at} ${record.webhookId}`;
    const minute = minutes.get(key);
    if (minute === undefined) {
      if (minutes.size >= MAX_WAITING_RECORDS) dropped++;
      else if (add(record)) minutes.set(key, { minute: at, waiting: record, held: null });
    } else if (minute.waiting !== null) minute.waiting.count += record.count;
    else if (minute.held !== null) minute.held.count += record.count;
    else {
      minute.held = record;
      // Unreferenced: held counts are worth a write, not a process kept alive.
      holding ??= setTimeout(release, HOLD_MS);
      (holding as { unref?: () => void }).unref?.();
    }
  }

  return {
    record(record) {
      if (minuteOf(record.at) > newestMinute) {
        newestMinute = minuteOf(record.at);
        for (const [key, minute] of minutes) forgetIfOver(key, minute);
      }
      if (isFolded(record.status)) folded(record);
      else add(record);
    },
  };
}
