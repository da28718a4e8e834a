/**
 * A value, or a promise of it. Every port method may answer either way: a port that does its work in
 * process (the in-memory store and limiter) answers synchronously, and the handler then goes on
 * without a promise; a port over a network answers with a promise, which the handler awaits under a
 * deadline. A port may mix both, even per call.
 *
 * @example
 * ```ts
 * const counter: RateLimiter = {
 *   hit: (key, now) => (cache.has(key) ? cache.decide(key, now) : remote.hit(key, now)),
 * };
 * ```
 */
export type MaybePromise<T> = T | Promise<T>;

/**
 * Whether `value` is a thenable: the only kind of answer that is waited for.
 *
 * @example
 * ```ts
 * const answer = inner.getWebhook(webhookId);
 * return isThenable(answer) ? Promise.resolve(answer).then(copy) : copy(answer);
 * ```
 */
export function isThenable<T>(value: MaybePromise<T> | PromiseLike<T>): value is PromiseLike<T> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
