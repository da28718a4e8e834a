import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkOptions } from '../../../src/arguments/index.js';
import {
  FEED_EVENT_HEADERS,
  FEED_EVENTS_OPTIONS,
  type FeedEventsOptions,
  feedEventStream,
} from '../../../src/feed/feed-events.js';

/**
 * Answers a request with a store's feed as Server-Sent Events, on node:http (and so on Express,
 * whose `req` and `res` are node's): each message is one event whose `id` is its cursor, so a
 * browser's `EventSource` resumes after the last event it got by itself (its `Last-Event-ID`), and
 * a comment goes out after `keepAliveMs` of silence. The promise settles when the client goes away
 * (the store's subscription is released then), the store fails (the client reconnects and
 * resumes) or `signal` aborts. The stream's connection closes when it ends (`Connection: close`
 * on HTTP/1.1): at shutdown, the browser's next attempt opens a new connection, to a live instance
 * or the next process, and a stream asked for after the abort ends at once; a reader too slow to
 * take the rest is cut then. See `feedEventStream` for the stream's events, `reset` included.
 * Check first that the client may read the channel. A compression middleware's `res.flush()` is
 * called after each event. Bad options throw `invalid_argument` (synchronously) before anything
 * is written.
 *
 * @example
 * ```ts
 * app.get('/channels/:id/events', async (req, res) => {
 *   if (!canRead(req.user, req.params.id)) return res.sendStatus(403);
 *   await serveFeedEvents(req, res, { store, channelId: req.params.id });
 * });
 * ```
 */
export function serveFeedEvents(req: IncomingMessage, res: ServerResponse, options: FeedEventsOptions): Promise<void> {
  checkOptions('serveFeedEvents', options, FEED_EVENTS_OPTIONS);
  return writeFeedEvents(req, res, options);
}

/** Writes the stream of checked options. */
export async function writeFeedEvents(
  req: IncomingMessage,
  res: ServerResponse,
  options: FeedEventsOptions,
): Promise<void> {
  const gone = new AbortController();
  const stop = () => gone.abort();
  // `close` on the response: the connection ended (or the response did). The request's own
  // `close` comes as soon as a GET's empty body is read.
  res.on('close', stop);
  const lastEventId = req.headers['last-event-id'];
  try {
    res.writeHead(200, req.httpVersionMajor >= 2 ? HTTP2_HEADERS : FEED_EVENT_HEADERS);
    for await (const chunk of feedEventStream(
      options,
      typeof lastEventId === 'string' ? lastEventId : undefined,
      gone.signal,
    )) {
      // A wait for a slow reader ends at shutdown too, or that reader would hold the server open.
      if (!res.write(chunk)) await drained(res, gone.signal, options.signal);
      (res as { flush?: () => void }).flush?.();
      if (gone.signal.aborted || options.signal?.aborted === true) break;
    }
  } finally {
    res.off('close', stop);
    if (!res.writableEnded) res.end();
    // What a reader has not taken yet would hold the connection open past the shutdown. Cut, it
    // loses nothing: EventSource drops an event it got only part of, and resumes before it.
    if (options.signal?.aborted === true && res.writableLength > 0) res.destroy();
  }
}

// `Connection` is not a header of HTTP/2, which node:http2's compatibility API drops with a warning.
const { connection: _, ...HTTP2_HEADERS } = FEED_EVENT_HEADERS;

/** Resolves when `res` can take more, the client went away or the server's signal aborted. */
function drained(res: ServerResponse, gone: AbortSignal, shutdown: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      gone.removeEventListener('abort', done);
      shutdown?.removeEventListener('abort', done);
      resolve();
    };
    res.on('drain', done);
    gone.addEventListener('abort', done);
    if (shutdown?.aborted === true) done();
    else shutdown?.addEventListener('abort', done);
  });
}
