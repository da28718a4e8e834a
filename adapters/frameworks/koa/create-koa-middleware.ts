import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  createWebhookAdapter,
  isThenable,
  type WebhookHandler,
  type WebhookResponse,
} from '../../../src/adapter-kit/index.js';
import { nodeRequestParts, type NodeAdapterOptions } from '../node/node-request-parts.js';
import { nodeHeaders } from '../node/write-node-response.js';

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
 * Creates a Koa (2 or 3) middleware that answers webhook posts under any mount prefix (see
 * `createWebhookAdapter` for what every adapter does, and `nodeRequestParts` for Node) and passes
 * every other request on to `next()`. Mount it before any body parser (`koa-bodyparser`'s
 * `ctx.request.rawBody` is used if it ran first).
 *
 * @param handle - the core handler, from `createWebhookHandler`.
 * @param options - `bodyTimeoutMs`: the deadline for the whole body in ms, default 10,000.
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
  const serve = createWebhookAdapter(
    handle,
    {
      name: 'createKoaMiddleware',
      // koa-bodyparser, when it ran first, left its raw body on `ctx.request`.
      ...nodeRequestParts(
        (ctx: KoaLikeContext) => ctx.req,
        (ctx) => ctx.request,
      ),
      url: (ctx) => ctx.path,
      originalUrl: (ctx) => ctx.originalUrl,
      write: writeKoaResponse,
    },
    options,
  );
  return (ctx, next) => {
    let answered: ReturnType<typeof serve>;
    try {
      answered = serve(ctx, ctx);
    } catch (error) {
      return Promise.reject(error);
    }
    if (answered === null) return passOn(next);
    return isThenable(answered) ? answered : DONE;
  };
}

// Answered without waiting: Koa takes any settled promise, and one does for every request.
const DONE: Promise<void> = Promise.resolve();

async function passOn(next: () => Promise<unknown>): Promise<void> {
  await next();
}

/** Writes a core answer to a Koa context: the `write` of a binding on Koa. */
export function writeKoaResponse(ctx: KoaLikeContext, response: WebhookResponse): void {
  ctx.status = response.status;
  // Headers first: Koa would otherwise type a string body as text/plain.
  ctx.set(nodeHeaders(response, ctx.req));
  ctx.body = JSON.stringify(response.body);
}
