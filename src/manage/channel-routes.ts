import { createWebhookBody, webhookListSchema, webhookWithUrlSchema } from './management-schemas.js';
import type { Route } from './route.js';

/** A channel's webhooks: list them, create one (the only answer, with rotate's, that holds a URL). */
export const channelRoutes: readonly Route[] = [
  {
    method: 'GET',
    path: '/channels/{channelId}/webhooks',
    operationId: 'listWebhooks',
    summary: "List a channel's webhooks",
    subject: 'channel',
    status: 200,
    answer: webhookListSchema,
    codes: ['channel_not_found'],
    run: async ({ manager, actor, params }) => ({
      status: 200,
      body: { webhooks: await manager.list(actor, params.channelId!) },
    }),
  },
  {
    method: 'POST',
    path: '/channels/{channelId}/webhooks',
    operationId: 'createWebhook',
    summary: 'Create a webhook; its URL is in this answer only',
    subject: 'channel',
    body: createWebhookBody,
    status: 201,
    answer: webhookWithUrlSchema,
    codes: ['channel_not_found', 'invalid_name', 'invalid_description', 'invalid_avatar_url', 'channel_archived'],
    run: async ({ manager, actor, params, body }) => ({
      status: 201,
      body: await manager.create(actor, {
        ...(body as { name: string; description?: string | null; avatarUrl?: string | null }),
        channelId: params.channelId!,
      }),
    }),
  },
];
