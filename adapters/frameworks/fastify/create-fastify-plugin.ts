import type { IncomingMessage } from 'node:http';
import type { FastifyPluginCallback, FastifyReply, onRequestHookHandler, RouteHandlerMethod } from 'fastify';
import { createNodeAdapter, type NodeAdapterOptions } from '../node/node-adapter.js';
import { nodeHeaders } from '../node/write-node-response.js';
import { BOOLEAN, isThenable, matchWebhookPath, type WebhookHandler, type WebhookResponse } from '../../../src/internal.js';
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
 * the app. What it guarantees is said once for every Node adapter, at `createNodeAdapter`
 * (adapters/frameworks/node/node-adapter.ts).
 *
 * The route answers from its own `onRequest` hook, before Fastify parses anything: Fastify's
 * content-type parsers, its `bodyLimit` and its 415 never see a webhook post, so a wrong secret is
 * 404 whatever the body, and the app's own parsers and routes are untouched. The app's `onRequest`,
 * `onSend` and `onResponse` hooks see webhook posts; its `preParsing`, `preValidation` and
 * `preHandler` hooks do not run on them. Fastify's request logs of these routes show the URL with
 * the secret redacted, unless `redactLogs` is `false`.
 *
 * @param handle - the core handler, from `createWebhookHandler`.
 * @param options - `bodyTimeoutMs`: the deadline for the whole body in ms, default 10,000;
 *   `redactLogs`: redact the secret in the routes' request logs, default `true`. A handler that is
 *   not a function or an invalid option throws a `ChannelWebhookError` with code
 *   `invalid_argument` here, not on a post.
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * import { createMemoryStore, createWebhookHandler } from 'channel-webhooks';
 * import { createFastifyPlugin, createRedactingLogMethod } from 'channel-webhooks/fastify';
 *
 * const handle = createWebhookHandler({ store: createMemoryStore() });
 * // The hook also redacts the 404s Fastify answers itself for near-miss webhook URLs.
 * const app = Fastify({ logger: { hooks: { logMethod: createRedactingLogMethod() } } });
 * app.register(createFastifyPlugin(handle, { bodyTimeoutMs: 5_000 }), { prefix: '/api' });
 * // POST /api/hooks/channels/{webhook_id}/{secret}; logged as …/{webhook_id}/[redacted]
 * ```
 */
export function createFastifyPlugin(handle: WebhookHandler, options?: FastifyAdapterOptions): FastifyPluginCallback {
  const respond = createNodeAdapter(handle, options, 'createFastifyPlugin', { redactLogs: BOOLEAN });
  const redactLogs = options?.redactLogs ?? true;
  const onRequest: onRequestHookHandler = (request, reply) => {
    const req = request.raw;
    const url = req.url ?? '';
    const response = respond(req, url, matchWebhookPath(url)!, NO_LEFTOVERS);
    if (!isThenable(response)) return send(reply, req, response);
    response.then(
      (settled) => send(reply, req, settled),
      (error: unknown) => reply.send(error),
    );
  };
  return (instance, _pluginOptions, done) => {
    const routeOptions = redactLogs ? { onRequest, logSerializers: { req: createRedactingRequestSerializer(instance.log) } } : { onRequest };
    instance.all('/hooks/channels/:webhookId/:secret', routeOptions, NEVER_REACHED);
    done();
  };
}

// The body is the core's to read: no parser has run, and nothing a body parser leaves.
const NO_LEFTOVERS = {};

// The route's onRequest hook answers every request, so that Fastify never parses a webhook body.
const NEVER_REACHED: RouteHandlerMethod = (_request, reply) => reply.send();

function send(reply: FastifyReply, req: IncomingMessage, response: WebhookResponse): void {
  // The body goes out as the core's JSON text. Given a serializer, Fastify sends a string as that
  // serializer returns it, and neither adds a charset to the content type nor runs the app's
  // `preSerialization` hooks; the text needs no copy into a Buffer first.
  reply.code(response.status).headers(nodeHeaders(response, req)).serializer(AS_IS).send(JSON.stringify(response.body));
}

const AS_IS = (text: string): string => text;
