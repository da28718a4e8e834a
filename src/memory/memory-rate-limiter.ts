import { integer, POSITIVE_MS } from '../arguments/argument-rules.js';
import { checkArgument, checkOptions, type OptionsShape } from '../arguments/check-options.js';
import { HIT_TIME } from '../arguments/port-rules.js';
import { DEFAULT_RATE_LIMIT, DEFAULT_RATE_WINDOW_MS } from '../limits.js';
import type { RateLimitDecision, RateLimiter, RateLimiterMethods, Sync } from '../ports.js';
import { TimeRings } from './time-rings.js';

/**
 * Options of {@link createMemoryRateLimiter}.
 *
 * @example
 * ```ts
 * const options: MemoryRateLimiterOptions = { limit: 10, windowMs: 10_000 };
 * const rateLimiter = createMemoryRateLimiter(options);
 * ```
 */
export interface MemoryRateLimiterOptions {
  /** Allowed requests per key per window. Default 60. */
  limit?: number;
  /** Window length in ms. Default 60,000. */
  windowMs?: number;
}

/**
 * The in-memory limiter, with a count of the keys it tracks. Its decisions answer at once: it works
 * in this process and never waits.
 *
 * @example
 * ```ts
 * const rateLimiter: MemoryRateLimiter = createMemoryRateLimiter();
 * console.log(rateLimiter.size, 'webhooks currently tracked');
 * ```
 */
export interface MemoryRateLimiter extends Sync<RateLimiterMethods> {
  /** Number of keys with state held right now (idle keys are dropped once their window passed). */
  readonly size: number;
}

// Keys examined for idleness per hit while a sweep is under way: bounds the work of any one hit.
const SWEEP_BUDGET = 64;

const OPTIONS: OptionsShape = {
  limit: integer(1),
  windowMs: POSITIVE_MS,
};

/**
 * An exact sliding-window {@link RateLimiter} in this process's memory: a request is allowed when
 * fewer than `limit` requests were allowed in the trailing `windowMs`. Memory is O(limit) per active
 * key (at most `limit` timestamps, 8 bytes each, in typed arrays rather than objects); a key whose
 * last request left the window is dropped by a later `hit`'s sweep, and its room goes to the keys
 * that come after it (the limiter keeps the room of the most keys it tracked at once, ~40 bytes for
 * a key with one or two requests in its window). For one process only: several instances need a
 * shared limiter such as `createRedisRateLimiter` from `channel-webhooks/redis`.
 *
 * Idle keys are reclaimed by a sweep that starts at most once per window and examines a bounded
 * number of keys per `hit`, so no single request pays for a large sweep.
 *
 * @example
 * ```ts
 * const rateLimiter = createMemoryRateLimiter();            // 60 per 60 s
 * const strict = createMemoryRateLimiter({ limit: 10, windowMs: 10_000 });
 * const handle = createWebhookHandler({ store, rateLimiter });
 * ```
 */
export function createMemoryRateLimiter(options: MemoryRateLimiterOptions = {}): MemoryRateLimiter {
  checkOptions('createMemoryRateLimiter', options, OPTIONS);
  const limit = options.limit ?? DEFAULT_RATE_LIMIT;
  const windowMs = options.windowMs ?? DEFAULT_RATE_WINDOW_MS;

  // Each tracked key's allowed times, oldest first, in a ring that grows up to `limit`. The rings
  // share one typed array, so a key costs a map entry and numbers: a first post of a key, or its first
  // in a while, leaves no new object behind for the garbage collector to copy and trace.
  const rings = new TimeRings();
  const logs = new Map<string, number>();

  // Idle keys are found by a sweep that resumes where the last hit left it, a few keys per hit, and
  // starts over at most once per window. Reordering the map on every hit (to keep the least
  // recently used key first) would leave deleted slots at its front that every scan walks over.
  let sweep: Iterator<[string, number]> | undefined;
  let nextSweepAt = -Infinity;
  const sweepSome = (now: number): void => {
    if (sweep === undefined) {
      if (now < nextSweepAt) return;
      sweep = logs.entries();
      nextSweepAt = now + windowMs;
    }
    for (let budget = SWEEP_BUDGET; budget > 0; budget--) {
      const next = sweep.next();
      if (next.done === true) {
        sweep = undefined;
        return;
      }
      const [key, ring] = next.value;
      if (rings.count(ring) === 0 || rings.newest(ring) <= now - windowMs) {
        logs.delete(key);
        rings.close(ring);
      }
    }
  };

  const decide = (key: string, now: number): RateLimitDecision => {
    checkArgument('RateLimiter.hit', 'now', now, HIT_TIME);
    // Before the lookup: the sweep must not see this key's ring while it is briefly empty.
    sweepSome(now);
    let ring = logs.get(key);
    if (ring === undefined) {
      ring = rings.open(limit);
      logs.set(key, ring);
    } else {
      rings.dropThrough(ring, now - windowMs);
    }

    if (rings.count(ring) >= limit) {
      const resetMs = rings.oldest(ring) + windowMs - now;
      return { allowed: false, limit, windowMs, remaining: 0, resetMs };
    }
    const added = rings.add(ring, now, limit);
    if (added !== ring) logs.set(key, added);
    const resetMs = rings.oldest(added) + windowMs - now;
    return { allowed: true, limit, windowMs, remaining: limit - rings.count(added), resetMs };
  };

  return {
    get size() {
      return logs.size;
    },
    hit: decide,
  };
}
