import type { FeedStore } from './feed.js';
import type { LifecycleStore } from './lifecycle-store.js';
import type { PostHistoryStore } from './post-history.js';
import type { PostStore } from './post-store.js';

/**
 * Persistent state: channels (read), webhooks and messages. Every port at once: what the handler
 * needs ({@link PostStore}), what the manager needs ({@link LifecycleStore}), and optionally the
 * history ({@link PostHistoryStore}) and the feed ({@link FeedStore}), each all or nothing.
 *
 * Contracts every implementation keeps (the conformance suite in `channel-webhooks/testing` checks them):
 * - Every method may answer with a value or a promise ({@link MaybePromise}); the answers must be
 *   the same either way. A synchronous throw counts as a failure, like a rejection.
 * - Reads after a completed write see it, from every instance sharing the backend: a rotation or a
 *   revocation is visible to the very next `getWebhook` and `insertMessage`.
 * - `insertMessage` is guarded, atomic and idempotent (see `StoreMethods.insertMessage`).
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
export interface WebhookStore extends PostStore, LifecycleStore, Partial<PostHistoryStore>, Partial<FeedStore> {}
