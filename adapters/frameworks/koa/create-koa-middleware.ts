import { createWebhookAdapter, type WebhookHandler } from '../../../src/adapter-kit/index.js';
import type { NodeAdapterOptions } from '../node/node-request-parts.js';
import { koaBinding, koaMiddlewareAround, type KoaLikeContext, type KoaMiddleware } from './koa-binding.js';

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
  // Webhook URLs are matched on Koa's parsed path; only the management API needs the query.
  const binding = { ...koaBinding('createKoaMiddleware'), url: (ctx: KoaLikeContext) => ctx.path };
  return koaMiddlewareAround(createWebhookAdapter(handle, binding, options));
}
