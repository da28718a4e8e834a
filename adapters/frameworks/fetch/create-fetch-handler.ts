import { readFetchBody } from './read-fetch-body.js';
import {
  CORE_HEADERS,
  FIXED_PROBLEMS,
  answer,
  fn,
  isThenable,
  matchWebhookPath,
  openAdapterEntry,
  type AdapterOptions,
  type WebhookHandler,
  type WebhookResponse,
} from '../../../src/internal.js';

/**
 * Options of {@link createFetchHandler}.
 *
 * @example
 * ```ts
 * const options: FetchHandlerOptions = { fallback: app.fetch, bodyTimeoutMs: 5_000 };
 * ```
 */
export interface FetchHandlerOptions extends AdapterOptions {
  /**
   * Answers requests whose path is not a webhook URL, e.g. the rest of the app
   * (`fallback: app.fetch`). Default: a 404 problem.
   */
  fallback?: (request: Request) => Response | Promise<Response>;
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
  const { respond, coreHeadersOnly, bodyTimeoutMs } = openAdapterEntry(handle, options, 'createFetchHandler', {
    fallback: fn('a function from a Request to a Response'),
  });
  const { fallback = answerNoWebhookHere } = options;
  const headersOf = coreHeadersOnly ? coreHeaders : allHeaders;
  return (request) => {
    try {
      const path = matchWebhookPath(request.url);
      if (path === null) return Promise.resolve(fallback(request));
      const headers = headersOf(request.headers);
      // The body reader takes the length already read rather than asking `Headers` again.
      const declared = headers['transfer-encoding'] === undefined ? headers['content-length'] : undefined;
      const response = respond(
        { method: request.method, url: request.url, headers, body: (maxBytes: number) => readFetchBody(request, maxBytes, bodyTimeoutMs, declared) },
        path,
      );
      return isThenable(response) ? Promise.resolve(response).then(toResponse) : Promise.resolve(toResponse(response));
    } catch (error) {
      return Promise.reject(error);
    }
  };
}

// Only the headers the core reads: walking them all would make a runtime that builds `Headers`
// lazily (Hono's Node server) build the whole object.
function coreHeaders(headers: Headers): Record<string, string | undefined> {
  const core: Record<string, string | undefined> = {};
  for (const name of CORE_HEADERS) core[name] = headers.get(name) ?? undefined;
  return core;
}

function allHeaders(headers: Headers): Record<string, string> {
  const all: Record<string, string> = {};
  headers.forEach((value, name) => {
    all[name] = value;
  });
  return all;
}

function answerNoWebhookHere(): Response {
  return toResponse(answer(FIXED_PROBLEMS.noWebhookHere));
}

function toResponse(response: WebhookResponse): Response {
  const { headers } = response;
  return new Response(JSON.stringify(response.body), {
    status: response.status,
    // The answer's headers are its own: used as they are when they name the content type.
    headers: headers['content-type'] === undefined ? { 'content-type': 'application/json', ...headers } : headers,
  });
}
