import {
  ChannelWebhookError,
  checkOptions,
  port,
  required,
  rule,
  type FeedNotifier,
  type FeedNotifierListener,
  type OptionsShape,
} from '../../../src/store-kit/index.js';

/**
 * The connection that subscribes: what `duplicate()` of an ioredis or iovalkey `Redis` gives.
 *
 * @example
 * ```ts
 * const subscriber: RedisSubscriberConnection = client.duplicate({ autoResubscribe: false });
 * ```
 */
export interface RedisSubscriberConnection {
  /** The connection's state: `'wait'` until it is asked to connect (`lazyConnect`). */
  readonly status: string;
  /** Connects one made with `lazyConnect`. */
  connect(): Promise<unknown>;
  /** Subscribes to a pub/sub channel. */
  subscribe(channel: string): Promise<unknown>;
  /** Asks the server for a `PONG`, which a subscribed connection may still do. */
  ping(): Promise<unknown>;
  /** Hears each message of a channel it subscribed to. */
  on(event: 'message', listener: (channel: string, message: string) => void): unknown;
  /** Hears the connection ready (first, and after each reconnection). */
  on(event: 'ready', listener: () => void): unknown;
  /** Hears the connection closing (the client then reconnects by itself). */
  on(event: 'close', listener: () => void): unknown;
  /** Hears the connection's failures. */
  on(event: 'error', listener: (error: Error) => void): unknown;
  /** Closes the connection for good. */
  disconnect(): void;
}

/**
 * What the notifier needs of a Redis client: ioredis's or iovalkey's `Redis` fits. It publishes
 * on the client and subscribes on one duplicate of it, opened while anything subscribes.
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * const client: RedisPubSubClient = new Redis(process.env.REDIS_URL);
 * ```
 */
export interface RedisPubSubClient {
  /** The connection's state (`'ready'`, `'reconnecting'`, …), which ioredis and iovalkey clients have. */
  readonly status: string;
  /** Sends one pub/sub message. */
  publish(channel: string, message: string): Promise<unknown>;
  /** A new connection with the client's options (and `override`'s). */
  duplicate(override?: { autoResubscribe?: boolean }): RedisSubscriberConnection;
}

/**
 * Options of {@link createRedisFeedNotifier}.
 *
 * @example
 * ```ts
 * const options: RedisFeedNotifierOptions = { client, channel: 'chat:feed' };
 * ```
 */
export interface RedisFeedNotifierOptions {
  /** An ioredis or iovalkey `Redis` (the rate limiter's may be shared). */
  client: RedisPubSubClient;
  /** The pub/sub channel, one per set of stores that share a database. Default `'channel-webhooks:feed'`. */
  channel?: string;
  /**
   * How often (ms) the subscribing connection is asked for a `PING` while subscribed, and how long
   * its answer may take: a connection that answers nothing in that time is counted down and replaced
   * by a new one. A subscriber only listens, so a connection the network dropped without a word (a
   * failover, a NAT that forgot it) is otherwise never noticed. Default 10,000.
   */
  pingMs?: number;
}

const FACTORY = 'createRedisFeedNotifier';

const CLIENT = port(
  'an ioredis or iovalkey Redis',
  ['publish', 'duplicate'],
  'Pass new Redis(url) from ioredis or iovalkey (node-redis subscribes another way; a Cluster is not supported).',
);

const OPTIONS: OptionsShape = {
  // node-redis has publish() and duplicate() too: ioredis's `status` tells them apart.
  client: required({
    ...CLIENT,
    problem: (value) =>
      CLIENT.problem(value) ??
      (typeof (value as { status?: unknown }).status === 'string' ? undefined : 'it has no status') ??
      // A Cluster's duplicate() takes its nodes first, and its subscriber moves between nodes unseen.
      ((value as { isCluster?: unknown }).isCluster === true ? 'it is a Cluster' : undefined),
  }),
  channel: rule('a non-empty string', (value) => typeof value === 'string' && value !== ''),
  pingMs: rule(
    'a whole number of milliseconds from 10 to 3,600,000',
    (value) => Number.isInteger(value) && (value as number) >= 10 && (value as number) <= 3_600_000,
  ),
};

const DEFAULT_PING_MS = 10_000;

/**
 * A {@link FeedNotifier} on Redis pub/sub, for stores shared by several instances whose database
 * cannot wake them (MySQL, PostgreSQL behind PgBouncer in transaction mode): pass it to each
 * instance's store as `notifier`. An announcement is one `PUBLISH` of the channel ids, as JSON.
 *
 * While anything subscribes, one duplicate connection of `client` subscribes, and subscribes again
 * itself each time the client has reconnected (a Redis restart): subscribers hear `ready` once the
 * subscription is in place, so the read they do then misses nothing announced after it. A closed
 * connection is told as `down`, once per outage, with a `ChannelWebhookError` of code
 * `feed_notifier_failed`; so is one that stops answering the `PING` it is sent every `pingMs`
 * (a connection dropped without a close), which is then replaced by a new one. An announcement that
 * fails rejects with that code. Pub/sub keeps nothing:
 * what was announced while a subscriber was away is not heard, which the read at `ready` covers.
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * import { createRedisFeedNotifier } from 'channel-webhooks/redis';
 * import { createMysqlStore } from 'channel-webhooks/mysql';
 *
 * const notifier = createRedisFeedNotifier({ client: new Redis(process.env.REDIS_URL) });
 * const store = createMysqlStore({ pool, notifier });
 * ```
 */
