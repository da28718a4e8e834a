import type { IncomingMessage, ServerResponse } from 'node:http';
import { createNodeAdapter, type NodeAdapterOptions } from '../node/node-adapter.js';
import { writeNodeResponse } from '../node/write-node-response.js';
import { isThenable, matchWebhookPath, type WebhookHandler } from '../../../src/internal.js';

/**
 * The parts of an Express 4 or 5 request the middleware reads: a structural type, so that the
 * declarations need no Express types and Express stays an optional peer.
 *
 * @example
 * ```ts
 * const webhookRequest: ExpressLikeRequest = req; // an express.Request fits
 * ```
 */
export interface ExpressLikeRequest extends IncomingMessage {
  /** The URL before any mount prefix was stripped. */
  originalUrl?: string;
  /** What a body parser left: a Buffer (`express.raw`), a string (`express.text`) or a parsed object. */
  body?: unknown;
  /** A raw body kept by a parser's `verify` hook, when an app stores one there. */
  rawBody?: unknown;
}

/**
 * An Express middleware: `(req, res, next)`, accepted by `app.use` and routers of Express 4 and 5.
 *
 * @example
 * ```ts
 * const middleware: ExpressMiddleware = createExpressMiddleware(handle);
 * app.use(middleware);
 * ```
 */
export type ExpressMiddleware = (req: ExpressLikeRequest, res: ServerResponse, next: (error?: unknown) => void) => void;

/**
 * Creates an Express (4 or 5) middleware that answers webhook posts: every request whose path ends
 * in `/hooks/channels/{webhook_id}/{secret}`, under any mount prefix. Every other request goes on
 * to `next()`. Mount it before any body parser; what it guarantees is said once for every Node
 * adapter, at `createNodeAdapter` (adapters/frameworks/node/node-adapter.ts).
 *
 * @param handle - the core handler, from `createWebhookHandler`.
 * @param options - `bodyTimeoutMs`: the deadline for the whole body in ms, default 10,000. An
 *   invalid value throws a `ChannelWebhookError` with code `invalid_argument` here, not on a post.
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
  const respond = createNodeAdapter(handle, options, 'createExpressMiddleware');
  return (req, res, next) => {
    const path = matchWebhookPath(req.url ?? '');
    if (path === null) return next();
    try {
      // A parser that ran first left its raw body on `req` itself.
      const response = respond(req, req.originalUrl ?? req.url ?? '', path, req);
      if (!isThenable(response)) return writeNodeResponse(res, response);
      response.then((settled) => writeNodeResponse(res, settled)).then(undefined, next);
    } catch (error) {
      next(error);
    }
  };
}
