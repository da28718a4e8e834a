import type { MaybePromise } from './ports.js';

/** Whether `value` is a thenable: the only kind of answer that is waited for. */
export function isThenable<T>(value: MaybePromise<T> | PromiseLike<T>): value is PromiseLike<T> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * Goes on with `next` at once when `value` is a value, or once it settles when it is a thenable
 * (a rejection goes to `failed`, or stays a rejection without it). So a chain of steps over ports
 * that answer synchronously makes no promise at all.
 */
export function andThen<T, R>(
  value: MaybePromise<T> | PromiseLike<T>,
  next: (value: T) => MaybePromise<R>,
  failed?: (error: unknown) => MaybePromise<R>,
): MaybePromise<R> {
  return isThenable(value) ? (Promise.resolve(value).then(next, failed) as Promise<R>) : next(value);
}
