/**
 * The records: what passes through the ports, in and out. A store keeps them; the handler, the
 * manager and the feed read them.
 *
 * @module
 */
import type { Block } from '../validation/payload-types.js';

/**
 * A channel as the library needs to see it. The host app owns channels; the library only reads them.
 *
 * @example
 * ```ts
 * await store.putChannel({ id: 'deploys', ownerId: 'u1', archived: false });
 * ```
 */
export interface Channel {
  /** Channel identifier. */
  id: string;
  /** User id of the channel's owner, who may manage its webhooks. */
  ownerId: string;
  /** An archived channel refuses new webhooks and answers posts with 409. */
  archived: boolean;
}

/**
 * A webhook as stored. It holds a hash of the secret, never the secret itself.
 *
 * @example
 * ```ts
 * const record = await store.getWebhook(webhookId);
 * if (record !== null && record.revokedAt === null) console.log(record.name, record.lastPostAt);
 * ```
 */
export interface WebhookRecord {
  /** Webhook identifier; part of the URL. Never changes, not even on rotation. */
  id: string;
  /** The one channel this webhook posts into. */
  channelId: string;
  /** Display name (trimmed), used as the author name of every message it posts. */
  name: string;
  /** Lower-case hex SHA-256 of the current secret. */
  secretHash: string;
  /** User id of whoever created it. */
  createdBy: string;
  /** Creation time, epoch ms. */
  createdAt: number;
  /** Time of the last rotation, epoch ms, or `null` if never rotated. */
  rotatedAt: number | null;
  /** Time of revocation, epoch ms, or `null` while active. Revocation is final. */
  revokedAt: number | null;
  /**
   * Time of the last message this webhook stored (duplicates do not count), epoch ms, or `null` if
   * it never stored one. Written by {@link WebhookStore.insertMessage} in the same atomic step as
   * the message.
   */
  lastPostAt: number | null;
  /**
   * What the webhook is for, in its managers' words: plain text, trimmed, 1 to 500 code points, or
   * `null` when none was given. Set at creation and by {@link WebhookStore.updateWebhookProfile}.
   */
  description: string | null;
  /**
   * The image an app shows beside the webhook's messages (by `message.author.id`): an absolute
   * `https:` URL without credentials, at most 2,048 characters, or `null`. The message's author
   * stays `{ type, id, name }`.
   */
  avatarUrl: string | null;
}

/**
 * A change to a webhook's profile, for {@link WebhookStore.updateWebhookProfile}: a field that is
 * present is set (`null` clears it), a field that is absent stays as it is.
 *
 * @example
 * ```ts
 * const change: WebhookProfileChange = { description: 'Deploys from CI', avatarUrl: null };
 * ```
 */
export interface WebhookProfileChange {
  description?: string | null;
  avatarUrl?: string | null;
}

/**
 * The author of a message posted through a webhook.
 *
 * @example
 * ```ts
 * const author: WebhookAuthor = { type: 'webhook', id: 'wh_5kQ2R1rWmH0bV8sYq3XJ9w', name: 'CI' };
 * ```
 */
export interface WebhookAuthor {
  type: 'webhook';
  /** The webhook identifier. */
  id: string;
  /** The webhook's name at the time of posting. */
  name: string;
}

/**
 * A stored message. `body` and `blocks` are exactly as sent (`""` and `[]` when absent).
 *
 * @example
 * ```ts
 * const [message] = await store.listMessages('deploys');
 * render(message.author.name, message.body, message.blocks);
 * ```
 */
export interface Message {
  /** Message identifier. */
  id: string;
  /** The channel it was posted into. */
  channelId: string;
  /** The request's `text`, as sent; `""` when absent. */
  body: string;
  /** The request's `blocks`, as sent; `[]` when absent. */
  blocks: Block[];
  author: WebhookAuthor;
  /** Creation time as an ISO 8601 string (UTC). */
  createdAt: string;
}

/**
 * What {@link WebhookStore.insertMessage} is asked to store, and under which conditions.
 *
 * @example
 * ```ts
 * const result = await store.insertMessage({ message, idempotencyKey: 'deploy-42', secretHash, postedAt: now });
 * ```
 */
export interface InsertMessageInput {
  /** The new message. Its `author.id` is the webhook, its `channelId` the webhook's channel. */
  message: Message;
  /** The post's idempotency key, or `null` when it has none (then the message is always stored). */
  idempotencyKey: string | null;
  /**
   * The secret hash the post's secret matched when its URL was checked. The insert is refused
   * (`webhook_inactive`) if the webhook's hash is no longer this one: the webhook was rotated while
   * the post was in flight.
   */
  secretHash: string;
  /** The handler's clock reading for this post, epoch ms; `message.createdAt` is made from it. Becomes `lastPostAt`. */
  postedAt: number;
}

