/**
 * The store's methods, each written once with its contract: the table every store port picks its
 * methods from, by name ({@link StoreMethodName}), and every store's type maps ({@link Sync},
 * {@link Async}, {@link MaybeAsync}).
 *
 * @module
 */
import type { MaybeAsync } from './answers.js';
import type {
  Channel,
  FeedPage,
  InsertMessageInput,
  InsertMessageResult,
  PostRecord,
  ReadFeedOptions,
  WebhookProfileChange,
  WebhookRecord,
} from './records.js';

/**
 * Every store method that answers with a value, each with the value it gives: a store answers at
 * once ({@link Sync}), with a promise ({@link Async}), or either way per call ({@link MaybeAsync}),
 * and the answers must be the same whichever it does. A synchronous throw counts as a failure,
 * like a rejection. The ports (`PostStore`, `LifecycleStore`, `PostHistoryStore`, `FeedStore`, and
 * `WebhookStore`, all of them) take their methods from here by name.
 *
 * @example
 * ```ts
 * // A store over a database client: every method answers with a promise.
 * const store: Async<StoreMethods> & ImmediateStoreMethods = createMyStore(client);
 * ```
 */
// Both tables are written as properties rather than methods: a property's comment stays with it
// through the mapped types, so every store's reference page says what each method must do.
export interface StoreMethods {
  /** The channel, or `null` when there is none with that id. */
  getChannel: (channelId: string) => Channel | null;
  /** Stores a new webhook. Fails if the id is already taken. */
  insertWebhook: (webhook: WebhookRecord) => void;
  /**
   * The webhook (active, rotated or revoked), or `null` when there is none with that id.
   * `presentedSecretHash`, given on a post, is the hash of the secret in its URL: a hint a store may
   * use to schedule the lookup (the PostgreSQL store serves credentials it saw accepted first), never
   * to decide what it returns.
   */
  getWebhook: (webhookId: string, presentedSecretHash?: string) => WebhookRecord | null;
  /** Every webhook of the channel, revoked ones included, oldest first. */
  listWebhooks: (channelId: string) => WebhookRecord[];
  /**
   * Replaces the secret hash of an active webhook and sets `rotatedAt`, in one atomic step.
   * Returns the updated record, or `null` when the webhook does not exist or is revoked
   * (in which case nothing changes).
   */
  updateWebhookSecret: (webhookId: string, secretHash: string, rotatedAt: number) => WebhookRecord | null;
  /**
   * Sets `revokedAt` if it is not set yet (a second call keeps the first time). Returns the record,
   * or `null` when the webhook does not exist. Works whether or not the webhook's channel still exists.
   */
  revokeWebhook: (webhookId: string, revokedAt: number) => WebhookRecord | null;
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
  insertMessage: (input: InsertMessageInput) => InsertMessageResult;
  /**
   * Changes the profile of an active webhook (the fields `change` holds; see
   * {@link WebhookProfileChange}) in one atomic step. Returns the updated record, or `null` when
   * the webhook does not exist or is revoked (in which case nothing changes). The name, the
   * channel and the secret never change here.
   */
  updateWebhookProfile: (webhookId: string, change: WebhookProfileChange) => WebhookRecord | null;
  /**
   * With {@link StoreMethods.listPosts}: keeps what happened to recent posts of webhooks (see
   * {@link PostRecord}), called off the answer's path with a batch of records in the order they
   * were answered. Keeps at most `POST_HISTORY_LIMIT` (100) records a webhook, dropping its
   * oldest first; a record of status 429 is added to the webhook's 429 record of the same minute
   * (`Math.floor(at / 60_000)`) when there is one, summing `count`, instead of taking a place of
   * its own, and a record of status 415 likewise to its 415 record. A failure loses these records
   * and nothing else.
   */
  recordPosts: (records: readonly PostRecord[]) => void;
  /** With {@link StoreMethods.recordPosts}: the webhook's kept records, newest first, at most `limit`. */
  listPosts: (webhookId: string, limit: number) => PostRecord[];
  /**
   * With {@link ImmediateStoreMethods.watchFeed}: the stored messages after a cursor, in the order
   * a reader must see them (see {@link ReadFeedOptions} and {@link FeedPage}). Throws a
   * `ChannelWebhookError` with code `cursor_expired` for a cursor older than what the store keeps
   * (messages after it were removed, or it comes from the store's earlier life: a memory store
   * before a restart, a database created anew), and `invalid_cursor` for a string that is not a
   * cursor of this store's kind.
   */
  readFeed: (options: ReadFeedOptions) => FeedPage;
}

/**
 * The store methods that answer at once whatever the store is, since their caller needs the answer
 * there and then: the id of a new webhook, and the function that ends a watch.
 *
 * @example
 * ```ts
 * const stop = store.watchFeed((channelId) => wake(channelId));
 * signal.addEventListener('abort', stop);
 * ```
 */
export interface ImmediateStoreMethods {
  /**
   * The id of a new webhook of `channelId`, for a store that must find a webhook's data from its id
   * alone (a store sharded by channel). It must have the library's shape, `wh_` and 22 base64url
   * characters, of which at least 96 bits are random, and be unused. Without it the manager makes a
   * random one.
   */
  newWebhookId: (channelId: string) => string;
  /**
   * With {@link StoreMethods.readFeed}: calls `listener` whenever messages may have been added to
   * the feed (a call with nothing new is allowed; a new message without a call is not), also from
   * other instances or processes sharing the backend, and once after every (re)connection to it,
   * until the returned function is called. `channelId`, when the store passes one, is the only
   * channel that may have new messages; a call without it may concern any.
   */
  watchFeed: (listener: (channelId?: string) => void) => () => void;
}

/**
 * The name of a store method, of either table: what a port's list of methods holds.
 *
 * @example
 * ```ts
 * const needed: readonly StoreMethodName[] = ['readFeed', 'watchFeed'];
 * ```
 */
export type StoreMethodName = keyof StoreMethods | keyof ImmediateStoreMethods;

/**
 * The port of the methods named `N`: those of {@link StoreMethods} answering either way
 * ({@link MaybeAsync}), those of {@link ImmediateStoreMethods} at once. Each port is this over its
 * list of names, the list its factories check a store against.
 *
 * @example
 * ```ts
 * const reader: StorePort<'getWebhook' | 'listWebhooks'> = store;
 * ```
 */
export type StorePort<N extends StoreMethodName> = MaybeAsync<Pick<StoreMethods, Extract<N, keyof StoreMethods>>> &
  Pick<ImmediateStoreMethods, Extract<N, keyof ImmediateStoreMethods>>;
