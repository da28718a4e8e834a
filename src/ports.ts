/**
 * The ports: the interfaces the core programs against. A storage author implements
 * {@link WebhookStore}; a limiter author implements {@link RateLimiter}; time comes from a {@link Clock}.
 *
 * Every method may be called concurrently, from any number of handlers and processes sharing the
 * same backend. The contracts below say what must stay true when they are.
 *
 * @module
 */
import type { MaybePromise } from './waiting/maybe-promise.js';
import type { FieldError } from './http/problem.js';
import type { Block } from './validation/payload-types.js';

/**
 * A source of time. The core never reads the wall clock; it asks the clock.
 *
 * @example
 * ```ts
 * const clock: Clock = { now: () => Date.now() };
 * ```
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

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

export type { MaybePromise };

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
 * Persistent state: channels (read), webhooks and messages.
 *
 * Contracts every implementation keeps (the conformance suite in `channel-webhooks/testing` checks them):
 * - Every method may answer with a value or a promise ({@link MaybePromise}); the answers must be
 *   the same either way. A synchronous throw counts as a failure, like a rejection.
 * - Reads after a completed write see it, from every instance sharing the backend: a rotation or a
 *   revocation is visible to the very next `getWebhook` and `insertMessage`.
 * - `insertMessage` is guarded, atomic and idempotent (see there).
 * - Nothing is half-written: a method that fails has changed nothing, or changed everything.
 * - Returned objects are not mutated by the store afterwards, and changing one changes nothing
 *   stored: return copies, or frozen objects.
 *
 * @example
 * ```ts
 * // A store that wraps another and logs slow inserts:
 * const logged: WebhookStore = {
 *   ...inner,
 *   async insertMessage(input) {
 *     const started = performance.now();
 *     try {
 *       return await inner.insertMessage(input);
 *     } finally {
 *       log.debug('insert took', performance.now() - started);
 *     }
 *   },
 * };
 * ```
 */
