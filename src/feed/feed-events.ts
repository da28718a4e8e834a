import { checkOptions, fn, integer, port, required, rule } from '../arguments/index.js';
import { systemClock } from '../clock.js';
import { isChannelWebhookError } from '../errors.js';
import { FEED_METHODS, type FeedEntry, type WebhookStore } from '../ports.js';
import { createConsoleErrorLog } from '../reporting/console-error-log.js';
import type { ErrorContext } from '../reporting/error-context.js';
import { followFeed } from './follow-feed.js';

/**
 * Options of the Server-Sent Events helpers (`serveFeedEvents` in `channel-webhooks/node` and
 * `/express`, `serveKoaFeedEvents`, `serveFastifyFeedEvents`, `createFeedEventsResponse` in
 * `/fetch`) and of {@link feedEventStream}.
 *
 * @example
 * ```ts
 * const options: FeedEventsOptions = { store, channelId: 'general', data: ({ message }) => ({ id: message.id, html: toHtml(message) }) };
 * ```
 */
export interface FeedEventsOptions {
  /** A store with the feed (memory, SQLite, PostgreSQL, or one of your own with `readFeed` and `watchFeed`). */
  store: WebhookStore;
  /** The one channel the stream carries; check first that the client may read it. Default: every channel. */
  channelId?: string;
  /**
   * Where a stream without a `Last-Event-ID` starts: after this cursor. Default: at the oldest
   * message the store keeps. A client's `Last-Event-ID` (its reconnection) always wins.
   */
  after?: string;
  /** What an event's `data` carries, as JSON. Default: the message (`entry.message`). */
  data?: (entry: FeedEntry) => unknown;
  /** A comment line is sent after this long without an event, so proxies keep the connection. Default 15,000 ms. */
  keepAliveMs?: number;
  /** The reconnection delay the browser is told (`retry:`), in ms. Default: none (the browser's own, about 3 s). */
  retryMs?: number;
  /**
   * Ends the stream when aborted, e.g. when the server shuts down: its connection closes, and a
   * stream asked for afterwards ends at once, so that clients reconnect on a new connection (to
   * another instance, or the next process) and resume.
   */
  signal?: AbortSignal;
  /**
   * Called when the store fails and the stream ends because of it (the client then reconnects
   * and resumes), with the stage `feed` and the stream's `channelId`, if it has one. Default: one
   * line on `console.error`, identical failures at most one every 10 s.
   */
  onError?: (error: unknown, context: ErrorContext<'feed'>) => void;
}

/**
 * The headers of an event stream: its media type, no caching and no transformation on the way (a
 * compressing or buffering proxy would hold the events back), nginx told not to buffer it, and
 * `Connection: close`: a browser's `EventSource` reconnects when a stream ends and, over HTTP/1.1,
 * would reuse its connection, so a server that shuts down would serve it again and never close,
 * where a new connection reaches a live instance (or the next process). HTTP/2 has no `Connection`
 * header: leave it out there (node:http2 drops it with a warning).
 *
 * @example
 * ```ts
 * res.writeHead(200, FEED_EVENT_HEADERS);
 * ```
 */
export const FEED_EVENT_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
  connection: 'close',
});

/** The option rules of every helper that takes {@link FeedEventsOptions}. */
export const FEED_EVENTS_OPTIONS = {
  store: required(
    port(
      'a WebhookStore with the feed',
      FEED_METHODS,
      'Pass createMemoryStore(), createSqliteStore() or createPostgresStore() with a pool.',
    ),
  ),
  channelId: rule('a string', (value) => typeof value === 'string'),
  after: rule('a cursor string', (value) => typeof value === 'string'),
  data: fn(),
  keepAliveMs: integer(1, 2 ** 31 - 1),
  retryMs: integer(0, 2 ** 31 - 1),
  signal: rule('an AbortSignal', (value) => typeof (value as AbortSignal | null)?.addEventListener === 'function'),
  onError: fn(),
};

