import type { IncomingMessage } from 'node:http';
import type { WebhookAdapterBinding, WebhookAdapterOptions } from '../../../src/adapter-kit/index.js';
import { headerLookup, nodeCoreHeaders, nodeRequestHeaders, type HeaderLookup } from './node-request-headers.js';
import { readNodeBody, type ParserLeftovers } from './read-node-body.js';

/**
 * Options of the Node adapters (`createNodeListener`, `createExpressMiddleware`,
 * `createKoaMiddleware`, `createFastifyPlugin`).
 *
 * @example
 * ```ts
 * const options: NodeAdapterOptions = { bodyTimeoutMs: 5_000 };
 * app.use(createExpressMiddleware(handle, options));
 * ```
 */
export interface NodeAdapterOptions extends WebhookAdapterOptions {}

/** The reading half of an adapter binding: what every framework on `node:http` shares. */
export type NodeRequestParts<Req> = Pick<WebhookAdapterBinding<Req, unknown, unknown>, 'url' | 'method' | 'headers' | 'readBody'>;

/**
 * How an adapter on `node:http` reads a request, for `createWebhookAdapter`: the node:http
 * listener, Express, Koa and Fastify are built on it, and an adapter for another framework on Node
 * adds only how it writes an answer. Besides what every adapter does, on Node:
 *
 * - A repeated `Idempotency-Key` header reaches the core as its separate values, not joined by Node
 *   into one, and is answered 400 (`invalid_payload`, the error naming the header).
 * - A body parser mounted before the adapter does not make it hang: the raw Buffer or string it
 *   left (`express.raw({ type: 'application/json' })`, `express.text()`, `koa-bodyparser`'s
 *   `rawBody`) is used, and an already-parsed object without one is answered 500 with code
 *   `misconfigured`, saying how to mount.
 * - A small body that arrived with its headers is read without a timer or a promise.
 *
 * @param incomingOf - the framework's request's `IncomingMessage` (`(request) => request.raw.req` on hapi).
 * @param leftoversOf - where a body parser that ran first left its results (`req` on Express). Default: nowhere.
 * @example
 * ```ts
 * const serve = createWebhookAdapter(handle, { ...nodeRequestParts((req) => req, (req) => req), write: writeNodeResponse });
 * ```
 */
export function nodeRequestParts<Req>(
  incomingOf: (req: Req) => IncomingMessage,
  leftoversOf: (req: Req) => ParserLeftovers = () => NO_LEFTOVERS,
): NodeRequestParts<Req> {
  let lookup: HeaderLookup | undefined;
  const lookupOf = (names: readonly string[]): HeaderLookup => {
    if (lookup?.names !== names) lookup = headerLookup(names);
    return lookup;
  };
  return {
    url: (req) => incomingOf(req).url ?? '',
    method: (req) => incomingOf(req).method,
    headers: (req, names) => (names === null ? nodeRequestHeaders(incomingOf(req)) : nodeCoreHeaders(incomingOf(req), lookupOf(names))),
    readBody: (req, limits) => readNodeBody(incomingOf(req), leftoversOf(req), limits),
  };
}

const NO_LEFTOVERS: ParserLeftovers = Object.freeze({});
