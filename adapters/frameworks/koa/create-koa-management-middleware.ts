import { createManagementAdapter, type ManagementApi } from '../../../src/adapter-kit/index.js';
import type { NodeAdapterOptions } from '../node/node-request-parts.js';
import { koaBinding, koaMiddlewareAround, type KoaLikeContext, type KoaMiddleware } from './koa-binding.js';

/**
 * Creates a Koa (2 or 3) middleware that serves the management API (see `createManagementApi` for
 * its routes and rules) and passes every other request on to `next()`. Koa strips no mount path:
 * give the API its `basePath` (`'/api/manage'`), or mount it with koa-mount and leave `basePath`
 * `''`. `authenticate` gets the Koa `ctx` (`ctx.state`, `ctx.session`, `ctx.cookies`). Mount it
 * before `koa-bodyparser`, or after it: then its `ctx.request.rawBody` is used.
 *
 * @param api - the API, from `createManagementApi`.
 * @param options - `bodyTimeoutMs`: the deadline for the whole body in ms, default 10,000.
 * @example
 * ```ts
 * import Koa from 'koa';
 * import { createManagementApi } from 'channel-webhooks/manage';
 * import { createKoaManagementMiddleware } from 'channel-webhooks/koa';
 *
 * const api = createManagementApi({ manager, authenticate: (ctx) => ctx.state.actor ?? null, basePath: '/api/manage' });
 * app.use(createKoaManagementMiddleware(api));
 * ```
 */
export function createKoaManagementMiddleware(
  api: ManagementApi<KoaLikeContext>,
  options?: NodeAdapterOptions,
): KoaMiddleware {
  return koaMiddlewareAround(createManagementAdapter(api, koaBinding('createKoaManagementMiddleware'), options));
}
