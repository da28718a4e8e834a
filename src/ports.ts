/**
 * The ports: the interfaces the core programs against. A storage author implements
 * {@link WebhookStore}; a limiter author implements {@link RateLimiter}; time comes from a {@link Clock}.
 *
 * Every method may be called concurrently, from any number of handlers and processes sharing the
 * same backend. The contracts below say what must stay true when they are.
 *
 * @module
 */

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

/**
 * A webhook as stored. It holds a hash of the secret, never the secret itself.
 *
 * @example
 * ```ts
 * const record = await store.getWebhook(webhookId);
 * if (record !== null && record.revokedAt === null) console.log(record.name);
 * ```
 */
export interface WebhookRecord {
  /** Webhook identifier; part of the URL. Never changes, not even on rotation. */
  id: string;
  /** The one channel this webhook posts into. */
  channelId: string;
  /** Display name, used as the author name of every message it posts. */
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
}

/**
 * What {@link WebhookStore.getWebhook} returns. A store that can read the webhook's channel in the
 * same round trip (a SQL join) sets `channel`, and the handler then skips its separate
 * {@link WebhookStore.getChannel} call. Leave it `undefined` to have the handler ask.
 *
 * @example
 * ```ts
 * // A SQL store joining the channel in:
 * const lookup: WebhookLookup = { ...toRecord(row), channel: { id: row.channel_id, ownerId: row.owner_id, archived: row.archived } };
 * ```
 */
export interface WebhookLookup extends WebhookRecord {
  channel?: Channel | null;
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
  blocks: unknown[];
  author: WebhookAuthor;
  /** Creation time as an ISO 8601 string (UTC). */
  createdAt: string;
}

/**
 * The outcome of {@link WebhookStore.insertMessage}.
 *
 * @example
 * ```ts
 * const { message, created } = await store.insertMessage(candidate, 'deploy-42');
 * if (!created) console.log('already stored as', message.id);
 * ```
 */
export interface InsertMessageResult {
  /** The stored message: the new one, or the one stored earlier under the same key. */
  message: Message;
  /** `true` when this call stored `message`; `false` when the key was already used. */
  created: boolean;
}

/**
 * Persistent state: channels (read), webhooks and messages.
 *
 * Contracts every implementation keeps (the conformance suite in `channel-webhooks/testing` checks them):
 * - Reads after a completed write see it, from every instance sharing the backend: a rotation or a
 *   revocation is visible to the very next `getWebhook`.
 * - `insertMessage` is atomic and idempotent per `(message.author.id, idempotencyKey)`.
 * - Nothing is half-written: a method that rejects has changed nothing, or changed everything.
 * - Returned objects are not mutated by the store afterwards, and changing one changes nothing
 *   stored: return copies, or frozen objects.
 *
 * @example
 * ```ts
 * // A store that wraps another and logs slow inserts:
 * const logged: WebhookStore = {
 *   ...inner,
 *   async insertMessage(message, key) {
 *     const started = performance.now();
 *     try {
 *       return await inner.insertMessage(message, key);
 *     } finally {
 *       log.debug('insert took', performance.now() - started);
 *     }
 *   },
 * };
 * ```
 */
export interface WebhookStore {
  /** The channel, or `null` when there is none with that id. */
  getChannel(channelId: string): Promise<Channel | null>;
  /** Stores a new webhook. Rejects if the id is already taken. */
  insertWebhook(webhook: WebhookRecord): Promise<void>;
  /** The webhook (active, rotated or revoked), or `null` when there is none with that id. */
  getWebhook(webhookId: string): Promise<WebhookLookup | null>;
  /** Every webhook of the channel, revoked ones included, oldest first. */
  listWebhooks(channelId: string): Promise<WebhookRecord[]>;
  /**
   * Replaces the secret hash of an active webhook and sets `rotatedAt`, in one atomic step.
   * Returns the updated record, or `null` when the webhook does not exist or is revoked
   * (in which case nothing changes).
   */
  updateWebhookSecret(webhookId: string, secretHash: string, rotatedAt: number): Promise<WebhookRecord | null>;
  /**
   * Sets `revokedAt` if it is not set yet (a second call keeps the first time). Returns the record,
   * or `null` when the webhook does not exist.
   */
  revokeWebhook(webhookId: string, revokedAt: number): Promise<WebhookRecord | null>;
  /**
   * Stores `message` unless a message was already stored for the same webhook
   * (`message.author.id`) under the same `idempotencyKey`; then returns that earlier message,
   * unchanged, with `created: false`.
   *
   * Must be atomic: when any number of callers race with one key, on any number of instances,
   * exactly one stores its message and every caller gets that one back. A `null` key always stores.
   * Keys are compared exactly (no trimming, no case folding).
   */
  insertMessage(message: Message, idempotencyKey: string | null): Promise<InsertMessageResult>;
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
  hit(key: string, now: number): Promise<RateLimitDecision>;
}