/**
 * The text of a resumable Server-Sent Events stream of a store's feed, chunk by chunk, for a
 * runtime or framework the package has no helper for (the helpers write exactly this). Each
 * message is one event whose `id` is its cursor, so a browser's `EventSource` resumes after the
 * last event it got (`Last-Event-ID`) by itself. The stream starts with a comment (so the client
 * sees it open), sends a comment after `keepAliveMs` of silence, and ends when `signal` aborts or
 * the store fails (the client then reconnects and resumes); asked for after `signal` aborted, it
 * is that first comment alone. Send it with {@link FEED_EVENT_HEADERS} and close the connection
 * when it ends, so that the client reconnects on a new one. When the store no longer keeps what
 * follows the client's cursor, or the cursor is not one of its own, an event `reset` (data
 * `{"code":"cursor_expired"}` or `{"code":"invalid_cursor"}`) comes first and the stream starts again
 * at the oldest message kept: clear what you show and take the events that follow.
 *
 * @param lastEventId - the request's `Last-Event-ID` header, if any.
 * @param gone - aborted when the client goes away; the store's subscription is released then.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * request.on('close', () => controller.abort());
 * response.writeHead(200, FEED_EVENT_HEADERS);
 * for await (const chunk of feedEventStream({ store, channelId: 'general' }, request.headers['last-event-id'], controller.signal)) {
 *   response.write(chunk);
 * }
 * response.end();
 * ```
 */
export async function* feedEventStream(
  options: FeedEventsOptions,
  lastEventId: string | null | undefined,
  gone: AbortSignal,
): AsyncGenerator<string, void, undefined> {
  checkOptions('feedEventStream', options, FEED_EVENTS_OPTIONS);
  const { store, channelId, data = (entry: FeedEntry) => entry.message, keepAliveMs = 15_000, retryMs } = options;
  const onError = options.onError ?? defaultErrorLog();
  let after = lastEventId === null || lastEventId === undefined || lastEventId === '' ? options.after : lastEventId;
  const signal = options.signal === undefined ? gone : AbortSignal.any([gone, options.signal]);
  yield `${retryMs === undefined ? '' : `retry: ${retryMs}\n`}: connected\n\n`;
  while (!signal.aborted) {
    // The follower has a signal of its own, so that leaving this loop always ends it, also while
    // it waits for a change.
    const done = new AbortController();
    const stop = () => done.abort();
    signal.addEventListener('abort', stop);
    const entries = followFeed(store, { channelId, after, signal: done.signal });
    try {
      for (;;) {
        const next = entries.next();
        // Left pending when the client goes away: its failure, if any, then concerns no one.
        next.catch(() => undefined);
        let result = await orSilence(next, keepAliveMs, signal);
        while (result === SILENT) {
          if (signal.aborted) return;
          yield ': keep-alive\n\n';
          result = await orSilence(next, keepAliveMs, signal);
        }
        if (result.done === true) return;
        after = result.value.cursor;
        yield `id: ${result.value.cursor}\ndata: ${JSON.stringify(data(result.value)) ?? 'null'}\n\n`;
      }
    } catch (error) {
      if (isChannelWebhookError(error, 'cursor_expired') || isChannelWebhookError(error, 'invalid_cursor')) {
        yield `event: reset\ndata: ${JSON.stringify({ code: error.code })}\n\n`;
        after = undefined;
        continue;
      }
      onError(error, channelId === undefined ? { stage: 'feed' } : { stage: 'feed', channelId });
      return;
    } finally {
      signal.removeEventListener('abort', stop);
      done.abort();
      entries.return().catch(() => undefined);
    }
  }
}

const SILENT = Symbol('silent');

/**
 * `next`, or {@link SILENT} when `ms` pass first or `signal` aborts (the follower then ends too).
 * The timer and the listener go when it settles: one wait per event would otherwise stay on the
 * signal for `ms`, thousands of them on a busy stream.
 */
async function orSilence<T>(next: Promise<T>, ms: number, signal: AbortSignal): Promise<T | typeof SILENT> {
  let done = () => {};
  const silent = new Promise<typeof SILENT>((resolve) => {
    done = () => resolve(SILENT);
  });
  const timer = setTimeout(done, ms);
  (timer as { unref?: () => void }).unref?.();
  signal.addEventListener('abort', done, { once: true });
  try {
    return await Promise.race([next, silent]);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', done);
  }
}

let errorLog: ((error: unknown, context: ErrorContext<'feed'>) => void) | undefined;

// One log for every stream of the process, so that a failing store writes one line, not one a stream.
function defaultErrorLog(): (error: unknown, context: ErrorContext<'feed'>) => void {
  errorLog ??= createConsoleErrorLog(systemClock, 'feed events');
  return errorLog;
}
