import { createFakeClock } from '../clock.js';
import type { RateLimitDecision, RateLimiter } from '../ports.js';
import { check, checkDeepEqual, checkEqual } from './assert.js';
import { randomId } from './fixtures.js';
import type { TestApi } from './test-api.js';

/**
 * Options of {@link runRateLimiterConformance}.
 *
 * @example
 * ```ts
 * const options: RateLimiterConformanceOptions = { describe, it, createRateLimiter: (o) => createMyLimiter(o) };
 * ```
 */
export interface RateLimiterConformanceOptions<L extends RateLimiter = RateLimiter> extends TestApi {
  /**
   * Makes a limiter with the given `limit` and `windowMs` (each `undefined` means your default).
   * Called once per test. Limiters may share one backend: every test uses fresh random keys.
   */
  createRateLimiter: (options: { limit?: number; windowMs?: number }) => L | Promise<L>;
  /** Releases a limiter after its test. Default: nothing. */
  dispose?: (limiter: L) => void | Promise<void>;
  /** Whether to check that without options the limiter allows 60 per 60,000 ms. Default `true`. */
  checkDefaults?: boolean;
  /** Concurrent `hit`s on one key in the atomicity test. Default 30. */
  concurrency?: number;
  /** Name of the outer `describe`. Default `'RateLimiter conformance'`. */
  name?: string;
}

/**
 * Registers the conformance tests of a {@link RateLimiter}: the exact sliding window of the port,
 * driven by a controllable clock. `limit` allowed in any window and never more (also with equal
 * timestamps and concurrent calls), refused requests not counted, `remaining` and `resetMs` exact,
 * keys independent, the window sliding (no double burst at a fixed-window edge), and a long
 * randomized run checked decision by decision against a reference model.
 *
 * @example
 * ```ts
 * import { describe, it } from 'vitest';
 * import { runRateLimiterConformance } from 'channel-webhooks/testing';
 * import { createMyLimiter } from '../src/my-limiter.js';
 *
 * runRateLimiterConformance({
 *   describe,
 *   it,
 *   createRateLimiter: ({ limit, windowMs }) => createMyLimiter({ limit, windowMs }),
 * });
 * ```
 */
export function runRateLimiterConformance<L extends RateLimiter>(options: RateLimiterConformanceOptions<L>): void {
  const { describe, it } = options;
  const concurrency = options.concurrency ?? 30;

  const test = (name: string, settings: { limit?: number; windowMs?: number }, body: (limiter: L) => Promise<void>) => {
    it(name, async () => {
      const limiter = await options.createRateLimiter(settings);
      try {
        await body(limiter);
      } finally {
        await options.dispose?.(limiter);
      }
    });
  };
  const newKey = () => `k_${randomId()}`;
  const decision = (allowed: boolean, limit: number, windowMs: number, remaining: number, resetMs: number): RateLimitDecision => ({
    allowed,
    limit,
    windowMs,
    remaining,
    resetMs,
  });

  describe(options.name ?? 'RateLimiter conformance', () => {
    if (options.checkDefaults ?? true) {
      test('without options it allows 60 requests per 60,000 ms', {}, async (limiter) => {
        const clock = createFakeClock();
        const key = newKey();
        const start = clock.now();
        for (let i = 0; i < 60; i++) {
          checkDeepEqual(await limiter.hit(key, clock.now()), decision(true, 60, 60_000, 59 - i, start + 60_000 - clock.now()), `hit ${i + 1}`);
          clock.advance(100);
        }
        checkDeepEqual(await limiter.hit(key, clock.now()), decision(false, 60, 60_000, 0, start + 60_000 - clock.now()), 'hit 61');
      });
    }

    test('allows limit requests in the window, with exact remaining and resetMs, and refuses the next', { limit: 5, windowMs: 10_000 }, async (limiter) => {
      const clock = createFakeClock();
      const key = newKey();
      const start = clock.now();
      for (let i = 0; i < 5; i++) {
        checkDeepEqual(await limiter.hit(key, clock.now()), decision(true, 5, 10_000, 4 - i, start + 10_000 - clock.now()), `hit ${i + 1}`);
        clock.advance(1_000);
      }
      checkDeepEqual(await limiter.hit(key, clock.now()), decision(false, 5, 10_000, 0, 5_000), 'hit 6, refused');
    });

    test('a retry after resetMs succeeds, one ms earlier it does not', { limit: 3, windowMs: 1_000 }, async (limiter) => {
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
      checkDeepEqual(await limiter.hit(key, start + 1_000), decision(true, 3, 1_000, 0, 1), 'hit at +1000, after the first left');
      checkDeepEqual(await limiter.hit(key, start + 1_000), decision(false, 3, 1_000, 0, 1), 'a second hit at +1000');
    });

    test('requests at the same millisecond are each counted', { limit: 4, windowMs: 1_000 }, async (limiter) => {
      const now = createFakeClock().now();
      const key = newKey();
      for (let i = 0; i < 4; i++) checkDeepEqual(await limiter.hit(key, now), decision(true, 4, 1_000, 3 - i, 1_000), `hit ${i + 1}`);
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

    test('the window slides: no double burst across a fixed-window edge', { limit: 5, windowMs: 1_000 }, async (limiter) => {
      const start = createFakeClock().now();
      const key = newKey();
      for (let i = 0; i < 5; i++) check((await limiter.hit(key, start + 999)).allowed, `hit ${i + 1} at +999`);
      checkDeepEqual(await limiter.hit(key, start + 1_001), decision(false, 5, 1_000, 0, 998), 'hit at +1001');
      checkDeepEqual(await limiter.hit(key, start + 1_999), decision(true, 5, 1_000, 4, 1_000), 'hit at +1999, the window now empty');
    });

    test(`${concurrency} concurrent hits on one key allow exactly the limit`, { limit: 10, windowMs: 60_000 }, async (limiter) => {
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

    test('a long random run matches the reference sliding window decision by decision', { limit: 7, windowMs: 5_000 }, async (limiter) => {
      const limit = 7;
      const windowMs = 5_000;
      const clock = createFakeClock();
      const keys = [newKey(), newKey(), newKey()];
      const model = new Map<string, number[]>(keys.map((key) => [key, []]));
      const random = seededRandom(0x5eed);
      for (let step = 0; step < 400; step++) {
        // Gaps around windowMs / limit keep each key near its limit: many refusals, many slides.
        clock.advance(Math.floor(random() * ((2 * windowMs) / limit)) * (random() < 0.2 ? 0 : 1));
        const now = clock.now();
        const key = keys[Math.floor(random() * keys.length)]!;
        const times = model.get(key)!.filter((time) => time > now - windowMs);
        const allowed = times.length < limit;
        if (allowed) times.push(now);
        model.set(key, times);
        const expected = decision(allowed, limit, windowMs, limit - times.length, times[0]! + windowMs - now);
        checkDeepEqual(await limiter.hit(key, now), expected, `step ${step} (key ${keys.indexOf(key)}, t+${now - Date.UTC(2026, 0, 1)})`);
      }
    });
  });
}

// Deterministic, so that a failure replays identically (mulberry32).
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
