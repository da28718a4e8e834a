import { keySlot } from './key-slot.js';
import { createRoundTripBatcher } from './round-trip-batcher.js';
import { SLIDING_WINDOW_SCRIPT } from './sliding-window-script.js';
import { resolveSendCommand, type RedisCallClient, type RedisSendCommand } from './send-command.js';
import {
  ChannelWebhookError,
  checkArgument,
  checkOptions,
  DEFAULT_RATE_LIMIT,
  DEFAULT_RATE_WINDOW_MS,
  fn,
  HIT_TIME,
  integer,
  port,
  rule,
  type OptionsShape,
  type RateLimitDecision,
  type RateLimiter,
} from '../../../src/store-kit/index.js';

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
  /**
   * The most decisions one round trip carries. Decisions that arrive while a round trip of this
   * limiter is out gather and go together in the next (on Redis Cluster, those of one hash slot);
   * one alone goes at once. `1` sends every decision in a round trip of its own, at once, as
   * before batching: for a proxy that routes a script by its first key without checking the
   * others (twemproxy, Envoy's Redis proxy). Default 64.
   */
  maxBatch?: number;
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
  maxBatch: integer(1),
};

// Redis runs nothing else while a script runs, so the batch bounds how long one round trip holds
// it. Measured (`npm run bench:scale -- --parts=redis`, 60 times per key): a script of 16 decisions
// takes ~115 µs, of 64 ~400–470 µs, of 256 ~2.2 ms; Redis's time per decision is at its lowest
// from 16 to 64 (6–7 µs, from ~10 µs alone) and grows again beyond. 64 keeps a script under half
// a millisecond, far below a client's command timeout, and is twice the decisions the benchmarks
// keep in flight, so a batch there is never cut.
const MAX_BATCH = 64;
// One round trip out at a time per stream gathers the most decisions per round trip; Redis answers
// a connection's commands in order anyway, so a second one out would only wait behind the first.
const IN_FLIGHT = 1;

/** One decision on its way to Redis: the prefixed key, the caller's time, its member name. */
interface Decision {
  key: string;
  now: number;
  member: string;
}

/**
 * What the script answers for one decision: allowed (1|0), the count after it, the oldest time; or
 * -1, 0 and Redis's error when the key is not the limiter's.
 */
type Outcome = [allowed: number, count: number, oldest: string | null];

/**
 * An exact sliding-window {@link RateLimiter} on Redis or Redis Cluster (or Valkey), shared by any
 * number of instances: the same rule as `createMemoryRateLimiter`. Each key is a sorted set of the
 * times of its allowed requests; a Lua script drops, for each decision, the times that left the
 * window, counts the rest, and adds this request only when it is allowed (refused requests do not
 * count). `now` comes from the caller, so every instance judges by its own clock, never by
 * Redis's. Keys expire a window after their last allowed request.
 *
 * One round trip (`EVALSHA`) decides a batch: a decision alone goes at once, and the decisions that
 * arrive while it is out gather and go together in the next, up to `maxBatch`, each answered with
 * its own outcome; the script decides them in order, so two for one key see each other exactly as
 * if they had come one by one. On Redis Cluster a script may only touch keys of one hash slot, so
 * decisions gather per slot: an ioredis or iovalkey `Cluster` passed as `client` is known at once,
 * and with `sendCommand` the first batch that Redis refuses with `CROSSSLOT` switches the limiter
 * to per slot and goes again that way. The script's SHA comes from one `SCRIPT LOAD` at the first
 * decision; a node that answers `NOSCRIPT` (flushed, restarted, or another cluster node than the
 * one that loaded it) gets one `EVAL`, which runs the script and caches it there.
 *
 * When Redis fails, `hit` rejects with a `ChannelWebhookError` of code `rate_limiter_failed` (every
 * decision of the failed round trip, and no other); the handler then lets the request through and
 * reports it to `onError`, or answers 500 with `onRateLimiterError: 'reject'`. Bad options throw
 * code `invalid_argument`.
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
  const maxBatch = options.maxBatch ?? MAX_BATCH;

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

  /** One round trip for decisions whose keys share a slot (or any keys, off a cluster). */
  const evaluate = async (decisions: Decision[]): Promise<Outcome[]> => {
    const args = [
      String(decisions.length),
      ...decisions.map((decision) => decision.key),
      String(windowMs),
      String(limit),
      ...decisions.flatMap((decision) => [String(decision.now), decision.member]),
    ];
    const routeBy = decisions[0]!.key;
    const sha = await loadScript();
    let reply: unknown;
    try {
      reply = await sendCommand(['EVALSHA', sha, ...args], routeBy);
    } catch (error) {
      if (!redisError(error, 'NOSCRIPT')) throw error;
      reply = await sendCommand(['EVAL', SLIDING_WINDOW_SCRIPT, ...args], routeBy);
    }
    if (!Array.isArray(reply) || reply.length !== decisions.length)
      throw new Error(`the script answered ${JSON.stringify(reply)}, not ${decisions.length} outcomes`);
    return reply as Outcome[];
  };

  const limits = { maxSize: maxBatch, inFlight: IN_FLIGHT };
  // A cluster's keys may only share a script within a slot: one batcher per slot with decisions
  // gathering or out, forgotten when it falls idle.
  let perSlot = (options.client as { isCluster?: unknown } | undefined)?.isCluster === true;
  const slots = new Map<number, (decision: Decision) => Promise<Outcome>>();
  const inSlot = (decision: Decision): Promise<Outcome> => {
    const slot = keySlot(decision.key);
    let batcher = slots.get(slot);
    if (batcher === undefined) {
      batcher = createRoundTripBatcher(limits, evaluate, () => slots.delete(slot));
      slots.set(slot, batcher);
    }
    return batcher(decision);
  };
  const anyKeys = createRoundTripBatcher(limits, async (decisions: Decision[]) => {
    if (!perSlot) {
      try {
        return await evaluate(decisions);
      } catch (error) {
        if (!redisError(error, 'CROSSSLOT')) throw error;
        perSlot = true;
      }
    }
    // Gathered before the limiter knew it was on a cluster: each goes again with its slot.
    return decisions.map(inSlot);
  });
  const decide = (decision: Decision): Promise<Outcome> => {
    if (maxBatch === 1) return evaluate([decision]).then((outcomes) => outcomes[0]!);
    return perSlot ? inSlot(decision) : anyKeys(decision);
  };

  return {
    async hit(key, now): Promise<RateLimitDecision> {
      checkArgument('RateLimiter.hit', 'now', now, HIT_TIME);
      let outcome: Outcome;
      try {
        outcome = await decide({ key: keyPrefix + key, now, member: `${now}:${instance}:${counter++}` });
        if (Number(outcome[0]) === -1) throw new Error(String(outcome[2]));
      } catch (cause) {
        throw new ChannelWebhookError(
          'rate_limiter_failed',
          `Redis rate limiter failed: ${(cause as Error)?.message ?? cause}`,
          { cause },
        );
      }
      const [allowed, count, oldest] = outcome;
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

/** Whether a client's rejection is Redis's error of this code (`NOSCRIPT …`, `CROSSSLOT …`). */
function redisError(error: unknown, code: string): boolean {
  return String((error as Error)?.message).startsWith(code);
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
