import type { StoreMethodName, StorePort } from './store-methods.js';

/** The methods of a store's post history, which come together: the recorder writes, the manager reads. */
export const POST_HISTORY_METHODS = ['recordPosts', 'listPosts'] as const satisfies readonly StoreMethodName[];

/**
 * A store's history of recent posts: the handler's recorder hands it batches of what each post
 * was answered (`recordPosts`, off the answer's path), and the manager and the management API
 * read them back (`listPosts`). A store without both has no history, and the management API says
 * so.
 *
 * @example
 * ```ts
 * const history: PostHistoryStore = store;
 * const [latest] = await history.listPosts(webhookId, 1);
 * ```
 */
export interface PostHistoryStore extends StorePort<(typeof POST_HISTORY_METHODS)[number]> {}
