import { ChannelWebhookError, type ChannelWebhookErrorCode } from '../errors.js';
import { isThenable, type MaybePromise } from './maybe-promise.js';

/**
 * Puts a port's answer under a deadline; see {@link createDeadline}. A value comes back as it is,
 * and only a thenable becomes a promise, timed from when the port returned it.
 */
export type Deadline = <T>(answer: MaybePromise<T>) => MaybePromise<T>;

/**
 * Settles like `work`, or rejects with `timeoutError()` when `work` has not settled `ms` after the
 * call. Each call has its own timer, cleared as soon as `work` settles: a runtime that drops a
 * request's timers when the request ends (Cloudflare's workerd does) never leaves another request
 * without its deadline, and nothing stays armed between requests. The timer does not keep a Node
 * process alive. A result arriving after the deadline is dropped.
 *
 * @example
 * ```ts
 * const rows = await settleWithin(client.query(sql), 5_000, () => new ChannelWebhookError('store_timeout', 'My store: the query took over 5 s'));
 * ```
 */
export function settleWithin<T>(work: PromiseLike<T>, ms: number, timeoutError: () => unknown): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(timeoutError()), ms);
    (timer as { unref?: () => void }).unref?.();
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * The longest delay `setTimeout` honours; a longer one fires at once (and Node warns).
 *
 * @example
 * ```ts
 * checkOptions('createMyStore', options, { busyTimeoutMs: integer(0, MAX_TIMEOUT_MS) });
 * ```
 */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * A deadline of `ms` (which the factory's options check already passed: the `MILLISECONDS` rule)
 * for calls to a port: an answer that is a value (an in-process port) is used as it is, with no
 * timer and no promise; a thenable gets {@link settleWithin} and, past `ms`, rejects with a
 * `ChannelWebhookError` of `code`.
 */
export function createDeadline(ms: number, code: ChannelWebhookErrorCode, message: string): Deadline {
  const expired = (): ChannelWebhookError => new ChannelWebhookError(code, `${message} (${ms} ms)`);
  return <T>(answer: MaybePromise<T>): MaybePromise<T> =>
    isThenable(answer) ? settleWithin(answer, ms, expired) : answer;
}
