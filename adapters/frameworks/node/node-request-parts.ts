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
export type NodeRequestParts<Req> = Pick<
  WebhookAdapterBinding<Req, unknown, unknown>,
  'url' | 'method' | 'headers' | 'readBody'
>;

/**
 * How an adapter on `node:http` reads a request, for `createWebhookAdapter`; the Node adapters are
 * built on it. A repeated `Idempotency-Key` stays a list (answered 400); a raw body a parser left is
 * used, and a parsed one without it is a 500 `misconfigured` saying how to mount; a body that came
 * with its headers is read without a timer or a promise.
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
    headers: (req, names) =>
      names === null ? nodeRequestHeaders(incomingOf(req)) : nodeCoreHeaders(incomingOf(req), lookupOf(names)),
    readBody: (req, limits) => readNodeBody(incomingOf(req), leftoversOf(req), limits),
  };
}

const NO_LEFTOVERS: ParserLeftovers = Object.freeze({});
