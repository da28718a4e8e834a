/**
 * The listeners of a store's `watchFeed`. A store calls `notify` after it stored a message (with
 * its channel) or learnt that messages may have come (without). A listener that throws cannot stop
 * the others or the write that called it: its error is thrown again in a microtask of its own, where
 * the runtime reports it.
 *
 * @example
 * ```ts
 * const watchers: FeedWatchers = createFeedWatchers();
 * const store = { watchFeed: (listener: (channelId?: string) => void) => watchers.watch(listener) };
 * ```
 */
export interface FeedWatchers {
  /** Adds `listener` until the returned function is called: a store's `watchFeed`. */
  watch(listener: (channelId?: string) => void): () => void;
  /** Calls every listener, with the channel that got messages when there is one. */
  notify(channelId?: string): void;
  /** How many listeners there are. */
  readonly size: number;
}

/**
 * The listeners of a store's `watchFeed` (see {@link FeedWatchers}). `onFirst` runs when the first
 * listener comes and `onLast` when the last one goes: where a store starts and stops listening to
 * its backend, so that it holds a connection or a timer only while someone watches.
 *
 * @example
 * ```ts
 * // Listens on the database only while someone watches:
 * const watchers = createFeedWatchers(() => client.listen('messages', () => watchers.notify()), () => client.unlisten('messages'));
 * // …and after a commit of this store's own:
 * watchers.notify(message.channelId);
 * ```
 */
export function createFeedWatchers(onFirst?: () => void, onLast?: () => void): FeedWatchers {
  const listeners = new Set<(channelId?: string) => void>();
  return {
    watch(listener) {
      // Each subscription is its own entry, so one listener watched twice is also called twice.
      const entry = (channelId?: string) => listener(channelId);
      listeners.add(entry);
      if (listeners.size === 1) onFirst?.();
      return () => {
        if (!listeners.delete(entry)) return;
        if (listeners.size === 0) onLast?.();
      };
    },
    notify(channelId) {
      for (const listener of listeners) {
        try {
          listener(channelId);
        } catch (error) {
          queueMicrotask(() => {
            throw error;
          });
        }
      }
    },
    get size() {
      return listeners.size;
    },
  };
}
