import type { IncomingMessage } from 'node:http';
import { nodeCoreHeaders, nodeRequestHeaders } from './node-request-headers.js';
import { readNodeBody, type ParserLeftovers } from './read-node-body.js';
import {
  openAdapterEntry,
  type AdapterOptions,
  type MaybePromise,
  type OptionsShape,
  type WebhookHandler,
  type WebhookPath,
  type WebhookResponse,
} from '../../../src/internal.js';

/**
 * Options of the Node adapters (`createNodeListener`, `createExpressMiddleware`,
 * `createKoaMiddleware`, `createFastifyPlugin`).
 *
 * @example
 * ```ts
 * const options: NodeAdapterOptions = { bodyTimeoutMs: 5_000 };
 * app.use(createExpressMiddleware(handle, options));
 * ```
 */
export interface NodeAdapterOptions extends AdapterOptions {}

/**
 * Answers one webhook request of a Node server: the request, its URL as the core should see it
 * (before any mount prefix was stripped), the path already matched, and what a body parser that ran
 * first may have left.
 */
export type NodeRespond = (req: IncomingMessage, url: string, path: WebhookPath, leftovers: ParserLeftovers) => MaybePromise<WebhookResponse>;

/**
 * The base every Node adapter builds on (the `node:http` listener, Express, Koa and Fastify): the
 * core's entry (the arguments checked, the fast path of the library's own handler), the request's
 * headers, and its one body reader. Besides what every adapter guarantees, on Node:
 *
 * - A repeated `Idempotency-Key` header reaches the core as its separate values, not joined by Node
 *   into one, and is answered 400 (`invalid_payload`, the error naming the header).
 * - A body parser mounted before the adapter does not make it hang: the raw Buffer or string it
 *   left (`express.raw({ type: 'application/json' })`, `express.text()`, `koa-bodyparser`'s
 *   `rawBody`) is used, and an already-parsed object without one is answered 500 with code
 *   `misconfigured`, saying how to mount.
 * - An answer given before the whole body arrived (a 413, a body past its deadline) closes the
 *   connection, so that nobody keeps receiving a body nobody reads. The server's own
 *   `requestTimeout` and `headersTimeout` still apply beside `bodyTimeoutMs`.
 *
 * @param handle - the core handler, from `createWebhookHandler`.
 * @param options - `bodyTimeoutMs` (default 10,000).
 * @param factory - the adapter factory's name, for error messages.
 * @param extraOptions - the adapter's options besides `bodyTimeoutMs`, with their rules.
 * @example
 * ```ts
 * const respond = createNodeAdapter(handle, options, 'createExpressMiddleware');
 * const answer = respond(req, req.originalUrl, path, req);
 * ```
 */
export function createNodeAdapter(handle: WebhookHandler, options: NodeAdapterOptions | undefined, factory: string, extraOptions?: OptionsShape): NodeRespond {
  const { respond, coreHeadersOnly, bodyTimeoutMs } = openAdapterEntry(handle, options, factory, extraOptions);
  const headersOf = coreHeadersOnly ? nodeCoreHeaders : nodeRequestHeaders;
  return (req, url, path, leftovers) =>
    respond({ method: req.method ?? 'GET', url, headers: headersOf(req), body: (maxBytes) => readNodeBody(req, leftovers, bodyTimeoutMs, maxBytes) }, path);
}
