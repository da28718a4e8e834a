import type { HeaderValue } from '../http/http-types.js';
import type { WebhookAdapterBinding } from './adapter-types.js';
import { readFetchBody } from './read-fetch-body.js';

/** The reading half of an adapter binding for a framework that hands over a Web `Request`. */
export type FetchRequestParts<Req> = Pick<
  WebhookAdapterBinding<Req, unknown, unknown>,
  'url' | 'method' | 'headers' | 'readBody'
>;

/**
 * How an adapter reads a Web `Request`, for `createWebhookAdapter`; `createFetchHandler` and the
 * management API's `fetch` are built on it. `Headers` joins a repeated header into one value, so a
 * repeated `Idempotency-Key` is one key.
 *
 * @param requestOf - the framework's Web `Request` (`(event) => event.req` on h3).
 * @example
 * ```ts
 * const serve = createWebhookAdapter(handle, { ...fetchRequestParts((event) => event.req), write: (_, answer) => toFetchResponse(answer) });
 * ```
 */
export function fetchRequestParts<Req>(requestOf: (req: Req) => Request): FetchRequestParts<Req> {
  return {
    url: (req) => requestOf(req).url,
    method: (req) => requestOf(req).method,
    headers: (req, names) =>
      names === null ? allHeaders(requestOf(req).headers) : namedHeaders(requestOf(req).headers, names),
    readBody: (req, limits) => readFetchBody(requestOf(req), limits),
  };
}

// Only the headers asked for: walking them all would make a runtime that builds `Headers` lazily
// (Hono's Node server) build the whole object.
function namedHeaders(headers: Headers, names: readonly string[]): Record<string, HeaderValue> {
  const named: Record<string, HeaderValue> = {};
  for (const name of names) named[name] = headers.get(name) ?? undefined;
  return named;
}

function allHeaders(headers: Headers): Record<string, string> {
  const all: Record<string, string> = {};
  headers.forEach((value, name) => {
    all[name] = value;
  });
  return all;
}
