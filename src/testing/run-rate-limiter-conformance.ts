import type { RateLimiter } from '../ports.js';
import {
  createLimiterSuite,
  type RateLimiterConformanceGroup,
  type RateLimiterConformanceOptions,
} from './rate-limiter-conformance/context.js';
import { registerModelTests } from './rate-limiter-conformance/model.js';
import { registerRaceTests } from './rate-limiter-conformance/races.js';
import { registerWindowTests } from './rate-limiter-conformance/window.js';

export type { RateLimiterConformanceGroup, RateLimiterConformanceOptions } from './rate-limiter-conformance/context.js';

/**
 * Registers the conformance tests of a {@link RateLimiter}: the exact sliding window of the port,
 * driven by a controllable clock. `limit` allowed in any window and never more (also with equal
 * timestamps and concurrent calls), refused requests not counted, `remaining` and `resetMs` exact,
 * keys independent, the window sliding (no double burst at a fixed-window edge), and a long
 * randomized run checked decision by decision against a reference model. `groups` runs some of
 * its groups alone.
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
  const groups = new Set(options.groups ?? LIMITER_GROUPS);
  options.describe(options.name ?? 'RateLimiter conformance', () => {
    if (groups.has('window')) registerWindowTests(suite);
    if (groups.has('races')) registerRaceTests(suite);
    if (groups.has('reference model')) registerModelTests(suite);
  });
}

const LIMITER_GROUPS: readonly RateLimiterConformanceGroup[] = ['window', 'races', 'reference model'];
