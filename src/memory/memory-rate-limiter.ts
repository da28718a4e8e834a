import { integer, POSITIVE_MS } from '../arguments/argument-rules.js';
import { checkArgument, checkOptions, type OptionsShape } from '../arguments/check-options.js';
import { HIT_TIME } from '../arguments/port-rules.js';
import { DEFAULT_RATE_LIMIT, DEFAULT_RATE_WINDOW_MS } from '../limits.js';
import type { RateLimitDecision, RateLimiter } from '../ports.js';

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
 * The in-memory limiter, with a count of the keys it tracks.
 *
 * @example
 * ```ts
 * const rateLimiter: MemoryRateLimiter = createMemoryRateLimiter();
 * console.log(rateLimiter.size, 'webhooks currently tracked');
 * ```
 */
export interface MemoryRateLimiter extends RateLimiter {
  /** Number of keys with state held right now (idle keys are dropped once their window passed). */
  readonly size: number;
  /** Decides synchronously: the limiter works in this process and never waits. */
  hit(key: string, now: number): RateLimitDecision;
}

// Keys examined for idleness per hit while a sweep is under way: bounds the work of any one hit.
const SWEEP_BUDGET = 64;

// The times of the allowed requests of one key, oldest first, in a ring that grows up to `limit`.
interface Log {
  times: number[];
  head: number;
  count: number;
}

const OPTIONS: OptionsShape = {
  limit: integer(1),
  windowMs: POSITIVE_MS,
};

/**
 * An exact sliding-window {@link RateLimiter} in this process's memory: a request is allowed when
 * fewer than `limit` requests were allowed in the trailing `windowMs`. Memory is O(limit) per active
 * key (at most `limit` timestamps); a key whose last request left the window is dropped by a later
 * `hit`'s sweep, so idle webhooks cost nothing. For one process only: several instances need a shared
 * limiter such as `createRedisRateLimiter` from `channel-webhooks/redis`.
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

  const logs = new Map<string, Log>();

  const newest = (log: Log): number => log.times[(log.head + log.count - 1) % log.times.length]!;

  // Idle keys are found by a sweep that resumes where the last hit left it, a few keys per hit, and
  // starts over at most once per window. Reordering the map on every hit (to keep the least
  // recently used key first) would leave deleted slots at its front that every scan walks over.
  let sweep: Iterator<[string, Log]> | undefined;
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
      const [key, log] = next.value;
      if (log.count === 0 || newest(log) <= now - windowMs) logs.delete(key);
    }
  };

  const decide = (key: string, now: number): RateLimitDecision => {
    checkArgument('RateLimiter.hit', 'now', now, HIT_TIME);
    // Before the lookup: the sweep must not see this key's log while it is briefly empty.
    sweepSome(now);
    let log = logs.get(key);
    if (log === undefined) {
      log = { times: [], head: 0, count: 0 };
      logs.set(key, log);
    } else {
      const cutoff = now - windowMs;
      while (log.count > 0 && log.times[log.head]! <= cutoff) {
        log.head = (log.head + 1) % log.times.length;
        log.count--;
      }
    }

    if (log.count >= limit) {
      const resetMs = log.times[log.head]! + windowMs - now;
      return { allowed: false, limit, windowMs, remaining: 0, resetMs };
    }
    if (log.count === log.times.length) grow(log, limit);
    log.times[(log.head + log.count) % log.times.length] = now;
    log.count++;
    const resetMs = log.times[log.head]! + windowMs - now;
    return { allowed: true, limit, windowMs, remaining: limit - log.count, resetMs };
  };

  return {
    get size() {
      return logs.size;
    },
    hit: decide,
  };
}

// Doubles the ring's capacity (up to `limit`), laying the entries out oldest first from index 0.
function grow(log: Log, limit: number): void {
  const capacity = Math.min(limit, Math.max(4, log.times.length * 2));
  const times = new Array<number>(capacity);
  for (let i = 0; i < log.count; i++) times[i] = log.times[(log.head + i) % log.times.length]!;
  log.times = times;
  log.head = 0;
}
