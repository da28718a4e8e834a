import { createFakeClock } from '../../clock.js';
import type { RateLimiter } from '../../ports.js';
import { check, checkDeepEqual, checkEqual } from '../assert.js';
import { decision, newKey, type LimiterSuite } from './context.js';

const DEFAULTS = 'without options it allows 60 requests per 60,000 ms';

/** The window: the defaults, `limit` per window and never more, refusals not counted, keys independent, the slide. */
export function registerWindowTests<L extends RateLimiter>({ options, test, skip }: LimiterSuite<L>): void {
  options.describe('window', () => {
    if (options.checkDefaults === false) skip(DEFAULTS, 'checkDefaults is false');
    else {
      test(DEFAULTS, {}, async (limiter) => {
        const clock = createFakeClock();
        const key = newKey();
        const start = clock.now();
        for (let i = 0; i < 60; i++) {
          checkDeepEqual(
            await limiter.hit(key, clock.now()),
            decision(true, 60, 60_000, 59 - i, start + 60_000 - clock.now()),
            `hit ${i + 1}`,
          );
          clock.advance(100);
        }
        checkDeepEqual(
          await limiter.hit(key, clock.now()),
          decision(false, 60, 60_000, 0, start + 60_000 - clock.now()),
          'hit 61',
        );
      });
    }

    test('allows limit requests in the window, with exact remaining and resetMs, and refuses the next', {
      limit: 5,
      windowMs: 10_000,
    }, async (limiter) => {
      const clock = createFakeClock();
      const key = newKey();
      const start = clock.now();
      for (let i = 0; i < 5; i++) {
        checkDeepEqual(
          await limiter.hit(key, clock.now()),
          decision(true, 5, 10_000, 4 - i, start + 10_000 - clock.now()),
          `hit ${i + 1}`,
        );
        clock.advance(1_000);
      }
      checkDeepEqual(await limiter.hit(key, clock.now()), decision(false, 5, 10_000, 0, 5_000), 'hit 6, refused');
    });

    test('a retry after resetMs succeeds, one ms earlier it does not', {
      limit: 3,
      windowMs: 1_000,
    }, async (limiter) => {
      const clock = createFakeClock();
      const key = newKey();
      for (const step of [0, 100, 100]) {
        clock.advance(step);
        check((await limiter.hit(key, clock.now())).allowed, `hit at +${step} should be allowed`);
      }
      clock.advance(300);
      const refused = await limiter.hit(key, clock.now());
      checkDeepEqual(refused, decision(false, 3, 1_000, 0, 500), 'refused hit at +500');
      clock.advance(refused.resetMs - 1);
      checkEqual((await limiter.hit(key, clock.now())).allowed, false, 'allowed one ms before resetMs');
      clock.advance(1);
      checkDeepEqual(await limiter.hit(key, clock.now()), decision(true, 3, 1_000, 0, 100), 'hit at resetMs');
    });

    test('refused requests are not counted', { limit: 3, windowMs: 1_000 }, async (limiter) => {
      const clock = createFakeClock();
      const key = newKey();
      const start = clock.now();
      for (let i = 0; i < 3; i++) check((await limiter.hit(key, start + i)).allowed, `hit at +${i} should be allowed`);
      for (const at of [500, 600, 700, 800, 900, 999]) {
        checkEqual((await limiter.hit(key, start + at)).allowed, false, `hit at +${at} allowed`);
      }
      // Had the refusals counted, the window (start, start + 1000] would still be full.
      checkDeepEqual(
        await limiter.hit(key, start + 1_000),
        decision(true, 3, 1_000, 0, 1),
        'hit at +1000, after the first left',
      );
      checkDeepEqual(await limiter.hit(key, start + 1_000), decision(false, 3, 1_000, 0, 1), 'a second hit at +1000');
    });

    test('requests at the same millisecond are each counted', { limit: 4, windowMs: 1_000 }, async (limiter) => {
      const now = createFakeClock().now();
      const key = newKey();
      for (let i = 0; i < 4; i++)
        checkDeepEqual(await limiter.hit(key, now), decision(true, 4, 1_000, 3 - i, 1_000), `hit ${i + 1}`);
      checkDeepEqual(await limiter.hit(key, now), decision(false, 4, 1_000, 0, 1_000), 'hit 5');
    });

    test('keys are independent', { limit: 2, windowMs: 1_000 }, async (limiter) => {
      const now = createFakeClock().now();
      const [a, b] = [newKey(), newKey()];
      await limiter.hit(a, now);
      await limiter.hit(a, now);
      checkEqual((await limiter.hit(a, now)).allowed, false, 'key a after 2 hits');
      checkDeepEqual(await limiter.hit(b, now), decision(true, 2, 1_000, 1, 1_000), 'first hit on key b');
    });

    test('the window slides: no double burst across a fixed-window edge', {
      limit: 5,
      windowMs: 1_000,
    }, async (limiter) => {
      const start = createFakeClock().now();
      const key = newKey();
      for (let i = 0; i < 5; i++) check((await limiter.hit(key, start + 999)).allowed, `hit ${i + 1} at +999`);
      checkDeepEqual(await limiter.hit(key, start + 1_001), decision(false, 5, 1_000, 0, 998), 'hit at +1001');
      checkDeepEqual(
        await limiter.hit(key, start + 1_999),
        decision(true, 5, 1_000, 4, 1_000),
        'hit at +1999, the window now empty',
      );
    });
  });
}
