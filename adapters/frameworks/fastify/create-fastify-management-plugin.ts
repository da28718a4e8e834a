import type { FastifyPluginCallback, FastifyRequest, onRequestHookHandler, RouteHandlerMethod } from 'fastify';
import { createManagementAdapter, isThenable, type ManagementApi } from '../../../src/adapter-kit/index.js';
import { nodeRequestParts, type NodeAdapterOptions } from '../node/node-request-parts.js';
import { sendReply } from './create-fastify-plugin.js';

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
  const serve = createManagementAdapter(
    api,
    {
      name: 'createFastifyManagementPlugin',
      // No parser has run: the route answers before Fastify reads anything.
      ...nodeRequestParts((request: FastifyRequest) => request.raw),
      url: relativeUrl,
      write: sendReply,
    },
    options,
  );
  const onRequest: onRequestHookHandler = (request, reply) => {
    const served = serve(request, reply);
    if (served === null) return void reply.callNotFound();
    if (isThenable(served)) served.then(undefined, (error: unknown) => reply.send(error));
  };
  return (instance, _pluginOptions, done) => {
    instance.all('/*', { onRequest }, NEVER_REACHED);
    done();
  };
}

// The route's onRequest hook answers every request, so that Fastify never parses a management body.
const NEVER_REACHED: RouteHandlerMethod = (_request, reply) => reply.send();

// The URL after the `register` prefix: the route is `{prefix}/*`.
function relativeUrl(request: FastifyRequest): string {
  const route = (request.routeOptions?.url ?? (request as { routerPath?: string }).routerPath ?? '/*') as string;
  return (request.raw.url ?? '').slice(route.length - 2);
}
