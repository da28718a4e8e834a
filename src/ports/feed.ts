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
