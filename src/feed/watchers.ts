/**
 * The listeners of a store's `watchFeed`. A store calls `notify` after it stored a message (with
 * its channel) or learnt that messages may have come (without). A listener that throws cannot stop
 * the others or the write that called it: its error is thrown again in a microtask of its own, where
 * the runtime reports it.
 */
export interface FeedWatchers {
  watch(listener: (channelId?: string) => void): () => void;
  notify(channelId?: string): void;
  readonly size: number;
}

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
