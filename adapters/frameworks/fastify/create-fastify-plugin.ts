import type { FastifyInstance, FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import { BOOLEAN } from '../../../src/arguments/index.js';
import { createWebhookAdapter, type WebhookHandler } from '../../../src/adapter-kit/index.js';
import type { NodeAdapterOptions } from '../node/node-request-parts.js';
import { fastifyBinding, fastifyPluginAround, sendReply } from './fastify-binding.js';
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
 * the app (see `createWebhookAdapter` for what every adapter does, and `nodeRequestParts` for Node).
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
 *   `redactLogs`: redact the secret in the routes' request logs, default `true`.
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
  const binding = { ...fastifyBinding('createFastifyPlugin'), options: { redactLogs: BOOLEAN } };
  const serve = createWebhookAdapter(handle, binding, options);
  // A router set to ignore case can route here a URL that is no webhook URL to the kit: the
  // handler answers it as it answers any such URL (405, or 404).
  const answerUnmatched = (request: FastifyRequest, reply: FastifyReply) =>
    handle({ method: request.raw.method ?? 'GET', url: request.raw.url ?? '', headers: {} }).then((response) =>
      sendReply(reply, response, request),
    );
  const redactLogs = options?.redactLogs ?? true;
  const routeOptions = (instance: FastifyInstance) =>
    redactLogs ? { logSerializers: { req: createRedactingRequestSerializer(instance.log) } } : {};
  return fastifyPluginAround(serve, '/hooks/channels/:webhookId/:secret', answerUnmatched, routeOptions);
}
