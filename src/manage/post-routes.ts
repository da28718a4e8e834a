import { ChannelWebhookError } from '../errors.js';
import { POST_HISTORY_LIMIT } from '../limits.js';
import { postListSchema } from './management-schemas.js';
import type { Route } from './route.js';

/** A webhook's history: what happened to its recent posts, newest first. */
export const postRoutes: readonly Route[] = [
  {
    method: 'GET',
    path: '/webhooks/{webhookId}/posts',
    operationId: 'listPosts',
    summary: "What happened to a webhook's recent posts, newest first",
    subject: 'webhook',
    query: { limit: `How many records, from 1 to ${POST_HISTORY_LIMIT}; every one kept when absent.` },
    status: 200,
    answer: postListSchema,
    codes: ['webhook_not_found', 'invalid_argument', 'history_unavailable'],
    run: async ({ manager, actor, params, query }) => ({
      status: 200,
      body: { posts: await manager.history(actor, params.webhookId!, { limit: limitOf(query.get('limit')) }) },
    }),
  },
];

// `?limit=` of at most 100; every kept record without it.
function limitOf(text: string | null): number {
  if (text === null) return POST_HISTORY_LIMIT;
  const limit = /^\d{1,3}$/.test(text) ? Number(text) : 0;
  if (limit < 1 || limit > POST_HISTORY_LIMIT)
    throw new ChannelWebhookError('invalid_argument', `limit must be an integer from 1 to ${POST_HISTORY_LIMIT}`);
  return limit;
}
