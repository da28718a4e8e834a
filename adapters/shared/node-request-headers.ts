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
