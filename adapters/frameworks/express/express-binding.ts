import type { IncomingMessage, ServerResponse } from 'node:http';
import { isThenable, type WebhookAdapter, type WebhookAdapterBinding } from '../../../src/adapter-kit/index.js';
import { nodeRequestParts } from '../node/node-request-parts.js';
import type { ParserLeftovers } from '../node/read-node-body.js';
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
 * The binding of Express, for both middlewares (the endpoint's and the management API's): Express's
 * `req` and `res` are node's, read after any mount prefix Express stripped, and answered in one
 * `writeHead` and one `end`.
 *
 * @param name - the middleware's factory, for its argument errors.
 * @param leftoversOf - what a body parser that ran first left, as the middleware takes it.
 */
export function expressBinding(
  name: string,
  leftoversOf: (req: ExpressLikeRequest) => ParserLeftovers,
): WebhookAdapterBinding<ExpressLikeRequest, ServerResponse> {
  return {
    name,
    ...nodeRequestParts((req: ExpressLikeRequest) => req, leftoversOf),
    originalUrl: (req) => req.originalUrl ?? req.url ?? '',
    write: writeNodeResponse,
  };
}

/**
 * The Express middleware around one adapter's `serve`: its answer, `next()` for a request it does
 * not take, `next(error)` for one it could not answer.
 */
export function expressMiddlewareAround<T>(
  serve: WebhookAdapter<ExpressLikeRequest, ServerResponse, T>,
): ExpressMiddleware {
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
