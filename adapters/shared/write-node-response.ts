import type { ServerResponse } from 'node:http';
import type { WebhookResponse } from '../../src/http-types.js';

/**
 * Writes a core answer to a Node response. A 413 may leave request bytes unread, so it asks Node to
 * close the connection once the answer is out, rather than keep reading a body nobody wants.
 *
 * @param res - the Node response; nothing may have been written to it yet.
 * @param response - the core's answer.
 * @example
 * ```ts
 * writeNodeResponse(res, await handle(request));
 * ```
 */
export function writeNodeResponse(res: ServerResponse, response: WebhookResponse): void {
  const payload = Buffer.from(JSON.stringify(response.body));
  res.statusCode = response.status;
  for (const [name, value] of Object.entries(nodeHeaders(response))) res.setHeader(name, value);
  res.setHeader('content-length', payload.length);
  res.end(payload);
}

/**
 * The headers of a core answer as they go on the wire: a JSON content type when the core named
 * none, and `connection: close` on a 413.
 *
 * @param response - the core's answer.
 * @example
 * ```ts
 * ctx.set(nodeHeaders(response));
 * ```
 */
export function nodeHeaders(response: WebhookResponse): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...response.headers };
  if (response.status === 413) headers.connection = 'close';
  return headers;
}
