import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebhookResponse } from '../../../src/adapter-kit/index.js';

/**
 * Writes a core answer to a Node response in one `writeHead` and one `end`: the answer's headers,
 * a JSON content type where it names none, `connection: close` when the request body was left
 * unread (a 413, a body past its deadline), and the length. Headers an earlier middleware set with
 * `setHeader` stay, unless the answer names them too. It is the `write` of a binding on `node:http`.
 *
 * @param res - the Node response; nothing may have been written to it yet.
 * @param response - the core's answer.
 * @example
 * ```ts
 * writeNodeResponse(res, await handle(request));
 * ```
 */
export function writeNodeResponse(res: ServerResponse, response: WebhookResponse): void {
  const payload = JSON.stringify(response.body);
  const { headers, status } = response;
  const list: Array<string | number> = [];
  if (headers['content-type'] === undefined) list.push('content-type', 'application/json');
  for (const name in headers) list.push(name, headers[name]!);
  if (closes(status, res.req)) list.push('connection', 'close');
  list.push('content-length', Buffer.byteLength(payload));
  res.writeHead(status, list as string[]);
  res.end(payload);
}

/**
 * The headers of a core answer as they go on the wire: a JSON content type when the core named
 * none, and `connection: close` on a 413 and on any answer given before the whole request body
 * arrived (a body read past its deadline, or one refused unread while it still streams). Such an
 * answer leaves the rest of the body unwanted: Node discards it while the answer goes out, then
 * closes the connection, rather than keep receiving a body nobody reads for as long as the client
 * takes to send it.
 *
 * @param response - the core's answer.
 * @param req - the request it answers.
 */
export function nodeHeaders(response: WebhookResponse, req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...response.headers };
  if (closes(response.status, req)) headers.connection = 'close';
  return headers;
}

function closes(status: number, req: IncomingMessage): boolean {
  return status === 413 || !req.complete;
}
