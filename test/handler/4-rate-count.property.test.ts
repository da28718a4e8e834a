import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from '../../src/memory/memory-rate-limiter.js';
import { setup } from '../support/setup.js';

const RUNS_DIRECT = 200;
const RUNS_THROUGH_HANDLER = 40;
const LIMIT = 60;
const WINDOW = 60_000;

/**
 * Nondecreasing request times: mostly bursts and short gaps, so that windows fill up and slide, with
 * the odd long pause. Without the explicit size most sequences would be too short to reach the limit.
 */
const timesArb = (minLength: number, maxLength: number) =>
  fc
    .array(
      fc.oneof(
        { weight: 30, arbitrary: fc.integer({ min: 0, max: 200 }) },
        { weight: 10, arbitrary: fc.integer({ min: 0, max: 2_000 }) },
        { weight: 1, arbitrary: fc.integer({ min: 0, max: 70_000 }) },
      ),
      { minLength, maxLength, size: 'max' },
    )
    .map((gaps) => {
      let now = Date.UTC(2026, 0, 1);
      return gaps.map((gap) => (now += gap));
    });

/** The reference: accepted times of one key, and the decision a request at `now` deserves. */
class SlidingLog {
  readonly accepted: number[] = [];

  decide(now: number): { allowed: boolean; remaining: number; resetMs: number } {
    const inWindow = this.accepted.filter((time) => time > now - WINDOW);
    const allowed = inWindow.length < LIMIT;
    if (allowed) {
      this.accepted.push(now);
      inWindow.push(now);
    }
    return { allowed, remaining: LIMIT - inWindow.length, resetMs: inWindow[0]! + WINDOW - now };
  }
}

/** The largest number of accepted times in any window of WINDOW ms. */
function busiestWindow(accepted: number[]): number {
  let most = 0;
  for (const end of accepted)
    most = Math.max(most, accepted.filter((time) => time > end - WINDOW && time <= end).length);
  return most;
}

describe('rate limiter (property)', () => {
  // Rule: for any nondecreasing request times on any keys, a request is refused exactly when the
  // trailing 60 s of its key already hold 60 accepted requests; refused requests are not counted;
  // so no 60-s window of a key ever holds more than 60 accepted requests. `remaining` and `resetMs`
  // describe the trailing window after the decision.
  it('createMemoryRateLimiter is an exact sliding log of accepted requests', async () => {
    await fc.assert(
      fc.asyncProperty(
        timesArb(100, 400),
        fc.array(fc.constantFrom('a', 'a', 'a', 'b'), { minLength: 400, maxLength: 400 }),
        async (times, keys) => {
          const limiter = createMemoryRateLimiter();
          const models = { a: new SlidingLog(), b: new SlidingLog() };
          for (const [index, now] of times.entries()) {
            const key = keys[index] as 'a' | 'b';
            const decision = await limiter.hit(key, now);
            expect(decision).toEqual({ limit: LIMIT, windowMs: WINDOW, ...models[key].decide(now) });
          }
          for (const model of Object.values(models)) expect(busiestWindow(model.accepted)).toBeLessThanOrEqual(LIMIT);
        },
      ),
      { numRuns: RUNS_DIRECT },
    );
  });

  // Rule: through the handler, with time from the clock, a post is answered 429 exactly when the
  // trailing 60 s already hold 60 accepted posts of that webhook, with retry-after the whole seconds
  // until the oldest of them leaves the window; every other valid post is stored; no 60-s window
  // holds more than 60 stored messages.
  it('the handler refuses exactly the posts the sliding log refuses', async () => {
    await fc.assert(
      fc.asyncProperty(timesArb(61, 200), async (times) => {
        const s = await setup();
        const model = new SlidingLog();
        for (const now of times) {
          s.clock.set(now);
          const response = await s.post({ text: 'tick' });
          const expected = model.decide(now);
          const seconds = Math.ceil(expected.resetMs / 1000);
          expect(response.status).toBe(expected.allowed ? 201 : 429);
          expect(response.headers.ratelimit).toBe(`"default";r=${expected.remaining};t=${seconds}`);
          expect(response.headers['retry-after']).toBe(expected.allowed ? undefined : String(seconds));
        }
        const stored = await s.store.listMessages('general');
        expect(stored).toHaveLength(model.accepted.length);
        expect(busiestWindow(stored.map((message) => Date.parse(message.createdAt)))).toBeLessThanOrEqual(LIMIT);
      }),
      { numRuns: RUNS_THROUGH_HANDLER },
    );
  });
});
