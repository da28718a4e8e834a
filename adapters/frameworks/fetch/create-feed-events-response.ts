import { checkOptions } from '../../../src/arguments/index.js';
import {
  FEED_EVENT_HEADERS,
  FEED_EVENTS_OPTIONS,
  type FeedEventsOptions,
  feedEventStream,
} from '../../../src/feed/feed-events.js';

/**
 * A `Response` that streams a store's feed as Server-Sent Events, on Web standards (Hono, Bun,
 * Deno, Next.js route handlers): each message is one event whose `id` is its cursor, so a
 * browser's `EventSource` resumes after the last event it got (`Last-Event-ID`, read from
 * `request`) by itself. The stream ends when the client goes away (the runtime cancels the body,
 * or aborts `request.signal`), releasing the store's subscription, when the store fails (the
 * client then reconnects and resumes), or when `signal` aborts. Its headers are
 * `FEED_EVENT_HEADERS`, `Connection: close` among them, so that at shutdown the browser's next
 * attempt opens a new connection (see docs/delivering-messages.md for what each runtime does with
 * it). See `feedEventStream` for the events. Bad options throw `invalid_argument` at once.
 *
 * @example
 * ```ts
 * app.get('/channels/:id/events', (c) => createFeedEventsResponse(c.req.raw, { store, channelId: c.req.param('id') }));
 * ```
 */
export function createFeedEventsResponse(request: Request, options: FeedEventsOptions): Response {
  checkOptions('createFeedEventsResponse', options, FEED_EVENTS_OPTIONS);
  const gone = new AbortController();
  const stop = () => gone.abort();
  request.signal?.addEventListener('abort', stop);
  const chunks = feedEventStream(options, request.headers.get('last-event-id'), gone.signal);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done === true) {
        request.signal?.removeEventListener('abort', stop);
        controller.close();
      } else controller.enqueue(encoder.encode(next.value));
    },
    cancel() {
      request.signal?.removeEventListener('abort', stop);
      gone.abort();
      chunks.return().catch(() => undefined);
    },
  });
  return new Response(body, { status: 200, headers: FEED_EVENT_HEADERS });
}
