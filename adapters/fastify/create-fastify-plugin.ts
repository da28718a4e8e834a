import type { FastifyPluginCallback } from 'fastify';
import { resolveNodeAdapterOptions, type NodeAdapterOptions } from '../shared/node-adapter-options.js';
import { createNodeBodyReader } from '../shared/read-node-body.js';
import { nodeCoreHeaders, nodeRequestHeaders } from '../shared/node-request-headers.js';
import { nodeHeaders } from '../shared/write-node-response.js';
import { ChannelWebhookError, isThenable, matchWebhookPath, respondNowOf, type WebhookHandler } from '../../src/internal.js';
import { hideContentType, restoreContentType } from './hide-content-type.js';
import { createRedactingRequestSerializer } from './redact-request-log.js';

/**
 * Options of {@link createFastifyPlugin}.
 *
 * @example
 * ```ts
 * const options: FastifyAdapterOptions = { bodyTimeoutMs: 5_000, redactLogs: true };
 * app.register(createFastifyPlugin(handle, options), { prefix: '/api' });
 * ```
 */
export interface FastifyAdapterOptions extends NodeAdapterOptions {
  /**
   * Whether Fastify's request logs of the webhook routes show the URL with the secret replaced by
   * `[redacted]` (through the logger's own `req` serializer, custom or default). Default `true`.
   */
  redactLogs?: boolean;
}

/**
 * Creates a Fastify (4 or 5) plugin that answers webhook posts at
 * `{prefix}/hooks/channels/{webhook_id}/{secret}`, `prefix` being the one given to `register`.
 * Every other method on that path is answered 405 with `Allow: POST`; every other path is left to
 * the app.
 *
 * The plugin keeps its content-type parsing to itself: inside its own encapsulation context it
 * replaces every parser with one that leaves the body unread, so Fastify's JSON parser, its
 * `bodyLimit` and its 415 never see a webhook post, and the app's own parsers and routes are
 * untouched (register it as is, not wrapped in `fastify-plugin`). The core then reads the body
 * itself, in the contract's order of checks: only after the method, URL, Content-Type and rate-limit
 * checks passed, refusing a `Content-Length` over 65,536 unread and never holding more than 65,537
 * bytes of a chunked one.
 *
 * A body that has not fully arrived `bodyTimeoutMs` after reading started is answered 400 with code
 * `body_read_failed`, and the connection is closed. Answers go out through `reply`, so the app's
 * `onSend` and `onResponse` hooks see them. Fastify's request logs of these routes show the URL
 * with the secret redacted, unless `redactLogs` is `false`.
 *
 * @param handle - the core handler, from `createWebhookHandler`.
 * @param options - `bodyTimeoutMs`: the deadline for the whole body in ms, default 10,000;
 *   `redactLogs`: redact the secret in the routes' request logs, default `true`. An invalid value
 *   throws a `ChannelWebhookError` with code `invalid_argument` here, not on a post.
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * import { createMemoryStore, createWebhookHandler } from 'channel-webhooks';
 * import { createFastifyPlugin } from 'channel-webhooks/fastify';
 *
 * const handle = createWebhookHandler({ store: createMemoryStore() });
 * const app = Fastify({ logger: true });
 * app.register(createFastifyPlugin(handle, { bodyTimeoutMs: 5_000 }), { prefix: '/api' });
 * // POST /api/hooks/channels/{webhook_id}/{secret}; logged as …/{webhook_id}/[redacted]
 * ```
 */
export function createFastifyPlugin(handle: WebhookHandler, options?: FastifyAdapterOptions): FastifyPluginCallback {
  const reading = resolveNodeAdapterOptions(options, 'createFastifyPlugin');
  const redactLogs = options?.redactLogs ?? true;
  if (typeof redactLogs !== 'boolean') {
    throw new ChannelWebhookError('invalid_argument', `createFastifyPlugin: redactLogs must be true or false, got ${String(redactLogs)}`);
  }
  const own = respondNowOf(handle);
  const respond = own ?? handle;
  // The core reads four headers; a handler wrapped by the app gets them all.
  const headersOf = own === undefined ? nodeRequestHeaders : nodeCoreHeaders;
  return (instance, _pluginOptions, done) => {
    // Encapsulated: these replace the parsers and hooks of this plugin's routes only, never the app's.
    instance.removeAllContentTypeParsers();
    instance.addContentTypeParser('*', (request, _payload, parsed) => {
      restoreContentType(request.raw);
      parsed(null);
    });
    instance.addHook('preParsing', (request, _reply, payload, next) => {
      hideContentType(request.raw);
      next(null, payload);
    });
    const routeOptions = redactLogs ? { logSerializers: { req: createRedactingRequestSerializer(instance.log) } } : {};
    instance.all('/hooks/channels/:webhookId/:secret', routeOptions, async (request, reply) => {
      const req = request.raw;
      restoreContentType(req);
      const url = req.url ?? '';
      const answer = respond(
        { method: req.method ?? 'GET', url, headers: headersOf(req), body: createNodeBodyReader(req, {}, reading) },
        matchWebhookPath(url),
      );
      const response = isThenable(answer) ? await answer : answer;
      // A Buffer goes out as it is: Fastify neither serializes it nor adds a charset.
      return reply
        .code(response.status)
        .headers(nodeHeaders(response, req))
        .send(Buffer.from(JSON.stringify(response.body)));
    });
    done();
  };
}
