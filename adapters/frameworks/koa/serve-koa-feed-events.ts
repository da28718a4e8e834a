import { writeFeedEvents } from '../node/serve-feed-events.js';
import { checkOptions } from '../../../src/arguments/index.js';
import { FEED_EVENTS_OPTIONS, type FeedEventsOptions } from '../../../src/feed/feed-events.js';
import type { KoaLikeContext } from './koa-binding.js';

/**
 * Answers a Koa (2 or 3) request with a store's feed as Server-Sent Events: Koa leaves the response
 * to it (`ctx.respond = false`) and it writes as `serveFeedEvents` from `channel-webhooks/node`
 * does; the promise settles when the client goes away or the store fails.
 *
 * @example
 * ```ts
 * router.get('/channels/:id/events', async (ctx) => {
 *   if (!canRead(ctx.state.user, ctx.params.id)) return ctx.throw(403);
 *   await serveKoaFeedEvents(ctx, { store, channelId: ctx.params.id });
 * });
 * ```
 */
export function serveKoaFeedEvents(
  ctx: Pick<KoaLikeContext, 'req' | 'res'> & { respond?: boolean },
  options: FeedEventsOptions,
): Promise<void> {
  checkOptions('serveKoaFeedEvents', options, FEED_EVENTS_OPTIONS);
  ctx.respond = false;
  return writeFeedEvents(ctx.req, ctx.res, options);
}