export interface WebhookStore {
  /** The channel, or `null` when there is none with that id. */
  getChannel(channelId: string): MaybePromise<Channel | null>;
  /** Stores a new webhook. Fails if the id is already taken. */
  insertWebhook(webhook: WebhookRecord): MaybePromise<void>;
  /**
   * The webhook (active, rotated or revoked), or `null` when there is none with that id.
   * `presentedSecretHash`, given on a post, is the hash of the secret in its URL: a hint a store may
   * use to schedule the lookup (the PostgreSQL store serves credentials it saw accepted first), never
   * to decide what it returns.
   */
  getWebhook(webhookId: string, presentedSecretHash?: string): MaybePromise<WebhookRecord | null>;
  /** Every webhook of the channel, revoked ones included, oldest first. */
  listWebhooks(channelId: string): MaybePromise<WebhookRecord[]>;
  /**
   * Replaces the secret hash of an active webhook and sets `rotatedAt`, in one atomic step.
   * Returns the updated record, or `null` when the webhook does not exist or is revoked
   * (in which case nothing changes).
   */
  updateWebhookSecret(webhookId: string, secretHash: string, rotatedAt: number): MaybePromise<WebhookRecord | null>;
  /**
   * Sets `revokedAt` if it is not set yet (a second call keeps the first time). Returns the record,
   * or `null` when the webhook does not exist. Works whether or not the webhook's channel still exists.
   */
  revokeWebhook(webhookId: string, revokedAt: number): MaybePromise<WebhookRecord | null>;
  /**
   * Stores `input.message` if, at that instant, all of these hold, checked in this order, and
   * otherwise reports the first that does not (see {@link InsertMessageResult}), writing nothing:
   * 1. the webhook `message.author.id` exists, is not revoked, and its secret hash is `input.secretHash`;
   * 2. its channel exists; 3. its channel is not archived;
   * 4. no message was stored yet for this webhook under `input.idempotencyKey` (else `duplicate`,
   *    with that earlier message, unchanged).
   * On `created`, the webhook's `lastPostAt` becomes `input.postedAt`, in the same atomic step.
   *
   * Must be atomic: the checks and the write are one step, so a revocation, rotation or archival
   * that completes before the insert is never followed by a stored message; and when any number of
   * callers race with one key, on any number of instances, exactly one stores its message and every
   * caller gets that one back. A `null` key always stores. Keys are compared exactly (no trimming,
   * no case folding).
   */
  insertMessage(input: InsertMessageInput): MaybePromise<InsertMessageResult>;
  /**
   * Changes the profile of an active webhook (the fields `change` holds; see
   * {@link WebhookProfileChange}) in one atomic step. Returns the updated record, or `null` when
   * the webhook does not exist or is revoked (in which case nothing changes). The name, the
   * channel and the secret never change here.
   */
  updateWebhookProfile(webhookId: string, change: WebhookProfileChange): MaybePromise<WebhookRecord | null>;
  /**
   * Optional: the id of a new webhook of `channelId`, for a store that must find a webhook's data
   * from its id alone (a store sharded by channel). It must have the library's shape, `wh_` and 22
   * base64url characters, of which at least 96 bits are random, and be unused. Without it the
   * manager makes a random one.
   */
  newWebhookId?(channelId: string): string;
  /**
   * Optional, with {@link WebhookStore.listPosts}: keeps what happened to recent posts of webhooks
   * (see {@link PostRecord}), called off the answer's path with a batch of records in the order
   * they were answered. Keeps at most `POST_HISTORY_LIMIT` (100) records a webhook, dropping its
   * oldest first; a record of status 429 is added to the webhook's 429 record of the same minute
   * (`Math.floor(at / 60_000)`) when there is one, summing `count`, instead of taking a place of
   * its own, and a record of status 415 likewise to its 415 record. A failure loses these records
   * and nothing else.
   */
  recordPosts?(records: readonly PostRecord[]): MaybePromise<void>;
  /** Optional, with {@link WebhookStore.recordPosts}: the webhook's kept records, newest first, at most `limit`. */
  listPosts?(webhookId: string, limit: number): MaybePromise<PostRecord[]>;
  /**
   * Optional, with {@link WebhookStore.watchFeed}: the stored messages after a cursor, in the order
   * a reader must see them (see {@link ReadFeedOptions} and {@link FeedPage}). Throws a
   * `ChannelWebhookError` with code `cursor_expired` for a cursor older than what the store keeps
   * (messages after it were removed, or it comes from the store's earlier life: a memory store
   * before a restart, a database created anew), and `invalid_cursor` for a string that is not a
   * cursor of this store's kind.
   */
  readFeed?(options: ReadFeedOptions): MaybePromise<FeedPage>;
  /**
   * Optional, with {@link WebhookStore.readFeed}: calls `listener` whenever messages may have been
   * added to the feed (a call with nothing new is allowed; a new message without a call is not),
   * also from other instances or processes sharing the backend, and once after every
   * (re)connection to it, until the returned function is called. `channelId`, when the store
   * passes one, is the only channel that may have new messages; a call without it may concern any.
   */
  watchFeed?(listener: (channelId?: string) => void): () => void;
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

/**
 * The outcome of one {@link RateLimiter.hit}. Being limited is a value, not an error.
 *
 * @example
 * ```ts
 * const decision = await rateLimiter.hit(webhookId, clock.now());
 * if (!decision.allowed) retryAfterSeconds = Math.ceil(decision.resetMs / 1000);
 * ```
 */
export interface RateLimitDecision {
  /** `true` when the request may go on; `false` means answer 429. */
  allowed: boolean;
  /** Requests allowed per window. */
  limit: number;
  /** Window length in ms. */
  windowMs: number;
  /** Requests still allowed in the trailing window after this one. */
  remaining: number;
  /**
   * Milliseconds until the oldest counted request leaves the trailing window, which is when one
   * more request becomes allowed. When `allowed` is `false`, a retry after this long succeeds
   * (if nothing else was counted meanwhile).
   */
  resetMs: number;
}

/**
 * Counts requests per key in an exact sliding window: a request at time `now` is allowed when fewer
 * than `limit` allowed requests have times in `(now - windowMs, now]`. Allowed requests are counted;
 * refused ones are not. So no window of `windowMs` ever holds more than `limit` allowed requests.
 *
 * `hit` is one atomic read-modify-write per decision, also across instances sharing a backend.
 * `now` comes from the caller's clock; implementations must not read their own.
 *
 * @example
 * ```ts
 * // Count refusals around another limiter:
 * const counted: RateLimiter = {
 *   async hit(key, now) {
 *     const decision = await inner.hit(key, now);
 *     if (!decision.allowed) metrics.increment('webhook_rate_limited');
 *     return decision;
 *   },
 * };
 * ```
 */
export interface RateLimiter {
  /** One decision. May answer with the decision or a promise of it ({@link MaybePromise}). */
  hit(key: string, now: number): MaybePromise<RateLimitDecision>;
}
