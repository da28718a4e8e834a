import type { IncomingMessage, ServerResponse } from 'node:http';
import { createNodeAdapter, type NodeAdapterOptions } from './node-adapter.js';
import { writeNodeResponse } from './write-node-response.js';
import { FIXED_PROBLEMS, answer, createConsoleErrorLog, fn, isThenable, matchWebhookPath, systemClock, type WebhookHandler } from '../../../src/internal.js';

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
  /**
   * Called when an answer could not be written (the client then gets a 500 problem, or a cut
   * connection once the head is out). Default: one line on `console.error`, at most one every 10 s.
   */
  onError?: (error: unknown) => void;
}

/** A `node:http` request listener, as `http.createServer` and `https.createServer` take it. */
export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

/** The fallback when none is given. */
const NO_WEBHOOK_HERE: NonNullable<NodeListenerOptions['fallback']> = (_req, res) => writeNodeResponse(res, answer(FIXED_PROBLEMS.noWebhookHere));

/**
 * Creates a request listener for a plain `node:http` (or `https`) server, for apps with no
 * framework: requests whose path ends in `/hooks/channels/{webhook_id}/{secret}` (any prefix before
 * it) go to the core, every other request to `options.fallback`, or gets a 404 problem. The answer
 * is written with one `writeHead` and one `end`, and without a promise when nothing had to wait.
 *
 * It is the base of the Express, Koa and Fastify adapters (`createNodeAdapter` in
 * adapters/frameworks/node/node-adapter.ts says what they all guarantee).
 *
 * @param handle - the core handler, from `createWebhookHandler`.
 * @param options - see {@link NodeListenerOptions}. A handler, `fallback` or `onError` that is not a
 *   function, or an invalid `bodyTimeoutMs`, throws a `ChannelWebhookError` with code
 *   `invalid_argument` here.
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
  const respond = createNodeAdapter(handle, options, 'createNodeListener', {
    fallback: fn('a function (req, res) => void'),
    onError: fn('a function (error) => void'),
  });
  const { fallback = NO_WEBHOOK_HERE } = options;
  const log = createConsoleErrorLog(systemClock, 'createNodeListener');
  const onError = options.onError ?? ((error: unknown) => log(error, { stage: 'write' }));

  // The answer could not be written: a 500 problem while the head is still unsent, else the
  // connection is cut, so that the client never takes a half answer for a whole one.
  const failed = (res: ServerResponse, error: unknown): void => {
    try {
      onError(error);
    } catch {
      // A failing error hook must not keep the client waiting.
    }
    if (res.headersSent) res.destroy();
    else writeNodeResponse(res, answer(FIXED_PROBLEMS.internalError));
  };

  return (req, res) => {
    const url = req.url ?? '';
    const path = matchWebhookPath(url);
    if (path === null) return fallback(req, res);
    try {
      const response = respond(req, url, path, {});
      if (!isThenable(response)) return writeNodeResponse(res, response);
      response.then((settled) => writeNodeResponse(res, settled)).then(undefined, (error: unknown) => failed(res, error));
    } catch (error) {
      failed(res, error);
    }
  };
}
