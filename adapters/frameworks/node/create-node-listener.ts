import type { IncomingMessage, ServerResponse } from 'node:http';
import { fn } from '../../../src/arguments/index.js';
import { FIXED_PROBLEMS, answer, createWebhookAdapter, type WebhookHandler } from '../../../src/adapter-kit/index.js';
import { listenerAround } from './answer-write-failure.js';
import { nodeRequestParts, type NodeAdapterOptions } from './node-request-parts.js';
import { writeNodeResponse } from './write-node-response.js';

/**
 * Options of {@link createNodeListener}.
 *
 * @example
 * ```ts
 * const options: NodeListenerOptions = { fallback: (req, res) => app(req, res), bodyTimeoutMs: 5_000 };
 * ```
 */
export interface NodeListenerOptions extends NodeAdapterOptions {
  /** Answers requests whose path is not a webhook URL, e.g. the rest of the app. Default: a 404 problem. */
  fallback?: (req: IncomingMessage, res: ServerResponse) => void;
  /**
   * Called when an answer could not be written (the client then gets a 500 problem, or a cut
   * connection once the head is out). Default: one line on `console.error`, at most one every 10 s.
   */
  onError?: (error: unknown) => void;
}

/**
 * A `node:http` request listener, as `http.createServer` and `https.createServer` take it.
 *
 * @example
 * ```ts
 * const listener: NodeListener = createNodeListener(handle);
 * ```
 */
export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

const NO_WEBHOOK_HERE: NonNullable<NodeListenerOptions['fallback']> = (_req, res) =>
  writeNodeResponse(res, answer(FIXED_PROBLEMS.noWebhookHere));

/**
 * Creates a request listener for a plain `node:http` (or `https`) server, for apps with no
 * framework: webhook posts go to the handler (see `createWebhookAdapter` for what every adapter
 * does, and `nodeRequestParts` for Node), every other request to `options.fallback`, or gets a 404
 * problem. The answer is written with one `writeHead` and one `end`.
 *
 * @param handle - the core handler, from `createWebhookHandler`.
 * @param options - see {@link NodeListenerOptions}.
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
  const serve = createWebhookAdapter(
    handle,
    {
      name: 'createNodeListener',
      options: { fallback: fn('a function (req, res) => void'), onError: fn('a function (error) => void') },
      ...nodeRequestParts((req: IncomingMessage) => req),
      write: writeNodeResponse,
    },
    options,
  );
  return listenerAround(serve, 'createNodeListener', options, NO_WEBHOOK_HERE);
}
