import type { ImmediateStoreMethods, StoreMethodName, StorePort } from './store-methods.js';

/**
 * The methods the manager calls: every answering store method but the message insert and the
 * history's. `createWebhookManager` checks its `store` for these names; `newWebhookId` is optional.
 */
export const LIFECYCLE_STORE_METHODS = [
  'getWebhook',
  'getChannel',
  'insertWebhook',
  'listWebhooks',
  'updateWebhookSecret',
  'revokeWebhook',
  'updateWebhookProfile',
] as const satisfies readonly StoreMethodName[];

/**
 * The store as the webhook manager uses it: it reads channels (the host app owns them), creates,
 * lists, rotates and revokes webhooks and changes their profiles, each change one atomic step. A
 * store sharded by channel also gives the ids of new webhooks (`newWebhookId`).
 *
 * @example
 * ```ts
 * const readOnly: Pick<LifecycleStore, 'getChannel' | 'listWebhooks'> = store;
 * const webhooks = await readOnly.listWebhooks('deploys');
 * ```
 */
export interface LifecycleStore
  extends StorePort<(typeof LIFECYCLE_STORE_METHODS)[number]>,
    Partial<Pick<ImmediateStoreMethods, 'newWebhookId'>> {}
