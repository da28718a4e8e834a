import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import { createManagementAdapter, type ManagementApi } from '../../../src/adapter-kit/index.js';
import type { NodeAdapterOptions } from '../node/node-request-parts.js';
import { fastifyBinding, fastifyPluginAround } from './fastify-binding.js';

/**
 * Creates a Fastify (4 or 5) plugin that serves the management API (see `createManagementApi` for
 * its routes and rules) under the `prefix` given to `register`; leave the API's `basePath` `''`.
 * Its routes answer from their own `onRequest` hook, before Fastify parses anything: the app's
 * content-type parsers and `bodyLimit` never see a management request, and its `onRequest`
 * hooks registered before the plugin (a session, a JWT check) have run. `authenticate` gets
 * Fastify's `request`.
 *
 * @param api - the API, from `createManagementApi`.
 * @param options - `bodyTimeoutMs`: the deadline for the whole body in ms, default 10,000.
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * import { createManagementApi } from 'channel-webhooks/manage';
 * import { createFastifyManagementPlugin } from 'channel-webhooks/fastify';
 *
 * const api = createManagementApi({ manager, authenticate: (request) => request.user ?? null });
 * app.register(createFastifyManagementPlugin(api), { prefix: '/api/manage' });
 * ```
 */
export function createFastifyManagementPlugin(
  api: ManagementApi<FastifyRequest>,
  options?: NodeAdapterOptions,
): FastifyPluginCallback {
  const binding = { ...fastifyBinding('createFastifyManagementPlugin'), url: relativeUrl };
  const serve = createManagementAdapter(api, binding, options);
  // `void`: the reply `callNotFound` returns is a thenable of its own.
  return fastifyPluginAround(serve, '/*', (_request, reply) => void reply.callNotFound());
}

// The URL after the `register` prefix: the route is `{prefix}/*`.
function relativeUrl(request: FastifyRequest): string {
  const route = (request.routeOptions?.url ?? (request as { routerPath?: string }).routerPath ?? '/*') as string;
  return (request.raw.url ?? '').slice(route.length - 2);
}
