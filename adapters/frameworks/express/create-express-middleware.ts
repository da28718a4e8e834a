import type { IncomingMessage, ServerResponse } from 'node:http';
import { createWebhookAdapter, isThenable, type WebhookHandler } from '../../../src/adapter-kit/index.js';
import { nodeRequestParts, type NodeAdapterOptions } from '../node/node-request-parts.js';
import { writeNodeResponse } from '../node/write-node-response.js';

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
  const serve = createWebhookAdapter(
    handle,
    {
      name: 'createExpressMiddleware',
      // A parser that ran first left its raw body on `req` itself.
      ...nodeRequestParts(
        (req: ExpressLikeRequest) => req,
        (req) => req,
      ),
      originalUrl: (req) => req.originalUrl ?? req.url ?? '',
      write: writeNodeResponse,
    },
    options,
  );
  return (req, res, next) => {
    let answered: ReturnType<typeof serve>;
    try {
      answered = serve(req, res);
    } catch (error) {
      return next(error);
    }
    if (answered === null) return next();
    if (isThenable(answered)) answered.then(undefined, next);
  };
}
