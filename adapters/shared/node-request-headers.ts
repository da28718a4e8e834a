import type { IncomingMessage } from 'node:http';
import type { HeaderValue } from '../../src/internal.js';

/**
 * The headers of a Node request for the core, with a repeated `Idempotency-Key` kept as its separate
 * values. Node joins the lines of a repeated header into one string (`"evt-1, evt-2"`), which the core
 * would take as one key, so that a retry carrying `evt-1` alone would be stored again; as a list, the
 * core refuses it (400, see the README's statuses). Only a value holding a comma can be a join, so
 * other requests pass their headers as they are.
 *
 * @param req - the Node request.
 * @example
 * ```ts
 * const response = await handle({ method: req.method, url: req.url, headers: nodeRequestHeaders(req), body });
 * ```
 */
export function nodeRequestHeaders(req: IncomingMessage): Readonly<Record<string, HeaderValue>> {
  const key = req.headers['idempotency-key'];
  if (key === undefined || !key.includes(',')) return req.headers;
  const lines = req.headersDistinct['idempotency-key'];
  return lines !== undefined && lines.length > 1 ? { ...req.headers, 'idempotency-key': lines } : req.headers;
}

/**
 * The four headers the core reads, straight from the request's raw header lines, for the Express
 * and Koa adapters: Node builds `req.headers` only when something asks for it, and a post that no
 * other middleware inspects is spared building it. Duplicates are folded as Node folds them: the
 * first `Content-Type` and `Content-Length` count, `Transfer-Encoding` lines are joined, and a
 * repeated `Idempotency-Key` stays a list of its lines, as with {@link nodeRequestHeaders}.
 *
 * @param req - the Node request.
 * @example
 * ```ts
 * const response = await handle({ method: req.method, url: req.url, headers: nodeCoreHeaders(req), body });
 * ```
 */
export function nodeCoreHeaders(req: IncomingMessage): Readonly<Record<string, HeaderValue>> {
  const raw = req.rawHeaders;
  let contentType: string | undefined;
  let contentLength: string | undefined;
  let transferEncoding: string | undefined;
  let key: string | string[] | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    // Lengths first: most lines are none of the four, and are passed over without lower-casing.
    switch (name.length) {
      case 12:
        if (contentType === undefined && name.toLowerCase() === 'content-type') contentType = raw[i + 1];
        break;
      case 14:
        if (contentLength === undefined && name.toLowerCase() === 'content-length') contentLength = raw[i + 1];
        break;
      case 15:
        if (name.toLowerCase() !== 'idempotency-key') break;
        key = key === undefined ? raw[i + 1] : typeof key === 'string' ? [key, raw[i + 1]!] : [...key, raw[i + 1]!];
        break;
      case 17:
        if (name.toLowerCase() === 'transfer-encoding') transferEncoding = transferEncoding === undefined ? raw[i + 1] : `${transferEncoding}, ${raw[i + 1]}`;
        break;
    }
  }
  return { 'content-type': contentType, 'content-length': contentLength, 'transfer-encoding': transferEncoding, 'idempotency-key': key };
}
