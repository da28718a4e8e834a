import type { MaybeAsync } from './answers.js';

/**
 * The outcome of one {@link RateLimiter.hit}. Being limited is a value, not an error.
 *
 * @example
 * ```ts
 * const decision = await rateLimiter.hit(webhookId, clock.now());
 * if (!decision.allowed) retryAfterSeconds = Math.ceil(decision.resetMs / 1000);
 * ```
 */
export interface RateLimitDecision {
  /** `true` when the request may go on; `false` means answer 429. */
  allowed: boolean;
  /** Requests allowed per window. */
  limit: number;
  /** Window length in ms. */
  windowMs: number;
  /** Requests still allowed in the trailing window after this one. */
  remaining: number;
  /**
   * Milliseconds until the oldest counted request leaves the trailing window, which is when one
   * more request becomes allowed. When `allowed` is `false`, a retry after this long succeeds
   * (if nothing else was counted meanwhile).
   */
  resetMs: number;
}

/**
 * The rate limiter's method, with the value it gives: a limiter answers at once ({@link Sync}),
 * with a promise ({@link Async}), or either way ({@link MaybeAsync}).
 *
 * @example
 * ```ts
 * const inProcess: Sync<RateLimiterMethods> = createMemoryRateLimiter();
 * ```
 */
export interface RateLimiterMethods {
  /** One decision: counts the request at `now` when it is allowed. */
  hit: (key: string, now: number) => RateLimitDecision;
}

/** The methods the handler calls on its rate limiter, and checks it for. */
export const RATE_LIMITER_METHODS = ['hit'] as const satisfies readonly (keyof RateLimiterMethods)[];

/**
 * Counts requests per key in an exact sliding window: a request at time `now` is allowed when fewer
 * than `limit` allowed requests have times in `(now - windowMs, now]`. Allowed requests are counted;
 * refused ones are not. So no window of `windowMs` ever holds more than `limit` allowed requests.
 *
 * `hit` is one atomic read-modify-write per decision, also across instances sharing a backend.
 * `now` comes from the caller's clock; implementations must not read their own. It may answer with
 * the decision or a promise of it ({@link MaybePromise}).
 *
 * @example
 * ```ts
 * // Count refusals around another limiter:
 * const counted: RateLimiter = {
 *   async hit(key, now) {
 *     const decision = await inner.hit(key, now);
 *     if (!decision.allowed) metrics.increment('webhook_rate_limited');
 *     return decision;
 *   },
 * };
 * ```
 */
export interface RateLimiter extends MaybeAsync<RateLimiterMethods> {}