export function createRedisFeedNotifier(options: RedisFeedNotifierOptions): FeedNotifier {
  checkOptions(FACTORY, options, OPTIONS);
  const { client } = options;
  const channel = options.channel ?? 'channel-webhooks:feed';
  const pingMs = options.pingMs ?? DEFAULT_PING_MS;
  const listeners = new Set<FeedNotifierListener>();
  let connection: RedisSubscriberConnection | null = null;
  // Whether the subscription is in place; a `down` is told only after a `ready` (or before the first).
  let subscribed = false;
  let toldDown = false;
  let lastError: Error | undefined;
  // The PING check of the subscription in place, if any (see `keepChecking`).
  let currentCheck: object | null = null;

  const each = (call: (listener: FeedNotifierListener) => void) => {
    for (const listener of [...listeners]) {
      try {
        call(listener);
      } catch (error) {
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  };
  const failed = (cause: unknown) =>
    new ChannelWebhookError('feed_notifier_failed', `Redis feed notifier: not subscribed to ${channel}`, { cause });

  function open(): void {
    // Subscribed anew on each `ready`, so that `ready` is told once the subscription is in place.
    const opened = client.duplicate({ autoResubscribe: false });
    connection = opened;
    opened.on('error', (error) => {
      lastError = error;
    });
    opened.on('message', (from, message) => {
      if (opened !== connection || from !== channel) return;
      const channelIds = parseChannelIds(message);
      each((listener) => listener.wake(channelIds));
    });
    opened.on('ready', () => {
      opened.subscribe(channel).then(
        () => {
          if (opened !== connection) return;
          subscribed = true;
          toldDown = false;
          currentCheck = {};
          keepChecking(opened, currentCheck);
          each((listener) => listener.ready());
        },
        (error: unknown) => {
          if (opened !== connection) return;
          lastError = error instanceof Error ? error : new Error(String(error));
          lost();
        },
      );
    });
    opened.on('close', () => {
      if (opened === connection) lost();
    });
    if (opened.status === 'wait') opened.connect().catch(() => undefined);
  }

  /**
   * While the subscription `check` stands (the one of `opened`, made when it subscribed), a `PING`
   * every `pingMs`; one not answered within `pingMs`, or refused, means the connection is gone
   * though it never closed: it is told as down and replaced, and the new connection tells `ready`
   * once it has subscribed. A close or a new subscription ends the check.
   */
  function keepChecking(opened: RedisSubscriberConnection, check: object): void {
    const stands = () => check === currentCheck && opened === connection;
    const timer = setTimeout(() => {
      if (!stands()) return;
      const silent = setTimeout(() => {
        if (stands()) replace(opened, new Error(`the subscribing connection did not answer PING within ${pingMs} ms`));
      }, pingMs);
      (silent as { unref?: () => void }).unref?.();
      opened.ping().then(
        () => {
          clearTimeout(silent);
          if (stands()) keepChecking(opened, check);
        },
        (error: unknown) => {
          clearTimeout(silent);
          if (stands()) replace(opened, error instanceof Error ? error : new Error(String(error)));
        },
      );
    }, pingMs);
    (timer as { unref?: () => void }).unref?.();
  }

  function replace(opened: RedisSubscriberConnection, error: Error): void {
    lastError = error;
    lost();
    open();
    opened.disconnect();
  }

  function lost(): void {
    subscribed = false;
    currentCheck = null;
    if (toldDown) return;
    toldDown = true;
    const error = failed(lastError ?? new Error('the subscribing connection closed'));
    each((listener) => listener.down(error));
  }

  return {
    async announce(channelIds) {
      if (channelIds.length === 0) return;
      try {
        await client.publish(channel, JSON.stringify(channelIds));
      } catch (error) {
        throw new ChannelWebhookError('feed_notifier_failed', `Redis feed notifier: PUBLISH to ${channel} failed`, {
          cause: error,
        });
      }
    },
    subscribe(listener) {
      // Each subscription is its own entry, so one listener subscribed twice is also called twice.
      const entry: FeedNotifierListener = {
        wake: (channelIds) => listener.wake(channelIds),
        down: (error) => listener.down(error),
        ready: () => listener.ready(),
      };
      listeners.add(entry);
      if (connection === null) open();
      else if (subscribed) queueMicrotask(() => listeners.has(entry) && entry.ready());
      return () => {
        if (!listeners.delete(entry) || listeners.size > 0) return;
        const closing = connection;
        connection = null;
        subscribed = false;
        toldDown = false;
        lastError = undefined;
        closing?.disconnect();
      };
    },
  };
}

/** The channel ids of a message, or none (any channel) for one that is not a list of them. */
function parseChannelIds(message: string): readonly string[] | undefined {
  try {
    const parsed: unknown = JSON.parse(message);
    return Array.isArray(parsed) && parsed.every((id) => typeof id === 'string') ? parsed : undefined;
  } catch {
    return undefined;
  }
}
