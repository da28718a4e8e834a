import type { IncomingMessage } from 'node:http';
import { createManagementAdapter, type ManagementApi } from '../../../src/adapter-kit/index.js';
import { listenerAround, type NodeListener, type NodeListenerOptions } from './listener-around.js';
import { nodeBinding } from './node-binding.js';

/**
 * Creates a request listener for a plain `node:http` (or `https`) server that serves the
 * management API (see `createManagementApi` for its routes and rules) under its `basePath`, and
 * hands every other request to `options.fallback` (default: a 404 problem). node:http strips
 * nothing: give the API the `basePath` it lives under. `authenticate` gets the `IncomingMessage`.
 *
 * @param api - the API, from `createManagementApi`.
 * @param options - `fallback`, `onError` (an answer that could not be written) and `bodyTimeoutMs`,
 *   as {@link createNodeListener} takes them.
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { createManagementApi } from 'channel-webhooks/manage';
 * import { createNodeListener, createNodeManagementListener } from 'channel-webhooks/node';
 *
 * const api = createManagementApi({ manager, authenticate: (req) => actorOf(req.headers.cookie), basePath: '/api/manage' });
 * createServer(createNodeManagementListener(api, { fallback: createNodeListener(handle) })).listen(3000);
 * ```
 */
export function createNodeManagementListener(
  api: ManagementApi<IncomingMessage>,
  options: NodeListenerOptions = {},
): NodeListener {
  const serve = createManagementAdapter(api, nodeBinding('createNodeManagementListener'), options);
  return listenerAround(serve, 'createNodeManagementListener', options);
}
