import { ChannelWebhookError, type ChannelWebhookErrorCode } from './errors.js';

interface Pending {
  expiresAt: number;
  settled: boolean;
  reject: (error: unknown) => void;
}

/** Runs async work with a deadline; see {@link createDeadline}. */
export type Deadline = <T>(work: () => T | Promise<T>) => Promise<T>;

/**
 * A deadline of `ms` for any number of concurrent calls, served by a single timer.
 *
 * Every call gets the same time-out, so calls expire in the order they start: a FIFO queue and one
 * timer armed for its oldest unsettled entry replace a `setTimeout`/`clearTimeout` pair per call,
 * which cost more than the in-memory store's work itself. Deadlines measure elapsed real time
 * (`performance.now()`), which a fake clock in tests must not stop.
 */
export function createDeadline(ms: number, code: ChannelWebhookErrorCode, message: string): Deadline {
  if (!Number.isFinite(ms) || ms <= 0) throw new RangeError(`a deadline must be a positive number of ms, got ${ms}`);
  let queue: Pending[] = [];
  let head = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const dropSettled = (): void => {
    while (head < queue.length && queue[head]!.settled) head++;
    if (head === queue.length) {
      queue = [];
      head = 0;
    } else if (head > 1024 && head * 2 > queue.length) {
      queue = queue.slice(head);
      head = 0;
    }
  };

  // A timer left armed for an entry that settled early just fires, finds nothing due and re-arms:
  // far cheaper than clearing and setting one per call when calls run one after another.
  const arm = (): void => {
    dropSettled();
    if (timer !== undefined || head === queue.length) return;
    timer = setTimeout(expire, Math.max(0, queue[head]!.expiresAt - performance.now()));
    // Node: a pending deadline alone must not keep the process alive.
    (timer as { unref?: () => void }).unref?.();
  };

  const expire = (): void => {
    timer = undefined;
    const now = performance.now();
    while (head < queue.length) {
      const pending = queue[head]!;
      if (!pending.settled) {
        if (pending.expiresAt > now) break;
        pending.settled = true;
        pending.reject(new ChannelWebhookError(code, `${message} (${ms} ms)`));
      }
      head++;
    }
    arm();
  };

  return <T>(work: () => T | Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const pending: Pending = { expiresAt: performance.now() + ms, settled: false, reject };
      const settle = (): boolean => {
        if (pending.settled) return false;
        pending.settled = true;
        if (queue[head] === pending) dropSettled();
        return true;
      };
      queue.push(pending);
      if (timer === undefined) arm();
      let promise: T | Promise<T>;
      try {
        promise = work();
      } catch (error) {
        if (settle()) reject(error);
        return;
      }
      // A result that arrives after the deadline is dropped: the caller has already answered 500.
      Promise.resolve(promise).then(
        (value) => {
          if (settle()) resolve(value);
        },
        (error: unknown) => {
          if (settle()) reject(error);
        },
      );
    });
}
