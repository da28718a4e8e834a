import type { RateLimiter } from '../ports.js';
import { createLimiterSuite, type RateLimiterConformanceOptions } from './rate-limiter-conformance/context.js';
import { registerModelTests } from './rate-limiter-conformance/model.js';
import { registerRaceTests } from './rate-limiter-conformance/races.js';
import { registerWindowTests } from './rate-limiter-conformance/window.js';

export type { RateLimiterConformanceOptions } from './rate-limiter-conformance/context.js';

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
  const suite = createLimiterSuite(options);
  options.describe(options.name ?? 'RateLimiter conformance', () => {
    registerWindowTests(suite);
    registerRaceTests(suite);
    registerModelTests(suite);
  });
}

/**
 * One group of {@link runRateLimiterConformance} alone, under `describe(options.name)`: the window
 * (the defaults, `limit` per window, `remaining` and `resetMs` exact, refusals not counted, equal
 * timestamps, keys independent, the slide).
 *
 * @example
 * ```ts
 * runRateLimiterWindowConformance({ describe, it, createRateLimiter: (o) => createMyLimiter(o) });
 * ```
 */
export function runRateLimiterWindowConformance<L extends RateLimiter>(options: RateLimiterConformanceOptions<L>): void {
  options.describe(options.name ?? 'RateLimiter conformance', () => registerWindowTests(createLimiterSuite(options)));
}

/**
 * One group of {@link runRateLimiterConformance} alone: concurrent hits on one key allow exactly the limit.
 *
 * @example
 * ```ts
 * runRateLimiterRaceConformance({ describe, it, createRateLimiter: (o) => createMyLimiter(o), concurrency: 100 });
 * ```
 */
export function runRateLimiterRaceConformance<L extends RateLimiter>(options: RateLimiterConformanceOptions<L>): void {
  options.describe(options.name ?? 'RateLimiter conformance', () => registerRaceTests(createLimiterSuite(options)));
}

/**
 * One group of {@link runRateLimiterConformance} alone: a long random run against a reference model.
 *
 * @example
 * ```ts
 * runRateLimiterModelConformance({ describe, it, createRateLimiter: (o) => createMyLimiter(o) });
 * ```
 */
export function runRateLimiterModelConformance<L extends RateLimiter>(options: RateLimiterConformanceOptions<L>): void {
  options.describe(options.name ?? 'RateLimiter conformance', () => registerModelTests(createLimiterSuite(options)));
}
