import type { RateLimitDecision, RateLimiter } from '../../ports.js';
import { randomId } from '../fixtures.js';
import { skipTest, type TestApi } from '../test-api.js';

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
  /**
   * Whether to check that without options the limiter allows 60 per 60,000 ms. Default `true`; with
   * `false` that test shows as skipped.
   */
  checkDefaults?: boolean;
  /** Concurrent `hit`s on one key in the atomicity test. Default 30. */
  concurrency?: number;
  /** Name of the outer `describe`. Default `'RateLimiter conformance'`. */
  name?: string;
  /** The groups to run, each a `describe` of its own. Default: all. */
  groups?: readonly RateLimiterConformanceGroup[];
}

/**
 * A group of the limiter suite: `window` (the defaults, the limit, refusals not counted, the
 * slide), `races` (concurrent hits on one key) and `reference model` (a long random run).
 *
 * @example
 * ```ts
 * runRateLimiterConformance({ describe, it, createRateLimiter, groups: ['races'] satisfies RateLimiterConformanceGroup[] });
 * ```
 */
export type RateLimiterConformanceGroup = 'window' | 'races' | 'reference model';

/** Declares one test that runs against a fresh limiter made with `settings`. */
export type DefineLimiterTest<L extends RateLimiter> = (
  name: string,
  settings: { limit?: number; windowMs?: number },
  body: (limiter: L) => Promise<void>,
) => void;

/** What a group of limiter conformance tests needs to register itself. */
export interface LimiterSuite<L extends RateLimiter = RateLimiter> {
  options: RateLimiterConformanceOptions<L>;
  test: DefineLimiterTest<L>;
  /** Registers a test left out, as skipped with `reason`. */
  skip: (name: string, reason: string) => void;
  concurrency: number;
}

export function createLimiterSuite<L extends RateLimiter>(options: RateLimiterConformanceOptions<L>): LimiterSuite<L> {
  const test: DefineLimiterTest<L> = (name, settings, body) => {
    options.it(name, async () => {
      const limiter = await options.createRateLimiter(settings);
      try {
        await body(limiter);
      } finally {
        await options.dispose?.(limiter);
      }
    });
  };
  return {
    options,
    test,
    skip: (name, reason) => skipTest(options.it, name, reason),
    concurrency: options.concurrency ?? 30,
  };
}

/** A fresh random key, so that tests sharing one backend never collide. */
export const newKey = (): string => `k_${randomId()}`;

export function decision(
  allowed: boolean,
  limit: number,
  windowMs: number,
  remaining: number,
  resetMs: number,
): RateLimitDecision {
  return { allowed, limit, windowMs, remaining, resetMs };
}
