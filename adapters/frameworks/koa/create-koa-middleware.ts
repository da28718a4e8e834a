import type { IncomingMessage, ServerResponse } from 'node:http';
import { createNodeAdapter, type NodeAdapterOptions } from '../node/node-adapter.js';
import { nodeHeaders } from '../node/write-node-response.js';
import { isThenable, matchWebhookPath, type WebhookHandler, type WebhookResponse } from '../../../src/internal.js';

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
 * `next()`. Mount it before any body parser (`koa-bodyparser`'s `ctx.request.rawBody` is used if it
 * ran first); what it guarantees is said once for every Node adapter, at `createNodeAdapter`
 * (adapters/frameworks/node/node-adapter.ts).
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
  const respond = createNodeAdapter(handle, options, 'createKoaMiddleware');
  return (ctx, next) => {
    const path = matchWebhookPath(ctx.path);
    if (path === null) return passOn(next);
    try {
      // koa-bodyparser, when it ran first, left its raw body on `ctx.request`.
      const response = respond(ctx.req, ctx.originalUrl, path, ctx.request);
      if (isThenable(response)) return response.then((settled) => writeKoaResponse(ctx, settled));
      writeKoaResponse(ctx, response);
      return DONE;
    } catch (error) {
      return Promise.reject(error);
    }
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
