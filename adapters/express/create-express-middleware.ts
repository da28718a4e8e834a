import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolveNodeAdapterOptions, type NodeAdapterOptions } from '../shared/node-adapter-options.js';
import { readNodeBody } from '../shared/read-node-body.js';
import { nodeCoreHeaders, nodeRequestHeaders } from '../shared/node-request-headers.js';
import { writeNodeResponse } from '../shared/write-node-response.js';
import { checkHandle, isThenable, matchWebhookPath, respondNowOf, type MaybePromise, type WebhookHandler, type WebhookResponse } from '../../src/internal.js';

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
 * to `next()`.
 *
 * Mount it before any body parser: it reads the body itself, only once the method, URL,
 * Content-Type and rate-limit checks passed, and never more than 64 KiB + 1 byte. If a parser runs
 * first, the raw Buffer or string it left (`express.raw({ type: 'application/json' })`,
 * `express.text()`) is used; an already-parsed object (`express.json()`) gets a 500 problem with
 * code `misconfigured` saying how to mount, never a hang.
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
  checkHandle(handle, 'createExpressMiddleware');
  const { bodyTimeoutMs } = resolveNodeAdapterOptions(options, 'createExpressMiddleware');
  const own = respondNowOf(handle);
  const respond = own ?? handle;
  // The core reads four headers; a handler wrapped by the app gets them all.
  const headersOf = own === undefined ? nodeRequestHeaders : nodeCoreHeaders;
  return (req, res, next) => {
    const path = matchWebhookPath(req.url ?? '');
    if (path === null) return next();
    let response: MaybePromise<WebhookResponse>;
    try {
      response = respond(
        {
          method: req.method ?? 'GET',
          url: req.originalUrl ?? req.url ?? '',
          headers: headersOf(req),
          // A parser that ran first left its raw body on `req` itself.
          body: (maxBytes) => readNodeBody(req, req, bodyTimeoutMs, maxBytes),
        },
        path,
      );
      if (!isThenable(response)) return writeNodeResponse(res, response);
    } catch (error) {
      return next(error);
    }
    response.then((answer) => writeNodeResponse(res, answer)).then(undefined, next);
  };
}
