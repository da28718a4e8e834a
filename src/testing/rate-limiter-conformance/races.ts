import { createFakeClock } from '../../clock.js';
import type { RateLimiter } from '../../ports.js';
import { checkDeepEqual, checkEqual } from '../assert.js';
import { newKey, type LimiterSuite } from './context.js';

/** Concurrent hits on one key: exactly the limit allowed, each with its own `remaining`. */
export function registerRaceTests<L extends RateLimiter>({ options, test, concurrency }: LimiterSuite<L>): void {
  options.describe('races', () => {
    test(`${concurrency} concurrent hits on one key allow exactly the limit`, {
      limit: 10,
      windowMs: 60_000,
    }, async (limiter) => {
      const now = createFakeClock().now();
      const key = newKey();
      const decisions = await Promise.all(Array.from({ length: concurrency }, () => limiter.hit(key, now)));
      const allowed = decisions.filter((d) => d.allowed);
      checkEqual(allowed.length, Math.min(10, concurrency), 'allowed hits');
      checkDeepEqual(
        allowed.map((d) => d.remaining).sort((x, y) => y - x),
        Array.from({ length: allowed.length }, (_, i) => 9 - i),
        'remaining of the allowed hits',
      );
    });
  });
}
