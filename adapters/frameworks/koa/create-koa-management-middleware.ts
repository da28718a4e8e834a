import { createManagementAdapter, isThenable, type ManagementApi } from '../../../src/adapter-kit/index.js';
import { nodeRequestParts, type NodeAdapterOptions } from '../node/node-request-parts.js';
import { writeKoaResponse, type KoaLikeContext, type KoaMiddleware } from './create-koa-middleware.js';

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
  const serve = createManagementAdapter(
    api,
    {
      name: 'createKoaManagementMiddleware',
      ...nodeRequestParts(
        (ctx: KoaLikeContext) => ctx.req,
        (ctx) => ctx.request,
      ),
      url: (ctx) => ctx.req.url ?? '',
      write: writeKoaResponse,
    },
    options,
  );
  return async (ctx, next) => {
    const answered = serve(ctx, ctx);
    if (answered === null) return void (await next());
    if (isThenable(answered)) await answered;
  };
}
