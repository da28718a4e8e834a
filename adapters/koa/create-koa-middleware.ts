import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolveNodeAdapterOptions, type NodeAdapterOptions } from '../shared/node-adapter-options.js';
import { readNodeBody } from '../shared/read-node-body.js';
import { nodeCoreHeaders, nodeRequestHeaders } from '../shared/node-request-headers.js';
import { nodeHeaders } from '../shared/write-node-response.js';
import { checkHandle, isThenable, matchWebhookPath, respondNowOf, type MaybePromise, type WebhookHandler, type WebhookResponse } from '../../src/internal.js';

/**
 * The parts of a Koa 2 or 3 context the middleware uses: a structural type, so that the
 * declarations need no Koa types and Koa stays an optional peer.
 *
 * @example
 * ```ts
 * app.use((ctx, next) => middleware(ctx as KoaLikeContext, next));
 * ```
 */
export interface KoaLikeContext {
  req: IncomingMessage;
  res: ServerResponse;
  /** The path (and query) as seen by this middleware, after any mount prefix. */
  path: string;
  /** The URL before any mount prefix was stripped. */
  originalUrl: string;
  /** `koa-bodyparser` leaves `body` (parsed) and `rawBody` (the text it parsed) here. */
  request: { body?: unknown; rawBody?: unknown };
  status: number;
  body: unknown;
  set(headers: Record<string, string>): void;
}

/**
 * A Koa middleware: `(ctx, next) => Promise`, accepted by `app.use` of Koa 2 and 3.
 *
 * @example
 * ```ts
 * const middleware: KoaMiddleware = createKoaMiddleware(handle);
 * app.use(middleware);
 * ```
 */
export type KoaMiddleware = (ctx: KoaLikeContext, next: () => Promise<unknown>) => Promise<void>;

/**
 * Creates a Koa (2 or 3) middleware that answers webhook posts: every request whose path ends in
 * `/hooks/channels/{webhook_id}/{secret}`, under any mount prefix. Every other request goes on to
 * `next()`.
 *
 * Mount it before any body parser: it reads the body itself, only once the method, URL,
 * Content-Type and rate-limit checks passed, and never more than 64 KiB + 1 byte. If
 * `koa-bodyparser` runs first, the `ctx.request.rawBody` it keeps is used; a parsed body without a
 * raw one gets a 500 problem with code `misconfigured`, never a hang.
 *
 * A repeated `Idempotency-Key` header reaches the core as its separate values, not joined by
 * Node into one, and is answered 400 (`invalid_payload`, the error naming the header).
 *
 * A body that has not fully arrived `bodyTimeoutMs` after reading started is answered 400 with code
 * `body_read_failed`, and the connection is closed. The server's own `requestTimeout` and
 * `headersTimeout` still apply beside it.
 *
 * @param handle - the core handler, from `createWebhookHandler`.
 * @param options - `bodyTimeoutMs`: the deadline for the whole body in ms, default 10,000. An
 *   invalid value throws a `ChannelWebhookError` with code `invalid_argument` here, not on a post.
 * @example
 * ```ts
 * import Koa from 'koa';
 * import { createMemoryStore, createWebhookHandler } from 'channel-webhooks';
 * import { createKoaMiddleware } from 'channel-webhooks/koa';
 *
 * const app = new Koa();
 * const handle = createWebhookHandler({ store: createMemoryStore() });
 * app.use(createKoaMiddleware(handle, { bodyTimeoutMs: 5_000 }));
 * ```
 */
export function createKoaMiddleware(handle: WebhookHandler, options?: NodeAdapterOptions): KoaMiddleware {
  checkHandle(handle, 'createKoaMiddleware');
  const { bodyTimeoutMs } = resolveNodeAdapterOptions(options, 'createKoaMiddleware');
  const own = respondNowOf(handle);
  const respond = own ?? handle;
  // The core reads four headers; a handler wrapped by the app gets them all.
  const headersOf = own === undefined ? nodeRequestHeaders : nodeCoreHeaders;
  return (ctx, next) => {
    const path = matchWebhookPath(ctx.path);
    if (path === null) return passOn(next);
    const { req } = ctx;
    let response: MaybePromise<WebhookResponse>;
    try {
      response = respond(
        {
          method: req.method ?? 'GET',
          url: ctx.originalUrl,
          headers: headersOf(req),
          // koa-bodyparser, when it ran first, left its raw body on `ctx.request`.
          body: (maxBytes) => readNodeBody(req, ctx.request, bodyTimeoutMs, maxBytes),
        },
        path,
      );
    } catch (error) {
      return Promise.reject(error);
    }
    if (isThenable(response)) return response.then((answer) => writeKoaResponse(ctx, answer));
    writeKoaResponse(ctx, response);
    return DONE;
  };
}

// Answered without waiting: Koa takes any settled promise, and one does for every request.
const DONE: Promise<void> = Promise.resolve();

async function passOn(next: () => Promise<unknown>): Promise<void> {
  await next();
}

function writeKoaResponse(ctx: KoaLikeContext, response: WebhookResponse): void {
  ctx.status = response.status;
  // Headers first: Koa would otherwise type a string body as text/plain.
  ctx.set(nodeHeaders(response, ctx.req));
  ctx.body = JSON.stringify(response.body);
}
