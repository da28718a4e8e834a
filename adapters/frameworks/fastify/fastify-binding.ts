import type {
  FastifyInstance,
  FastifyPluginCallback,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from 'fastify';
import {
  isThenable,
  type WebhookAdapter,
  type WebhookAdapterBinding,
  type WebhookResponse,
} from '../../../src/adapter-kit/index.js';
import { nodeRequestParts } from '../node/node-request-parts.js';
import { nodeHeaders } from '../node/write-node-response.js';

/**
 * The binding of Fastify, for both plugins (the endpoint's and the management API's): the raw node
 * request, read before Fastify parses anything (no parser has run), and the answer sent as a reply.
 *
 * @param name - the plugin's factory, for its argument errors.
 */
export function fastifyBinding(name: string): WebhookAdapterBinding<FastifyRequest, FastifyReply> {
  return { name, ...nodeRequestParts((request: FastifyRequest) => request.raw), write: sendReply };
}

/** Sends a core answer as a Fastify reply: the `write` of a binding on Fastify. */
export function sendReply(reply: FastifyReply, response: WebhookResponse, request: FastifyRequest): void {
  // The body goes out as the core's JSON text. Given a serializer, Fastify sends a string as that
  // serializer returns it, and neither adds a charset to the content type nor runs the app's
  // `preSerialization` hooks; the text needs no copy into a Buffer first.
  reply
    .code(response.status)
    .headers(nodeHeaders(response, request.raw))
    .serializer(AS_IS)
    .send(JSON.stringify(response.body));
}

const AS_IS = (text: string): string => text;

/**
 * The plugin around one adapter's `serve`: one route, `path` under the `register` prefix, for every
 * method, answered from its own `onRequest` hook, before Fastify parses anything, so that the app's
 * content-type parsers and `bodyLimit` never see its requests. `unmatched` answers a request the
 * adapter does not take; an answer that failed goes to Fastify's error handling.
 *
 * @param routeOptions - the route's other options, given the plugin's instance. Default: none.
 */
export function fastifyPluginAround(
  serve: WebhookAdapter<FastifyRequest, FastifyReply>,
  path: string,
  unmatched: (request: FastifyRequest, reply: FastifyReply) => PromiseLike<unknown> | undefined,
  routeOptions: (instance: FastifyInstance) => RouteShorthandOptions = () => ({}),
): FastifyPluginCallback {
  const onRequest: onRequestHookHandler = (request, reply) => {
    const served = serve(request, reply);
    const answered = served === null ? unmatched(request, reply) : served;
    if (isThenable(answered)) answered.then(undefined, (error: unknown) => reply.send(error));
  };
  return (instance, _pluginOptions, done) => {
    instance.all(path, { ...routeOptions(instance), onRequest }, NEVER_REACHED);
    done();
  };
}

// The route's onRequest hook answers every request, so that Fastify never parses its body.
const NEVER_REACHED: RouteHandlerMethod = (_request, reply) => reply.send();