/**
 * The outcome of {@link WebhookStore.insertMessage}. Every outcome is a value: only a failure of the
 * backend is an exception.
 *
 * - `created`: this call stored `message`.
 * - `duplicate`: a message was stored earlier under the same key for this webhook; `message` is that
 *   one, unchanged. Nothing was written.
 * - `webhook_inactive`: the webhook is gone, revoked, or its secret hash is not the one the post
 *   matched (rotated). Nothing was written. The handler answers 404.
 * - `channel_not_found`: the webhook's channel does not exist. Nothing was written. 404.
 * - `channel_archived`: the webhook's channel is archived. Nothing was written. 409.
 *
 * @example
 * ```ts
 * const result = await store.insertMessage(input);
 * if (result.outcome === 'duplicate') console.log('already stored as', result.message.id);
 * ```
 */
export type InsertMessageResult =
  | { outcome: 'created'; message: Message }
  | { outcome: 'duplicate'; message: Message }
  | { outcome: 'webhook_inactive' }
  | { outcome: 'channel_not_found' }
  | { outcome: 'channel_archived' };

/**
 * One offending field of a 400: a JSON Pointer into the body, or a header name; and, when the field
 * is a Slack construct the endpoint does not take, a `hint` saying what to send instead.
 *
 * @example
 * ```ts
 * for (const { pointer, header, message, hint } of (res.body as ProblemBody).errors ?? []) {
 *   console.warn(pointer ?? header, message, hint ?? '');
 * }
 * ```
 */
export interface FieldError {
  pointer?: string;
  header?: string;
  message: string;
  /**
   * What to send instead of a Slack construct this endpoint does not take (section `fields`, an
   * `image` block, `attachments`, …), ending with a link to the section of the differences guide
   * that shows it. Absent for any other refusal.
   */
  hint?: string;
}

/**
 * What happened to one post whose URL proved its webhook's secret (a post with a wrong or unknown
 * secret is attributed to no webhook and recorded nowhere), or to all of one webhook's posts
 * answered 429 (or 415) in one minute. It never holds a secret or a refused body.
 *
 * @example
 * ```ts
 * const record: PostRecord = {
 *   webhookId: 'wh_5kQ2R1rWmH0bV8sYq3XJ9w', at: 1_764_000_000_000, status: 400, code: 'invalid_payload',
 *   errors: [{ pointer: '/blocks/0/fields', message: 'is not an allowed property' }],
 *   idempotencyKey: 'deploy-42', messageId: null, bodyBytes: 812, count: 1,
 * };
 * ```
 */
export interface PostRecord {
  webhookId: string;
  /** When the post was answered, epoch ms (for a 429 or 415 record: the first of its minute). */
  at: number;
  /** The answer's status: 201, 200, 400, 404 (revoked or rotated while in flight), 409, 413, 415, 429 or 500. */
  status: number;
  /** The problem's `code`, or `null` for 200 and 201. */
  code: string | null;
  /** For a 400: its first error entries (at most 5), with their hints; otherwise empty. */
  errors: FieldError[];
  /** The post's idempotency key, when it had one and got that far. */
  idempotencyKey: string | null;
  /** The stored message's id, for 201 and 200. */
  messageId: string | null;
  /** The body's size in bytes, when it was read. */
  bodyBytes: number | null;
  /** How many posts the record stands for: 1, or a minute's 429s (or 415s). */
  count: number;
}

/**
 * What {@link WebhookStore.readFeed} is asked for.
 *
 * @example
 * ```ts
 * const page = await store.readFeed!({ channelId: 'general', after: lastCursor, limit: 100 });
 * ```
 */
export interface ReadFeedOptions {
  /** Only this channel's messages; every channel's when absent. */
  channelId?: string;
  /** Messages after this cursor; from the oldest message the store keeps when absent. */
  after?: string;
  /** The most entries to return, at least 1. */
  limit: number;
}

/**
 * A stored message and its position in the feed: an opaque cursor, increasing in the order a reader
 * must see messages (the cursors of one store compare as plain strings: a later entry's is greater).
 * It is the app's, never part of the answer to a post.
 *
 * @example
 * ```ts
 * for (const { cursor, message } of page.entries) show(message), (lastCursor = cursor);
 * ```
 */
export interface FeedEntry {
  cursor: string;
  message: Message;
}

/**
 * One read of the feed: the entries after the cursor, in order, at most `limit`.
 *
 * @example
 * ```ts
 * const { entries, heldBack } = await store.readFeed!({ after, limit: 100 });
 * if (entries.length === 0 && heldBack) setTimeout(readAgain, 50);
 * ```
 */
export interface FeedPage {
  entries: FeedEntry[];
  /**
   * `true` when messages that are already stored cannot be returned yet, because a write that began
   * before them has not finished (it may still store a message that comes first): read again
   * shortly. Such messages are delayed, never skipped.
   */
  heldBack: boolean;
}
