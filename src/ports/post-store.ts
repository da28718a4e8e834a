import type { StoreMethodName, StorePort } from './store-methods.js';

/**
 * The methods the handler calls on every post, in this order: the credentials, then the guarded
 * insert. `createWebhookHandler` checks its `store` for these names.
 */
export const POST_STORE_METHODS = ['getWebhook', 'insertMessage'] as const satisfies readonly StoreMethodName[];

/**
 * The store as the webhook handler uses it: `getWebhook` for the credentials of each post, then one
 * guarded, atomic, idempotent `insertMessage` (see `StoreMethods.insertMessage`). A rotation or a
 * revocation must be visible to the very next call of either, from every instance sharing the
 * backend. A store with the history ({@link PostHistoryStore}) also hears what was answered.
 *
 * @example
 * ```ts
 * // A handler over the app's own tables, which has only what posts need:
 * const store: PostStore = {
 *   getWebhook: (webhookId) => db.webhooks.find(webhookId),
 *   insertMessage: (input) => db.transaction((tx) => insertGuarded(tx, input)),
 * };
 * const handle = createWebhookHandler({ store });
 * ```
 */
export interface PostStore extends StorePort<(typeof POST_STORE_METHODS)[number]> {}
