import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  isThenable,
  type WebhookAdapter,
  type WebhookAdapterBinding,
  type WebhookResponse,
} from '../../../src/adapter-kit/index.js';
import { nodeRequestParts } from '../node/node-request-parts.js';
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
 * The binding of Koa, for both middlewares (the endpoint's and the management API's): the context's
 * node request, its URL after any mount prefix (`ctx.req.url`, with the query), the raw body
 * `koa-bodyparser` left on `ctx.request` when it ran first, and the answer set on the context.
 *
 * @param name - the middleware's factory, for its argument errors.
 */
export function koaBinding(name: string): WebhookAdapterBinding<KoaLikeContext, KoaLikeContext> {
  return {
    name,
    ...nodeRequestParts(
      (ctx: KoaLikeContext) => ctx.req,
      (ctx) => ctx.request,
    ),
    originalUrl: (ctx) => ctx.originalUrl,
    write: writeKoaResponse,
  };
}

/** Writes a core answer to a Koa context: the `write` of a binding on Koa. */
export function writeKoaResponse(ctx: KoaLikeContext, response: WebhookResponse): void {
  ctx.status = response.status;
  // Headers first: Koa would otherwise type a string body as text/plain.
  ctx.set(nodeHeaders(response, ctx.req));
  ctx.body = JSON.stringify(response.body);
}

/**
 * The Koa middleware around one adapter's `serve`: its answer, `next()` for a request it does not
 * take, a rejection for one it could not answer. It is no `async` function: an answer given at once
 * costs one settled promise, shared by every such request.
 */
export function koaMiddlewareAround(serve: WebhookAdapter<KoaLikeContext, KoaLikeContext>): KoaMiddleware {
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
