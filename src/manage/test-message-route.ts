import { ChannelWebhookError } from '../errors.js';
import { matchWebhookPath } from '../http/route.js';
import { testMessageAnswerSchema, testMessageBody } from './management-schemas.js';
import type { Route } from './route.js';

/**
 * A test message through the endpoint, for a front end that must not request the secret URL
 * itself: the page's Resource Timing entries would name it, and on another origin the endpoint
 * answers `POST` only, never a CORS preflight. The API hands the post to the app's own handler in process (no request leaves the server) with
 * the URL the page holds, which must be one of this webhook's: the secret in it is checked by the
 * handler exactly as for a sender, and a wrong or old one answers 404 there.
 */
export const testMessageRoute: Route = {
  method: 'POST',
  path: '/webhooks/{webhookId}/test',
  operationId: 'sendTestMessage',
  summary: "Post a test message through the endpoint with the webhook's URL, and answer what the endpoint answered",
  subject: 'webhook',
  body: testMessageBody,
  status: 200,
  answer: testMessageAnswerSchema,
  codes: ['webhook_not_found', 'invalid_argument', 'test_unavailable'],
  run: async ({ manager, actor, params, body, handle }) => {
    // The permission first: a webhook the actor may not manage is a 404, whatever the URL holds.
    const webhook = await manager.get(actor, params.webhookId!);
    if (handle === undefined)
      throw new ChannelWebhookError('test_unavailable', 'no handler was given to createManagementApi');
    const path = matchWebhookPath(body.url as string);
    if (path === null || path.webhookId !== webhook.id) {
      throw new ChannelWebhookError(
        'invalid_argument',
        "url must be this webhook's URL, as create or rotate answered it",
      );
    }
    const answer = await handle({
      method: 'POST',
      url: `/hooks/channels/${encodeURIComponent(path.webhookId)}/${path.secret}`,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: body.text }),
    });
    return { status: 200, body: { status: answer.status, body: answer.body } };
  },
};
