import type { IncomingMessage, ServerResponse } from 'node:http';
import { createExpressMiddleware } from '../express/create-express-middleware.js';
import type { NodeAdapterOptions } from '../shared/node-adapter-options.js';
import { writeNodeResponse } from '../shared/write-node-response.js';
import { ChannelWebhookError, problemResponse, type WebhookHandler } from '../../src/internal.js';

/**
 * Options of {@link createNodeListener}.
 *
 * @example
 * ```ts
 * const options: NodeListenerOptions = { fallback: (req, res) => app(req, res), bodyTimeoutMs: 5_000 };
 * ```
 */
export interface NodeListenerOptions extends NodeAdapterOptions {
  /**
   * Answers requests whose path is not a webhook URL, e.g. the rest of the app. Default: a 404
   * problem.
   */
  fallback?: (req: IncomingMessage, res: ServerResponse) => void;
}

/** A `node:http` request listener, as `http.createServer` and `https.createServer` take it. */
export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Creates a request listener for a plain `node:http` (or `https`) server, for apps with no
 * framework: requests whose path ends in `/hooks/channels/{webhook_id}/{secret}` (any prefix before
 * it) go to the core, every other request to `options.fallback`, or gets a 404 problem.
 *
 * It keeps every guarantee of the Express and Koa adapters, which share its code: the body is read
 * only once the method, URL, Content-Type and rate-limit checks passed, never more than 64 KiB + 1
 * byte, within `bodyTimeoutMs`; a repeated `Idempotency-Key` is answered 400; the answer is written
 * with one `writeHead` and one `end`, and without a promise when nothing had to wait.
 *
 * @param handle - the core handler, from `createWebhookHandler`.
 * @param options - see {@link NodeListenerOptions}. A handler or `fallback` that is not a function,
 *   or an invalid `bodyTimeoutMs`, throws a `ChannelWebhookError` with code `invalid_argument` here.
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { createMemoryStore, createWebhookHandler } from 'channel-webhooks';
 * import { createNodeListener } from 'channel-webhooks/node';
 *
 * const handle = createWebhookHandler({ store: createMemoryStore() });
 * const server = createServer({ requestTimeout: 15_000 }, createNodeListener(handle, { bodyTimeoutMs: 5_000 }));
 * server.listen(3000, '127.0.0.1');
 * ```
 */
export function createNodeListener(handle: WebhookHandler, options: NodeListenerOptions = {}): NodeListener {
  if (typeof options !== 'object' || options === null) {
    throw new ChannelWebhookError('invalid_argument', `createNodeListener: options must be an object, got ${String(options)}`);
  }
  const { fallback } = options;
  if (fallback !== undefined && typeof fallback !== 'function') {
    throw new ChannelWebhookError('invalid_argument', 'createNodeListener: fallback must be a function (req, res) => void');
  }
  const middleware = createExpressMiddleware(handle, options);
  return (req, res) => {
    middleware(req, res, (error?: unknown) => {
      if (error !== undefined) return failed(res, error);
      if (fallback !== undefined) return fallback(req, res);
      writeNodeResponse(res, problemResponse('not_found', 'No webhook answers at this URL.'));
    });
  };
}

// The answer could not be written: a 500 problem while the head is still unsent, else the
// connection is cut, so that the client never takes a half answer for a whole one.
function failed(res: ServerResponse, _error: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  writeNodeResponse(res, problemResponse('internal_error'));
}
