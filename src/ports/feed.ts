import type { StoreMethodName, StorePort } from './store-methods.js';

/** The methods of a store's feed, which come together: `followFeed` and the event streams call both. */
export const FEED_METHODS = ['readFeed', 'watchFeed'] as const satisfies readonly StoreMethodName[];

/**
 * A store's feed of stored messages, for `followFeed` and the event streams: reads after a cursor
 * (`readFeed`) and a watch that says when to read again (`watchFeed`).
 *
 * @example
 * ```ts
 * const feed: FeedStore = createMemoryStore();
 * const { entries } = await feed.readFeed({ channelId: 'general', limit: 100 });
 * ```
 */
export interface FeedStore extends StorePort<(typeof FEED_METHODS)[number]> {}

/**
 * The methods of a {@link FeedNotifier}, which a store checks its `notifier` option against.
 *
 * @example
 * ```ts
 * const notifier: OptionsShape = { notifier: port('a feed notifier', FEED_NOTIFIER_METHODS) };
 * ```
 */
export const FEED_NOTIFIER_METHODS = ['announce', 'subscribe'] as const;

/**
 * What a {@link FeedNotifier} tells each subscriber. Every call is only a hint: a follower reads
 * the feed after its own cursor, so a wake-up that comes twice or never costs a read or a delay,
 * never a message lost or repeated.
 *
 * @example
 * ```ts
 * const listener: FeedNotifierListener = {
 *   wake: (channelIds) => console.log('read again', channelIds ?? 'every channel'),
 *   down: (error) => console.error('not hearing announcements: poll', error),
 *   ready: () => console.log('hearing announcements: read once to catch up'),
 * };
 * ```
 */
export interface FeedNotifierListener {
  /** Messages of these channels were committed, on some instance; without ids, of any channel. */
  wake(channelIds?: readonly string[]): void;
  /** Announcements may go unheard from now on, until `ready` (the connection failed or cannot be had). */
  down(error: unknown): void;
  /**
   * Announcements are heard from now on: called once subscribed, and again after each recovery.
   * Whatever was announced before may have been missed, so a subscriber reads once then.
   */
  ready(): void;
}

/**
 * Carries "messages were stored in these channels" from the instance that committed them to every
 * instance that follows the feed, for stores whose database cannot say it (MySQL; PostgreSQL behind
 * a pooler in transaction mode, or without `LISTEN`). A store given one as `notifier` announces
 * each commit's channels after the commit and wakes its `watchFeed` on what it hears; while the
 * notifier is down it polls. `createRedisFeedNotifier` (`channel-webhooks/redis`) is one, on Redis
 * pub/sub.
 *
 * @example
 * ```ts
 * // One process's notifier, e.g. for a store's own tests:
 * const listeners = new Set<FeedNotifierListener>();
 * const notifier: FeedNotifier = {
 *   async announce(channelIds) {
 *     for (const listener of listeners) listener.wake(channelIds);
 *   },
 *   subscribe(listener) {
 *     listeners.add(listener);
 *     queueMicrotask(() => listener.ready());
 *     return () => listeners.delete(listener);
 *   },
 * };
 * ```
 */
export interface FeedNotifier {
  /**
   * Tells every subscriber, on every instance, that messages of `channelIds` were committed.
   * Rejects when the announcement could not be sent (the store reports it to its `onError`).
   */
  announce(channelIds: readonly string[]): Promise<void>;
  /** Calls `listener` until the returned function is called. */
  subscribe(listener: FeedNotifierListener): () => void;
}
