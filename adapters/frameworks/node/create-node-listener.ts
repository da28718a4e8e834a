import { createWebhookAdapter, type WebhookHandler } from '../../../src/adapter-kit/index.js';
import { listenerAround, type NodeListener, type NodeListenerOptions } from './listener-around.js';
import { nodeBinding } from './node-binding.js';

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
  const serve = createWebhookAdapter(handle, nodeBinding('createNodeListener'), options);
  return listenerAround(serve, 'createNodeListener', options);
}
