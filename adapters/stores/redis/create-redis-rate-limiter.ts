import { SLIDING_WINDOW_SCRIPT } from './sliding-window-script.js';
import { resolveSendCommand, type RedisCallClient, type RedisSendCommand } from './send-command.js';
import {
  checkArgument,
  checkOptions,
  fn,
  HIT_TIME,
  integer,
  type OptionsShape,
  port,
  rule,
} from '../../../src/arguments/index.js';
import { ChannelWebhookError } from '../../../src/errors.js';
import { DEFAULT_RATE_LIMIT, DEFAULT_RATE_WINDOW_MS } from '../../../src/limits.js';
import type { RateLimitDecision, RateLimiter } from '../../../src/ports.js';

/**
 * The limits of {@link createRedisRateLimiter}, besides its connection.
 *
 * @example
 * ```ts
 * const settings: RedisRateLimiterSettings = { limit: 30, windowMs: 60_000, keyPrefix: 'chat:rate:' };
 * ```
 */
export interface RedisRateLimiterSettings {
  /** Allowed requests per key per window. Default 60. */
  limit?: number;
  /** Window length in ms, a whole number. Default 60,000. */
  windowMs?: number;
  /** Prepended to every key, to share a Redis with other data. Default `'channel-webhooks:rate:'`. */
  keyPrefix?: string;
}

/**
 * Options of {@link createRedisRateLimiter}: the settings and exactly one of `client` (an ioredis or
 * iovalkey `Redis` or `Cluster`, made to fail fast: `{ enableOfflineQueue: false,
 * maxRetriesPerRequest: 1, commandTimeout: 500 }`) and `sendCommand` (see {@link RedisSendCommand}).
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 *
 * const client = await createClient({ url: process.env.REDIS_URL, disableOfflineQueue: true }).connect();
 * const options: RedisRateLimiterOptions = { sendCommand: (args) => client.sendCommand(args), limit: 30, keyPrefix: 'chat:rate:' };
 * ```
 */
export type RedisRateLimiterOptions = RedisRateLimiterSettings &
  ({ client: RedisCallClient; sendCommand?: never } | { sendCommand: RedisSendCommand; client?: never });

const FACTORY = 'createRedisRateLimiter';

const OPTIONS: OptionsShape = {
  sendCommand: fn('a function (args, key) => Promise<reply> sending one command to Redis'),
  client: port(
    'an ioredis or iovalkey client',
    ['call'],
    'For node-redis, pass { sendCommand: (args) => client.sendCommand(args) } instead.',
  ),
  limit: integer(1),
  // PEXPIRE takes whole milliseconds.
  windowMs: integer(1),
  keyPrefix: rule('a string', (value) => typeof value === 'string'),
};

/**
 * An exact sliding-window {@link RateLimiter} on Redis or Redis Cluster (or Valkey), shared by any
 * number of instances: the same rule as `createMemoryRateLimiter`. Each key is a sorted set of the
 * times of its allowed requests; one Lua script per decision drops the times that left the window,
 * counts the rest, and adds this request only when it is allowed (refused requests do not count).
 * A decision touches one Redis key, so it works unchanged on a cluster. `now` comes from the
 * caller, so every instance judges by its own clock, never by Redis's. Keys expire a window after
 * their last allowed request.
 *
 * One round trip per decision (`EVALSHA`). The script's SHA comes from one `SCRIPT LOAD` at the
 * first decision; a node that answers `NOSCRIPT` (flushed, restarted, or another cluster node than
 * the one that loaded it) gets one `EVAL`, which runs the script and caches it there.
 *
 * When Redis fails, `hit` rejects with a `ChannelWebhookError` of code `rate_limiter_failed`; the
 * handler then lets the request through and reports it to `onError`, or answers 500 with
 * `onRateLimiterError: 'reject'`. Bad options throw code `invalid_argument`.
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
 *
 * @example
 * ```ts
 * import { createCluster } from 'redis';
 *
 * const cluster = await createCluster({ rootNodes: [{ url: 'redis://10.0.0.1:6379' }] }).connect();
 * const rateLimiter = createRedisRateLimiter({ sendCommand: (args, key) => cluster.sendCommand(key, false, args) });
 * ```
 */
export function createRedisRateLimiter(options: RedisRateLimiterOptions): RateLimiter {
  checkOptions(FACTORY, options, OPTIONS, 'options', true);
  const sendCommand = resolveSendCommand(
    (options ?? {}) as { sendCommand?: RedisSendCommand; client?: RedisCallClient },
    FACTORY,
  );
  const limit = options.limit ?? DEFAULT_RATE_LIMIT;
  const windowMs = options.windowMs ?? DEFAULT_RATE_WINDOW_MS;
  const keyPrefix = options.keyPrefix ?? 'channel-webhooks:rate:';

  // Members must differ even for requests at the same millisecond, from any instance.
  const instance = randomTag();
  let counter = 0;
  // Shared by the decisions that arrive while it loads; forgotten on failure so a later one retries.
  let scriptSha: Promise<string> | null = null;

  const loadScript = (): Promise<string> => {
    if (scriptSha === null) {
      const loading = sendCommand(['SCRIPT', 'LOAD', SLIDING_WINDOW_SCRIPT], undefined).then(toSha);
      scriptSha = loading;
      loading.catch(() => {
        if (scriptSha === loading) scriptSha = null;
      });
    }
    return scriptSha;
  };

  const run = async (key: string, now: number): Promise<unknown> => {
    const redisKey = keyPrefix + key;
    const args = ['1', redisKey, String(now), String(windowMs), String(limit), `${now}:${instance}:${counter++}`];
    const sha = await loadScript();
    try {
      return await sendCommand(['EVALSHA', sha, ...args], redisKey);
    } catch (error) {
      if (!String((error as Error)?.message).startsWith('NOSCRIPT')) throw error;
      return sendCommand(['EVAL', SLIDING_WINDOW_SCRIPT, ...args], redisKey);
    }
  };

  return {
    async hit(key, now): Promise<RateLimitDecision> {
      checkArgument('RateLimiter.hit', 'now', now, HIT_TIME);
      let reply: unknown;
      try {
        reply = await run(key, now);
      } catch (cause) {
        throw new ChannelWebhookError(
          'rate_limiter_failed',
          `Redis rate limiter failed: ${(cause as Error)?.message ?? cause}`,
          { cause },
        );
      }
      const [allowed, count, oldest] = reply as [number, number, string | null];
      const resetMs = oldest === null ? windowMs : Number(oldest) + windowMs - now;
      return {
        allowed: Number(allowed) === 1,
        limit,
        windowMs,
        remaining: Math.max(0, limit - Number(count)),
        resetMs,
      };
    },
  };
}

function toSha(reply: unknown): string {
  const sha = String(reply);
  if (!/^[0-9a-f]{40}$/.test(sha)) throw new Error(`SCRIPT LOAD answered ${JSON.stringify(reply)}, not a SHA-1`);
  return sha;
}

function randomTag(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
