import { checkOptions, fn, integer, required, rule } from '../arguments/index.js';
import type { FeedStore, MaybePromise, Message } from '../ports.js';
import { followFeed } from './follow-feed.js';

/**
 * Options of {@link relayMessages}.
 *
 * @example
 * ```ts
 * const options: RelayMessagesOptions = {
 *   checkpoint: () => db.prepare('SELECT cursor FROM relay_checkpoint WHERE id = 1').pluck().get() ?? null,
 *   deliver: (message, cursor) => saveMessageAndCursor(message, cursor),
 * };
 * ```
 */
export interface RelayMessagesOptions {
  /**
   * The cursor of the last message your store holds, read from your store, or `null` before the
   * first one. Read once, when the relay starts.
   */
  checkpoint: () => MaybePromise<string | null | undefined>;
  /**
   * Puts one message into your store. Write the message and `cursor` in one transaction of your
   * own, so a crash keeps both or neither. The next message waits until it settles; a throw (or a
   * rejection) stops the relay with that error, and the next start resumes from your checkpoint.
   */
  deliver: (message: Message, cursor: string) => MaybePromise<void>;
  /** Only this channel's messages. Default: every channel's. */
  channelId?: string;
  /** Stops the relay (quietly) when aborted, once the message in hand is delivered. */
  signal?: AbortSignal;
  /** Entries read at a time while catching up, and so the most read ahead of `deliver`. Default 100. */
  pageSize?: number;
}

const OPTIONS = {
  checkpoint: required(fn()),
  deliver: required(fn()),
  channelId: rule('a string', (value) => typeof value === 'string'),
  signal: rule('an AbortSignal', (value) => typeof (value as AbortSignal | null)?.addEventListener === 'function'),
  pageSize: integer(1, 10_000),
};

/**
 * Relays the store's messages into a store of your own (an ORM, another database, an HTTP
 * service): each message goes to `deliver` in feed order, one at a time, first those after your
 * checkpoint, then each new one as it is stored. When `deliver` writes the message together with
 * its cursor in one transaction and `checkpoint` reads that cursor back, every message lands in
 * your store exactly once in effect, across crashes and restarts: the relay resumes right after
 * the last message your store committed. A slow `deliver` holds the reading back: the relay never
 * reads more than a page ahead of it.
 *
 * The promise resolves when `signal` aborts and rejects with the first error: the one `deliver`
 * or `checkpoint` threw, or the feed's (`cursor_expired`, `invalid_cursor`, `store_failed`,
 * `store_timeout`, `feed_unavailable`; see {@link followFeed}). Nothing after a failed message is
 * delivered, so starting again resumes from it.
 *
 * @example
 * ```ts
 * const save = db.transaction((message, cursor) => {
 *   db.prepare('INSERT INTO chat_messages (id, channel_id, body) VALUES (?, ?, ?)').run(message.id, message.channelId, message.body);
 *   db.prepare('INSERT OR REPLACE INTO relay_checkpoint (id, cursor) VALUES (1, ?)').run(cursor);
 * });
 * await relayMessages(store, {
 *   checkpoint: () => db.prepare('SELECT cursor FROM relay_checkpoint WHERE id = 1').pluck().get() ?? null,
 *   deliver: (message, cursor) => save(message, cursor),
 *   signal: shutdown.signal,
 * });
 * ```
 */
export async function relayMessages(store: Partial<FeedStore>, options: RelayMessagesOptions): Promise<void> {
  checkOptions('relayMessages', options, OPTIONS, 'options');
  const { checkpoint, deliver, channelId, signal, pageSize } = options;
  const after = (await checkpoint()) ?? undefined;
  if (signal?.aborted) return;
  // The generator reads its next page only when asked for the next entry, so awaiting `deliver`
  // inside the loop is what holds the reading back.
  for await (const { cursor, message } of followFeed(store, { channelId, after, signal, pageSize })) {
    await deliver(message, cursor);
  }
}
