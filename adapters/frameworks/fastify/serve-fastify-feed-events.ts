import type { FastifyReply, FastifyRequest } from 'fastify';
import { writeFeedEvents } from '../node/serve-feed-events.js';
import { checkOptions } from '../../../src/arguments/index.js';
import { FEED_EVENTS_OPTIONS, type FeedEventsOptions } from '../../../src/feed/feed-events.js';

/**
 * Answers a Fastify (4 or 5) request with a store's feed as Server-Sent Events: the reply is
 * hijacked (Fastify sends nothing more, and its `onSend` hooks do not run) and written as
 * `serveFeedEvents` from `channel-webhooks/node` does; the promise settles when the client goes
 * away or the store fails.
 *
 * @example
 * ```ts
 * app.get('/channels/:id/events', async (request, reply) => {
 *   if (!canRead(request.user, request.params.id)) return reply.code(403).send();
 *   await serveFastifyFeedEvents(request, reply, { store, channelId: request.params.id });
 * });
 * ```
 */
export function serveFastifyFeedEvents(
  request: Pick<FastifyRequest, 'raw'>,
  reply: Pick<FastifyReply, 'raw' | 'hijack'>,
  options: FeedEventsOptions,
): Promise<void> {
  checkOptions('serveFastifyFeedEvents', options, FEED_EVENTS_OPTIONS);
  reply.hijack();
  return writeFeedEvents(request.raw, reply.raw, options);
}
