import type { MaybePromise } from './ports.js';

/** Whether `value` is a thenable: the only kind of answer that is waited for. */
export function isThenable<T>(value: MaybePromise<T> | PromiseLike<T>): value is PromiseLike<T> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
