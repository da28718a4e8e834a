import { createWebhookAdapter, type WebhookHandler } from '../../../src/adapter-kit/index.js';
import type { NodeAdapterOptions } from '../node/node-request-parts.js';
import { expressBinding, expressMiddlewareAround, type ExpressMiddleware } from './express-binding.js';

/**
 * Creates an Express (4 or 5) middleware that answers webhook posts under any mount prefix (see
 * `createWebhookAdapter` for what every adapter does, and `nodeRequestParts` for Node) and passes
 * every other request on to `next()`. Mount it before any body parser.
 *
 * @param handle - the core handler, from `createWebhookHandler`.
 * @param options - `bodyTimeoutMs`: the deadline for the whole body in ms, default 10,000.
 * @example
 * ```ts
 * import express from 'express';
 * import { createMemoryStore, createWebhookHandler } from 'channel-webhooks';
 * import { createExpressMiddleware } from 'channel-webhooks/express';
 *
 * const handle = createWebhookHandler({ store: createMemoryStore() });
 * const app = express();
 * app.use('/api', createExpressMiddleware(handle, { bodyTimeoutMs: 5_000 })); // before express.json()
 * app.use(express.json());
 * ```
 */
export function createExpressMiddleware(handle: WebhookHandler, options?: NodeAdapterOptions): ExpressMiddleware {
  // A parser that ran first left its raw body on `req` itself.
  const binding = expressBinding('createExpressMiddleware', (req) => req);
  return expressMiddlewareAround(createWebhookAdapter(handle, binding, options));
}
