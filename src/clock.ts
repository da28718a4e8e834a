import { EPOCH_MS } from './arguments/argument-rules.js';
import { checkArgument } from './arguments/check-options.js';
import { ChannelWebhookError } from './errors.js';
import type { Clock } from './ports.js';

/**
 * The wall clock: `Date.now()`. The default everywhere a clock is optional.
 *
 * @example
 * ```ts
 * const handle = createWebhookHandler({ store, rateLimiter, clock: systemClock });
 * ```
 */
export const systemClock: Clock = { now: () => Date.now() };

/**
 * A clock that only moves when told to.
 *
 * @example
 * ```ts
 * const clock: FakeClock = createFakeClock();
 * clock.advance(61_000); // the rate-limit window has passed
 * ```
 */
export interface FakeClock extends Clock {
  /** Moves time forward by `ms` (which must be >= 0) and returns the new time. */
  advance(ms: number): number;
  /** Sets the time to `ms` epoch ms; it may not go backwards. Returns the new time. */
  set(ms: number): number;
}

/**
 * A controllable clock for tests: time stands still until `advance` or `set` moves it.
 *
 * @param start - the initial time in epoch ms (default `Date.UTC(2026, 0, 1)`).
 * @example
 * ```ts
 * const clock = createFakeClock();
 * const handle = createWebhookHandler({ store, clock }); // its default limiter counts on this clock
 * clock.advance(60_000);
 * ```
 */
export function createFakeClock(start: number = Date.UTC(2026, 0, 1)): FakeClock {
  checkArgument('createFakeClock', 'start', start, EPOCH_MS);
  let current = start;
  const set = (ms: number): number => {
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < current) {
      throw new ChannelWebhookError(
        'invalid_argument',
        `a fake clock cannot move to ${String(ms)}: it is at ${current} and never goes backwards`,
      );
    }
    current = ms;
    return current;
  };
  return {
    now: () => current,
    advance: (ms) => set(current + ms),
    set,
  };
}
