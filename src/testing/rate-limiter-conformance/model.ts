import { createFakeClock } from '../../clock.js';
import type { RateLimiter } from '../../ports.js';
import { checkDeepEqual } from '../assert.js';
import { decision, newKey, type LimiterSuite } from './context.js';

/** A long randomized run, checked decision by decision against a reference sliding window. */
export function registerModelTests<L extends RateLimiter>({ options, test }: LimiterSuite<L>): void {
  options.describe('reference model', () => {
    test('a long random run matches the reference sliding window decision by decision', {
      limit: 7,
      windowMs: 5_000,
    }, async (limiter) => {
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
        checkDeepEqual(
          await limiter.hit(key, now),
          expected,
          `step ${step} (key ${keys.indexOf(key)}, t+${now - Date.UTC(2026, 0, 1)})`,
        );
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
