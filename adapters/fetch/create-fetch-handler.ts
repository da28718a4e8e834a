import { readFetchBody } from './read-fetch-body.js';
import {
  ChannelWebhookError,
  checkHandle,
  isThenable,
  problemResponse,
  resolveBodyTimeout,
  matchWebhookPath,
  respondNowOf,
  type WebhookHandler,
  type WebhookResponse,
} from '../../src/internal.js';

/**
 * Options of {@link createFetchHandler}.
 *
 * @example
 * ```ts
 * const options: FetchHandlerOptions = { fallback: app.fetch, bodyTimeoutMs: 5_000 };
 * ```
 */
export interface FetchHandlerOptions {
  /**
   * Answers requests whose path is not a webhook URL, e.g. the rest of the app
   * (`fallback: app.fetch`). Default: a 404 problem.
   */
  fallback?: (request: Request) => Response | Promise<Response>;
  /**
   * How long the whole request body may take to arrive, in ms, counted from when the handler starts
   * reading it. A body still incomplete then is answered 400 with code `body_read_failed` (and
   * reported to `onError`). Default 10,000. Runtimes have their own, much longer limits (Node's
   * `requestTimeout` is 300 s), during which a client trickling a body would hold the request.
   */
  bodyTimeoutMs?: number;
}

/**
 * Creates a Fetch-API handler, `(request: Request) => Promise<Response>`, over Web standards only:
 * it runs on Node 20+, Bun, Deno, Cloudflare Workers and in Hono. Requests whose path ends in
 * `/hooks/channels/{webhook_id}/{secret}` (any prefix before it) go to the core; any other path
 * gets a 404 problem, or goes to `options.fallback` when one is given.
 *
 * On Hono, mount it on the webhook route and pass the raw request:
 * `app.all('/hooks/channels/:id/:secret', (c) => fetchHandler(c.req.raw))`. Don't read the body in
 * an earlier Hono middleware, since a Web request body can be read only once.
 *
 * Limitation: the Fetch `Headers` object joins the lines of a repeated header with `", "` and keeps
 * no trace of the repetition, so two `Idempotency-Key` headers (`evt-1`, `evt-2`) reach the core as
 * the one key `"evt-1, evt-2"`, where the Express and Koa adapters answer 400. Senders must send the
 * header once (the contract allows one); a key that must never be confused this way can travel as
 * `eventId` in the body instead.
 *
 * @param handle - the core handler, from `createWebhookHandler`.
 * @param options - see {@link FetchHandlerOptions}. A handler that is not a function, or a `fallback`
 *   that is not one, throws a `ChannelWebhookError` with code `invalid_argument` here, not on a request.
 * @example
 * ```ts
 * import { createMemoryStore, createWebhookHandler } from 'channel-webhooks';
 * import { createFetchHandler } from 'channel-webhooks/fetch';
 *
 * const fetchHandler = createFetchHandler(createWebhookHandler({ store: createMemoryStore() }));
 * export default { fetch: fetchHandler }; // Bun, Deno, workers
 * ```
 */
export function createFetchHandler(handle: WebhookHandler, options: FetchHandlerOptions = {}): (request: Request) => Promise<Response> {
  checkHandle(handle, 'createFetchHandler');
  if (typeof options !== 'object' || options === null) {
    throw new ChannelWebhookError('invalid_argument', `createFetchHandler: options must be an object, got ${String(options)}`);
  }
  const { fallback } = options;
  if (fallback !== undefined && typeof fallback !== 'function') {
    throw new ChannelWebhookError('invalid_argument', 'createFetchHandler: fallback must be a function from a Request to a Response');
  }
  const bodyTimeoutMs = resolveBodyTimeout(options, 'createFetchHandler');
  const own = respondNowOf(handle);
  const respond = own ?? handle;
  // The core reads four headers; a handler wrapped by the app gets them all.
  const headersOf = own === undefined ? allHeaders : coreHeaders;
  return (request) => {
    try {
      const path = matchWebhookPath(request.url);
      if (path === null) return Promise.resolve(fallback === undefined ? toResponse(answerNotFound()) : fallback(request));
      const headers = headersOf(request.headers);
      // The body reader takes the length already read rather than asking `Headers` again.
      const declared = headers['transfer-encoding'] === undefined ? headers['content-length'] : undefined;
      const response = respond(
        { method: request.method, url: request.url, headers, body: (maxBytes) => readFetchBody(request, maxBytes, bodyTimeoutMs, declared) },
        path,
      );
      return isThenable(response) ? response.then(toResponse) : Promise.resolve(toResponse(response));
    } catch (error) {
      return Promise.reject(error);
    }
  };
}

// Only the headers the core reads: walking them all would make a runtime that builds `Headers`
// lazily (Hono's Node server) build the whole object.
function coreHeaders(headers: Headers): Record<string, string | undefined> {
  return {
    'content-type': headers.get('content-type') ?? undefined,
    'content-length': headers.get('content-length') ?? undefined,
    'transfer-encoding': headers.get('transfer-encoding') ?? undefined,
    'idempotency-key': headers.get('idempotency-key') ?? undefined,
  };
}

function allHeaders(headers: Headers): Record<string, string> {
  const all: Record<string, string> = {};
  headers.forEach((value, name) => {
    all[name] = value;
  });
  return all;
}

const NOT_FOUND = problemResponse('not_found', 'No webhook answers at this URL.');

// Each answer gets headers of its own, which a caller may add to.
function answerNotFound(): WebhookResponse {
  return { status: NOT_FOUND.status, headers: { ...NOT_FOUND.headers }, body: NOT_FOUND.body };
}

function toResponse(response: WebhookResponse): Response {
  const { headers } = response;
  return new Response(JSON.stringify(response.body), {
    status: response.status,
    // The answer's headers are its own: used as they are when they name the content type.
    headers: headers['content-type'] === undefined ? { 'content-type': 'application/json', ...headers } : headers,
  });
}
