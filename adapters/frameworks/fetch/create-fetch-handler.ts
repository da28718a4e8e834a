import { fn } from '../../../src/arguments/index.js';
import {
  FIXED_PROBLEMS,
  answer,
  createWebhookAdapter,
  fetchBinding,
  isThenable,
  toFetchResponse,
  type WebhookAdapterOptions,
  type WebhookHandler,
} from '../../../src/adapter-kit/index.js';

/**
 * Options of {@link createFetchHandler}.
 *
 * @example
 * ```ts
 * const options: FetchHandlerOptions = { fallback: app.fetch, bodyTimeoutMs: 5_000 };
 * ```
 */
export interface FetchHandlerOptions extends WebhookAdapterOptions {
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
 * See `createWebhookAdapter` for what every adapter does, and `fetchRequestParts` for what a Web
 * `Request` cannot tell (a repeated `Idempotency-Key`).
 *
 * @param handle - the core handler, from `createWebhookHandler`.
 * @param options - see {@link FetchHandlerOptions}.
 * @example
 * ```ts
 * import { createMemoryStore, createWebhookHandler } from 'channel-webhooks';
 * import { createFetchHandler } from 'channel-webhooks/fetch';
 *
 * const fetchHandler = createFetchHandler(createWebhookHandler({ store: createMemoryStore() }));
 * export default { fetch: fetchHandler }; // Bun, Deno, workers
 * ```
 */
export function createFetchHandler(
  handle: WebhookHandler,
  options: FetchHandlerOptions = {},
): (request: Request) => Promise<Response> {
  const serve = createWebhookAdapter(
    handle,
    {
      name: 'createFetchHandler',
      options: { fallback: fn('a function from a Request to a Response') },
      ...fetchBinding(),
    },
    options,
  );
  const { fallback = answerNoWebhookHere } = options;
  return (request) => {
    try {
      const answered = serve(request, undefined);
      if (answered === null) return Promise.resolve(fallback(request));
      return isThenable(answered) ? answered : Promise.resolve(answered);
    } catch (error) {
      return Promise.reject(error);
    }
  };
}

function answerNoWebhookHere(): Response {
  return toFetchResponse(answer(FIXED_PROBLEMS.noWebhookHere));
}
