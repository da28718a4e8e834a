import type { FeedNotifier } from '../ports.js';
import { createFeedWatchers } from './watchers.js';

// An announcement that failed is sent again this long after, with whatever came meanwhile, until
// one goes: the notifier's connection comes back by itself, and the channels are then told late
// rather than never (another instance's followers would otherwise wait for the next message).
const RESEND_MS = 500;

/**
 * Options of {@link createNotifiedFeed}.
 *
 * @example
 * ```ts
 * const options: NotifiedFeedOptions = { notifier, pollMs: 1_000, report: (error) => console.error(error) };
 * ```
 */
export interface NotifiedFeedOptions {
  /** What carries the announcements between instances. */
  notifier: FeedNotifier;
  /** While the notifier is not known to be heard (before it is ready, and while it is down), the poll's period in ms. */
  pollMs: number;
  /**
   * One poll: answers whether messages may have come since the last one (a counter that moved).
   * Default: every poll wakes every watcher, so each follower reads.
   */
  poll?: () => Promise<boolean>;
  /**
   * Hears each failure: the notifier going down, the first announcement that fails after one
   * that went (the others of an outage are the same news), a poll that fails.
   */
  report(error: unknown, stage: 'feed notifier' | 'feed announce' | 'feed poll'): void;
}

/**
 * A store's `watchFeed` woken by a {@link FeedNotifier}, and what the store calls after a commit.
 *
 * @example
 * ```ts
 * const feed: NotifiedFeed = createNotifiedFeed({ notifier, pollMs: 1_000, report: console.error });
 * const store = { readFeed, watchFeed: feed.watch };
 * // after a commit:
 * feed.stored(message.channelId);
 * ```
 */
export interface NotifiedFeed {
  /** The store's `watchFeed`. */
  watch(listener: (channelId?: string) => void): () => void;
  /** After a commit of a message of `channelId`: wakes this store's watchers now and announces the channel. */
  stored(channelId: string): void;
}

/**
 * The feed's wake-ups through a notifier (see {@link NotifiedFeed}). Subscribed while anything
 * watches. Until the notifier says it is ready, and while it is down, the watchers are woken by a
 * poll every `pollMs`; each time it becomes ready they are woken once, so they read what its
 * outage hid. The channels of the commits of one tick go in one announcement, after them; when it
 * fails, they go again half a second later (with those of later commits), until one goes.
 * Timers do not keep the process alive.
 *
 * @example
 * ```ts
 * const feed = createNotifiedFeed({
 *   notifier: createRedisFeedNotifier({ client }),
 *   pollMs: 1_000,
 *   report: (error, stage) => console.error(stage, error),
 * });
 * const unwatch = feed.watch((channelId) => console.log('read again', channelId));
 * ```
 */
export function createNotifiedFeed({ notifier, pollMs, poll, report }: NotifiedFeedOptions): NotifiedFeed {
  let unsubscribe: (() => void) | null = null;
  // Whether announcements are heard: the notifier said ready and not down since.
  let heard = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Each subscription's own number, so that a poll of an earlier one that ends late does nothing.
  let generation = 0;
  const pending = new Set<string>();
  let announceFailing = false;
  let resending = false;

  const watchers = createFeedWatchers(
    () => {
      const current = ++generation;
      heard = false;
      schedule(current);
      unsubscribe = notifier.subscribe({
        wake(channelIds) {
          if (current !== generation) return;
          if (channelIds === undefined) watchers.notify();
          else for (const channelId of new Set(channelIds)) watchers.notify(channelId);
        },
        down(error) {
          if (current !== generation) return;
          report(error, 'feed notifier');
          if (!heard) return;
          heard = false;
          schedule(current);
        },
        ready() {
          if (current !== generation) return;
          heard = true;
          clearTimeout(timer);
          watchers.notify();
        },
      });
    },
    () => {
      generation++;
      clearTimeout(timer);
      const leave = unsubscribe;
      unsubscribe = null;
      leave?.();
    },
  );

  // One poll at a time, each scheduled after the last one ends, so a slow backend never has them pile up.
  function schedule(current: number): void {
    clearTimeout(timer);
    timer = setTimeout(() => tick(current), pollMs);
    (timer as { unref?: () => void }).unref?.();
  }

  function tick(current: number): void {
    if (current !== generation || heard) return;
    if (poll === undefined) {
      watchers.notify();
      schedule(current);
      return;
    }
    poll().then(
      (changed) => {
        if (current !== generation || heard) return;
        if (changed) watchers.notify();
        schedule(current);
      },
      (error: unknown) => {
        if (current !== generation || heard) return;
        report(error, 'feed poll');
        // The followers read, and hear the failure from their own read.
        watchers.notify();
        schedule(current);
      },
    );
  }

  function flush(): void {
    resending = false;
    const channelIds = [...pending];
    pending.clear();
    Promise.resolve()
      .then(() => notifier.announce(channelIds))
      .then(
        () => {
          announceFailing = false;
        },
        (error: unknown) => {
          if (!announceFailing) report(error, 'feed announce');
          announceFailing = true;
          const later = pending.size === 0;
          for (const channelId of channelIds) pending.add(channelId);
          // Commits after this one's queued no flush of their own while it was out, or one is queued now.
          if (later && !resending) resend();
        },
      );
  }

  function resend(): void {
    resending = true;
    const timer = setTimeout(flush, RESEND_MS);
    (timer as { unref?: () => void }).unref?.();
  }

  return {
    watch: watchers.watch,
    stored(channelId) {
      if (watchers.size > 0) watchers.notify(channelId);
      if (pending.size === 0) queueMicrotask(flush);
      pending.add(channelId);
    },
  };
}
