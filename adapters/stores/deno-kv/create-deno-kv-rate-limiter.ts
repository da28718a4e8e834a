import { keyLayout } from './key-layout.js';
import { createKvRunner, type KvParty, LOST_RACE } from './kv-runner.js';
import { layoutVersion } from './layout-version.js';
import { resolveDenoKvOptions, type DenoKvConnectionOptions } from './options.js';
import {
  checkArgument,
  DEFAULT_RATE_LIMIT,
  DEFAULT_RATE_WINDOW_MS,
  HIT_TIME,
  integer,
  POSITIVE_MS,
  type RateLimitDecision,
  type RateLimiter,
} from '../../../src/store-kit/index.js';

/**
 * Options of {@link createDenoKvRateLimiter}: the shared ones (see {@link DenoKvConnectionOptions})
 * and the window's.
 *
 * @example
 * ```ts
 * const options: DenoKvRateLimiterOptions = { kv: await Deno.openKv(), limit: 30, windowMs: 60_000 };
 * ```
 */
export interface DenoKvRateLimiterOptions extends DenoKvConnectionOptions {
  /** Allowed requests per key per window, at most 5,000 (their times are one KV value). Default 60. */
  limit?: number;
  /** Window length in ms. Default 60,000. */
  windowMs?: number;
}

/** One caller waiting for its decision. */
interface Hit {
  now: number;
  resolve: (decision: RateLimitDecision) => void;
  reject: (error: unknown) => void;
}

// A key outlives its last allowed request by the window and this margin of the KV's own clock, so
// that a caller whose clock runs up to a minute behind the KV's still finds its times.
const EXPIRY_MARGIN_MS = 60_000;

/**
 * An exact sliding-window {@link RateLimiter} on Deno KV, shared by every process and isolate on the
 * KV: the same rule as `createMemoryRateLimiter` (never more than `limit` allowed in any `windowMs`,
 * refused requests not counted), with `now` from the caller. A key's allowed times, oldest first,
 * are one KV value; a decision reads it, drops the times that left the window, and, when it allows,
 * commits the new list under a check of the versionstamp it read, trying again when another commit
 * came between.
 *
 * Hits on one key that arrive while a decision for that key is in flight wait for it and are then
 * decided together, in the order they came, with one read and at most one commit: 100 posts at once
 * to one webhook cost a few commits rather than a hundred colliding ones. Nothing waits for a batch
 * to fill. A failing KV rejects with `rate_limiter_failed` (the handler lets the post through and
 * reports it, or answers 500 with `onRateLimiterError: 'reject'`), a decision that takes longer than
 * `timeoutMs` with `rate_limiter_timeout`. Bad options throw `invalid_argument`.
 *
 * @example
 * ```ts
 * import { createDenoKvRateLimiter } from 'channel-webhooks/deno-kv';
 *
 * const kv = await Deno.openKv();
 * const rateLimiter = createDenoKvRateLimiter({ kv }); // 60 per 60 s, shared by every isolate
 * const handle = createWebhookHandler({ store, rateLimiter });
 * ```
 */
export function createDenoKvRateLimiter(options: DenoKvRateLimiterOptions): RateLimiter {
  const { kv, prefix, timeoutMs } = resolveDenoKvOptions('createDenoKvRateLimiter', options, 1_000, {
    limit: integer(1, 5_000),
    windowMs: POSITIVE_MS,
  });
  const limit = options.limit ?? DEFAULT_RATE_LIMIT;
  const windowMs = options.windowMs ?? DEFAULT_RATE_WINDOW_MS;
  const party: KvParty = {
    name: 'Deno KV rate limiter',
    failed: 'rate_limiter_failed',
    timedOut: 'rate_limiter_timeout',
    timeoutMs,
  };
  const keys = keyLayout(prefix);
  const run = createKvRunner(party);
  const layout = layoutVersion(kv, keys, run, party);
  // The hits of each key that wait for the decision in flight for it.
  const waiting = new Map<string, Hit[]>();

  // Decides `batch` in order against the key's times, in one read and at most one commit.
  const decide = (key: string, batch: Hit[]) =>
    run('hit', async () => {
      const entry = await kv.get(keys.rate(key));
      const times = Array.isArray(entry.value) ? (entry.value as number[]) : [];
      let added = false;
      const decisions = batch.map(({ now }): RateLimitDecision => {
        let expired = 0;
        while (expired < times.length && times[expired]! <= now - windowMs) expired++;
        times.splice(0, expired);
        const allowed = times.length < limit;
        if (allowed) {
          times.push(now);
          added = true;
        }
        return {
          allowed,
          limit,
          windowMs,
          remaining: allowed ? limit - times.length : 0,
          resetMs: times[0]! + windowMs - now,
        };
      });
      if (!added) return decisions;
      const result = await kv
        .atomic()
        .check(entry)
        .set(keys.rate(key), times, { expireIn: windowMs + EXPIRY_MARGIN_MS })
        .commit();
      return result.ok ? decisions : LOST_RACE;
    });

  const decideWaiting = async (key: string): Promise<void> => {
    const batch = waiting.get(key)!;
    // Hits that come from now on wait for the next round.
    waiting.set(key, []);
    try {
      await layout.ready();
      const decisions = await decide(key, batch);
      for (const [i, hit] of batch.entries()) hit.resolve(decisions[i]!);
    } catch (error) {
      for (const hit of batch) hit.reject(error);
    }
    if (waiting.get(key)!.length === 0) waiting.delete(key);
    else void decideWaiting(key);
  };

  return {
    hit(key, now) {
      checkArgument('RateLimiter.hit', 'now', now, HIT_TIME);
      return new Promise<RateLimitDecision>((resolve, reject) => {
        const queue = waiting.get(key);
        if (queue !== undefined) queue.push({ now, resolve, reject });
        else {
          waiting.set(key, [{ now, resolve, reject }]);
          void decideWaiting(key);
        }
      });
    },
  };
}
