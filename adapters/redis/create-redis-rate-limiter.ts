import { SLIDING_WINDOW_SCRIPT, SLIDING_WINDOW_SHA } from './sliding-window-script.js';
import { ChannelWebhookError, DEFAULT_RATE_LIMIT, DEFAULT_RATE_WINDOW_MS, type RateLimitDecision, type RateLimiter } from '../../src/internal.js';

/**
 * What the limiter needs of a Redis client: ioredis's `Redis` fits. Only this shape is used, so
 * `ioredis` stays an optional peer dependency that this package never imports.
 *
 * @example
 * ```ts
 * const client: RedisScriptClient = new Redis(process.env.REDIS_URL, { enableOfflineQueue: false });
 * ```
 */
export interface RedisScriptClient {
  evalsha(sha1: string, numkeys: number, ...args: (string | number)[]): Promise<unknown>;
  eval(script: string, numkeys: number, ...args: (string | number)[]): Promise<unknown>;
}

/**
 * Options of {@link createRedisRateLimiter}.
 *
 * @example
 * ```ts
 * const options: RedisRateLimiterOptions = { client, limit: 30, windowMs: 60_000, keyPrefix: 'chat:rate:' };
 * ```
 */
export interface RedisRateLimiterOptions {
  /**
   * An ioredis client. Make it fail fast when Redis is away, or requests wait on reconnects:
   * `{ enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 500 }`.
   */
  client: RedisScriptClient;
  /** Allowed requests per key per window. Default 60. */
  limit?: number;
  /** Window length in ms. Default 60,000. */
  windowMs?: number;
  /** Prepended to every key, to share a Redis with other data. Default `'channel-webhooks:rate:'`. */
  keyPrefix?: string;
}

/**
 * An exact sliding-window {@link RateLimiter} on Redis, shared by any number of instances: the same
 * rule as `createMemoryRateLimiter`. Each key is a sorted set of the times of its allowed requests;
 * one Lua script per decision drops the times that left the window, counts the rest, and adds this
 * request only when it is allowed (refused requests do not count). `now` comes from the caller, so
 * every instance judges by its own clock, never by Redis's. Keys expire a window after their last
 * allowed request. One round trip per decision (`EVALSHA`; after a `NOSCRIPT`, one `EVAL`, which
 * also loads the script for the next time).
 *
 * When Redis fails, `hit` rejects with a `ChannelWebhookError` of code `rate_limiter_failed`; the
 * handler then lets the request through and reports it to `onError`, or answers 500 with
 * `onRateLimiterError: 'reject'`.
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * import { createRedisRateLimiter } from 'channel-webhooks/redis';
 *
 * const client = new Redis(process.env.REDIS_URL, {
 *   enableOfflineQueue: false,
 *   maxRetriesPerRequest: 1,
 *   commandTimeout: 500,
 * });
 * const rateLimiter = createRedisRateLimiter({ client });          // 60 per 60 s
 * const handle = createWebhookHandler({ store, rateLimiter });
 * ```
 */
export function createRedisRateLimiter(options: RedisRateLimiterOptions): RateLimiter {
  const { client } = options;
  if (typeof client?.evalsha !== 'function' || typeof client.eval !== 'function') {
    throw new TypeError('createRedisRateLimiter needs { client }: an ioredis client');
  }
  const limit = options.limit ?? DEFAULT_RATE_LIMIT;
  const windowMs = options.windowMs ?? DEFAULT_RATE_WINDOW_MS;
  const keyPrefix = options.keyPrefix ?? 'channel-webhooks:rate:';
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
  if (!Number.isSafeInteger(windowMs) || windowMs < 1) throw new RangeError(`windowMs must be a positive integer, got ${windowMs}`);

  // Members must differ even for requests at the same millisecond, from any instance.
  const instance = randomTag();
  let counter = 0;

  const run = async (key: string, now: number): Promise<unknown> => {
    const args = [keyPrefix + key, now, windowMs, limit, `${now}:${instance}:${counter++}`];
    try {
      return await client.evalsha(SLIDING_WINDOW_SHA, 1, ...args);
    } catch (error) {
      if (!String((error as Error)?.message).startsWith('NOSCRIPT')) throw error;
      return client.eval(SLIDING_WINDOW_SCRIPT, 1, ...args);
    }
  };

  return {
    async hit(key, now): Promise<RateLimitDecision> {
      if (!Number.isFinite(now)) throw new ChannelWebhookError('invalid_argument', `now must be a finite number, got ${now}`);
      let reply: unknown;
      try {
        reply = await run(key, now);
      } catch (cause) {
        throw new ChannelWebhookError('rate_limiter_failed', `Redis rate limiter failed: ${(cause as Error)?.message ?? cause}`, { cause });
      }
      const [allowed, count, oldest] = reply as [number, number, string | null];
      const resetMs = oldest === null ? windowMs : Number(oldest) + windowMs - now;
      return { allowed: allowed === 1, limit, windowMs, remaining: Math.max(0, limit - count), resetMs };
    },
  };
}

function randomTag(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
