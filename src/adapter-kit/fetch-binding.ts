import type { WebhookResponse } from '../http/http-types.js';
import type { WebhookAdapterBinding } from './adapter-types.js';
import { fetchRequestParts } from './fetch-request-parts.js';

/**
 * A core answer as a Web `Response`: its status, its headers (a JSON content type where they name
 * none) and its body as JSON text: the `write` of a binding on Web standards, the Fetch adapter's
 * and the management API's `fetch`'s.
 *
 * @param response - the core's answer.
 * @example
 * ```ts
 * const serve = createWebhookAdapter(handle, { ...fetchRequestParts((event) => event.req), write: (_, answer) => toFetchResponse(answer) });
 * ```
 */
export function toFetchResponse(response: WebhookResponse): Response {
  const { headers } = response;
  return new Response(JSON.stringify(response.body), {
    status: response.status,
    // The answer's headers are its own: used as they are when they name the content type.
    headers: headers['content-type'] === undefined ? { 'content-type': 'application/json', ...headers } : headers,
  });
}

/**
 * The binding of Web standards, for the Fetch adapter and the management API's `fetch`: a
 * `Request` read as {@link fetchRequestParts} reads it, answered with a `Response`. A function, not
 * a constant: a call at the top of a module would keep it in every bundle that imports the kit.
 */
export function fetchBinding(): WebhookAdapterBinding<Request, undefined, Response> {
  return { ...fetchRequestParts((request: Request) => request), write: (_, response) => toFetchResponse(response) };
}
