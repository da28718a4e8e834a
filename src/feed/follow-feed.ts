import { checkOptions, integer, rule } from '../arguments/index.js';
import { ChannelWebhookError } from '../errors.js';
import {
  FEED_METHODS,
  type FeedEntry,
  type FeedPage,
  type FeedStore,
  type MaybePromise,
  type ReadFeedOptions,
} from '../ports.js';

/**
 * Options of {@link followFeed}.
 *
 * @example
 * ```ts
 * const options: FollowFeedOptions = { channelId: 'general', after: lastCursor, signal: controller.signal };
 * ```
 */
export interface FollowFeedOptions {
  /** Only this channel's messages. Default: every channel's. */
  channelId?: string;
  /** Start after this cursor (the last one the app handled). Default: from the oldest message the store keeps. */
  after?: string;
  /** Ends the iteration (quietly, without an error) when aborted. */
  signal?: AbortSignal;
  /** Entries read at a time while catching up. Default 100. */
  pageSize?: number;
}

// While the store holds entries back (a write that began earlier is still open), it is read again
// after this long, doubling up to the ceiling; any change it announces meanwhile reads at once.
const FIRST_RETRY_MS = 20;
const MAX_RETRY_MS = 1_000;

const OPTIONS = {
  channelId: rule('a string', (value) => typeof value === 'string'),
  after: rule('a cursor string', (value) => typeof value === 'string'),
  signal: rule('an AbortSignal', (value) => typeof (value as AbortSignal | null)?.addEventListener === 'function'),
  pageSize: integer(1, 10_000),
};

/**
 * Follows a store's feed: first the messages after `after` (catching up, a page at a time), then
 * each new message as the store stores it, once and in order, for as long as the iteration runs.
 * Messages from every instance or process sharing the store's backend come too (see each store's
 * `watchFeed`). Delivery is at least once from the app's own cursor: keep the `cursor` of the last
 * entry you handled and pass it as `after` when you follow again (after a disconnect, a restart,
 * an error), and nothing is missed. A message the store holds back because a write that began
 * before it is still open (PostgreSQL) comes once that write ends, never skipped.
 *
 * The iteration ends when `signal` aborts or the loop breaks (the store's subscription is released
 * then), and throws when the store fails: `cursor_expired` when the store no longer keeps what
 * follows the cursor (reload, then follow without `after`), `invalid_cursor` for a string that is
 * no cursor of this store, `store_failed` or `store_timeout` when the backend fails (follow again
 * from the last cursor). A store without the feed throws `feed_unavailable` at once.
 *
 * @example
 * ```ts
 * let cursor = await loadSavedCursor();
 * for await (const { cursor: next, message } of followFeed(store, { channelId: 'general', after: cursor })) {
 *   await pushToClients(message);
 *   cursor = next;
 *   await saveCursor(cursor);
 * }
 * ```
 */
export function followFeed(
  store: Partial<FeedStore>,
  options: FollowFeedOptions = {},
): AsyncGenerator<FeedEntry, void, undefined> {
  checkOptions('followFeed', options, OPTIONS, 'options', true);
  if (!FEED_METHODS.every((method) => typeof store?.[method] === 'function')) {
    throw new ChannelWebhookError(
      'feed_unavailable',
      'followFeed: the store has no feed (readFeed and watchFeed): the memory, SQLite and PostgreSQL stores have one, a store of your own needs both methods',
    );
  }
  return follow(store as FeedStore, options);
}

async function* follow(
  store: FeedStore,
  { channelId, after, signal, pageSize = 100 }: FollowFeedOptions,
): AsyncGenerator<FeedEntry, void, undefined> {
  let cursor = after;
  // A read is due at the start (catching up), after the store announced a change that may concern
  // this follower, and while pages come back full.
  let due = true;
  let heldBack = false;
  let retryMs = FIRST_RETRY_MS;
  let wake: (() => void) | undefined;
  const nudge = () => {
    due = true;
    wake?.();
  };
  // Subscribed before the first read, so a message stored while that read runs still wakes it.
  // While held back, any change may be the end of the write that holds the entries back.
  const unwatch = store.watchFeed((changed) => {
    if (changed === undefined || channelId === undefined || changed === channelId || heldBack) nudge();
  });
  const stop = () => wake?.();
  signal?.addEventListener('abort', stop);
  try {
    while (!isAborted(signal)) {
      if (!due) {
        const timedOut = await waitForChange(heldBack ? retryMs : null, (resolve) => (wake = resolve));
        wake = undefined;
        if (isAborted(signal)) return;
        if (timedOut) retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
      }
      due = false;
      const page: FeedPage = await (store.readFeed({
        channelId,
        after: cursor,
        limit: pageSize,
      } satisfies ReadFeedOptions) as MaybePromise<FeedPage>);
      for (const entry of page.entries) {
        cursor = entry.cursor;
        yield entry;
        if (isAborted(signal)) return;
      }
      if (page.entries.length >= pageSize) due = true;
      else if (!page.heldBack) heldBack = false;
      else if (!heldBack) {
        heldBack = true;
        retryMs = FIRST_RETRY_MS;
      }
    }
  } finally {
    unwatch();
    signal?.removeEventListener('abort', stop);
  }
}

// A function, so that the checks after each await read the signal anew.
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

/**
 * Waits until `arm`'s resolver is called (a change, or the signal) or, when `ms` is given, that long
 * has passed; answers whether the time ran out. The timer does not keep a Node process alive.
 */
function waitForChange(ms: number | null, arm: (resolve: () => void) => void): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const timer = ms === null ? undefined : setTimeout(() => resolve(true), ms);
    (timer as { unref?: () => void } | undefined)?.unref?.();
    arm(() => {
      clearTimeout(timer);
      resolve(false);
    });
  });
}
