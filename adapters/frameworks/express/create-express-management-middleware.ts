import { createManagementAdapter, type ManagementApi } from '../../../src/adapter-kit/index.js';
import type { NodeAdapterOptions } from '../node/node-request-parts.js';
import type { ParserLeftovers } from '../node/read-node-body.js';
import {
  expressBinding,
  expressMiddlewareAround,
  type ExpressLikeRequest,
  type ExpressMiddleware,
} from './express-binding.js';

/**
 * Creates an Express (4 or 5) middleware that serves the management API (see `createManagementApi`
 * for its routes and rules) under the path it is mounted at, and passes every other request on to
 * `next()`. `authenticate` gets Express's `req`, with whatever the app's session or passport put
 * on it. It works before or after `express.json()`: a JSON body that parser already read is taken
 * from `req.body`.
 *
 * @param api - the API, from `createManagementApi` (its `basePath` `''` when Express strips the mount path).
 * @param options - `bodyTimeoutMs`: the deadline for the whole body in ms, default 10,000.
 * @example
 * ```ts
 * import express from 'express';
 * import { createManagementApi } from 'channel-webhooks/manage';
 * import { createExpressManagementMiddleware } from 'channel-webhooks/express';
 *
 * const api = createManagementApi({ manager, authenticate: (req) => req.session?.actor ?? null });
 * app.use('/api/manage', createExpressManagementMiddleware(api));
 * ```
 */
export function createExpressManagementMiddleware(
  api: ManagementApi<ExpressLikeRequest>,
  options?: NodeAdapterOptions,
): ExpressMiddleware {
  const binding = expressBinding('createExpressManagementMiddleware', parsedLeftovers);
  return expressMiddlewareAround(createManagementAdapter(api, binding, options));
}

// The management API takes JSON values, not bytes: an object `express.json()` parsed is its JSON text.
function parsedLeftovers(req: ExpressLikeRequest): ParserLeftovers {
  const { body, rawBody } = req;
  const parsed = typeof body === 'object' && body !== null && !(body instanceof Uint8Array);
  return { rawBody, body: parsed ? JSON.stringify(body) : body };
}
