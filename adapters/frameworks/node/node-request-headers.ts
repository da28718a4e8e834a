import type { IncomingMessage } from 'node:http';
import { CORE_HEADERS, type HeaderValue } from '../../../src/internal.js';

/**
 * The headers of a Node request for the core, with a repeated `Idempotency-Key` kept as its separate
 * values. Node joins the lines of a repeated header into one string (`"evt-1, evt-2"`), which the core
 * would take as one key, so that a retry carrying `evt-1` alone would be stored again; as a list, the
 * core refuses it (400, see docs/design.md). Only a value holding a comma can be a join, so
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

// The core's headers by name, and the range of their lengths: a line of another length is passed
// over without lower-casing it.
const CORE = new Set<string>(CORE_HEADERS);
const SHORTEST = Math.min(...CORE_HEADERS.map((name) => name.length));
const LONGEST = Math.max(...CORE_HEADERS.map((name) => name.length));

/**
 * The headers the core reads ({@link CORE_HEADERS}), straight from the request's raw header lines:
 * Node builds `req.headers` only when something asks for it, and a post that no other middleware
 * inspects is spared building it. Duplicates are folded as Node folds them: the first line of a
 * header counts, but `Transfer-Encoding` lines are joined and a repeated `Idempotency-Key` stays a
 * list of its lines, as with {@link nodeRequestHeaders}.
 *
 * @param req - the Node request.
 * @example
 * ```ts
 * const response = await handle({ method: req.method, url: req.url, headers: nodeCoreHeaders(req), body });
 * ```
 */
export function nodeCoreHeaders(req: IncomingMessage): Readonly<Record<string, HeaderValue>> {
  const raw = req.rawHeaders;
  const headers: Record<string, HeaderValue> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length < SHORTEST || name.length > LONGEST) continue;
    const lower = name.toLowerCase();
    if (!CORE.has(lower)) continue;
    const value = raw[i + 1]!;
    const earlier = headers[lower];
    if (earlier === undefined) headers[lower] = value;
    else if (lower === 'idempotency-key') headers[lower] = typeof earlier === 'string' ? [earlier, value] : [...earlier, value];
    else if (lower === 'transfer-encoding') headers[lower] = `${earlier}, ${value}`;
  }
  return headers;
}
