import type { IncomingMessage } from 'node:http';

// Fastify 5 answers a missing-or-malformed Content-Type with its own 415 before any parser runs,
// which would pre-empt the contract's order (a wrong secret is 404 before any media-type check).
// Hidden between the last preParsing hook and the parser, Fastify sees a body without a type and
// hands it to the plugin's catch-all parser, which puts the header back. A post with no body at all
// skips parsers: the route's handler puts it back then, so only the app's own preValidation and
// preHandler hooks of such a post see no Content-Type.
const hidden = new WeakMap<IncomingMessage, string>();

/**
 * Takes the Content-Type header off a webhook request until {@link restoreContentType}.
 *
 * @param req - the Node request of a webhook route.
 * @example
 * ```ts
 * instance.addHook('preParsing', (request, _reply, payload, next) => {
 *   hideContentType(request.raw);
 *   next(null, payload);
 * });
 * ```
 */
export function hideContentType(req: IncomingMessage): void {
  const type = req.headers['content-type'];
  if (type === undefined) return;
  hidden.set(req, type);
  delete req.headers['content-type'];
}

/**
 * Puts back the Content-Type header {@link hideContentType} took off; does nothing otherwise.
 *
 * @param req - the Node request of a webhook route.
 * @example
 * ```ts
 * instance.addContentTypeParser('*', (request, _payload, parsed) => {
 *   restoreContentType(request.raw);
 *   parsed(null);
 * });
 * ```
 */
export function restoreContentType(req: IncomingMessage): void {
  const type = hidden.get(req);
  if (type === undefined) return;
  hidden.delete(req);
  req.headers['content-type'] = type;
}
