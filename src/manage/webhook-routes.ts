import { emptyBody, updateWebhookBody, webhookAnswerSchema, webhookWithUrlSchema } from './management-schemas.js';
import type { Route } from './route.js';

/** One webhook: read it, change its profile, rotate its secret, revoke it. */
export const webhookRoutes: readonly Route[] = [
  {
    method: 'GET',
    path: '/webhooks/{webhookId}',
    operationId: 'getWebhook',
    summary: 'Read a webhook',
    subject: 'webhook',
    status: 200,
    answer: webhookAnswerSchema,
    codes: ['webhook_not_found'],
    run: async ({ manager, actor, params }) => ({
      status: 200,
      body: { webhook: await manager.get(actor, params.webhookId!) },
    }),
  },
  {
    method: 'PATCH',
    path: '/webhooks/{webhookId}',
    operationId: 'updateWebhook',
    summary: "Change a webhook's profile",
    subject: 'webhook',
    body: updateWebhookBody,
    // The contract's webhook keeps the name it was created with, in its channel.
    refusals: {
      '/name': 'cannot change: a webhook keeps the name it was created with; create a new webhook for a new name',
      '/channelId': 'cannot change: a webhook stays in its channel; create a new webhook in the other channel',
    },
    status: 200,
    answer: webhookAnswerSchema,
    codes: ['webhook_not_found', 'invalid_description', 'invalid_avatar_url', 'webhook_revoked'],
    run: async ({ manager, actor, params, body }) => ({
      status: 200,
      body: { webhook: await manager.update(actor, params.webhookId!, body) },
    }),
  },
  {
    method: 'POST',
    path: '/webhooks/{webhookId}/rotate',
    operationId: 'rotateWebhook',
    summary: 'Give a webhook a new secret URL, shown in this answer only; the old one answers 404 at once',
    subject: 'webhook',
    body: emptyBody,
    status: 200,
    answer: webhookWithUrlSchema,
    codes: ['webhook_not_found', 'webhook_revoked'],
    run: async ({ manager, actor, params }) => ({ status: 200, body: await manager.rotate(actor, params.webhookId!) }),
  },
  {
    method: 'POST',
    path: '/webhooks/{webhookId}/revoke',
    operationId: 'revokeWebhook',
    summary: 'Revoke a webhook, for good; its URL answers 404 at once',
    subject: 'webhook',
    body: emptyBody,
    status: 200,
    answer: webhookAnswerSchema,
    codes: ['webhook_not_found'],
    run: async ({ manager, actor, params }) => ({
      status: 200,
      body: { webhook: await manager.revoke(actor, params.webhookId!) },
    }),
  },
];
