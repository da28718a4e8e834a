import type { IncomingMessage } from 'node:http';
import type { HeaderValue } from '../../../src/adapter-kit/index.js';

/**
 * Every header of a Node request, with a repeated `Idempotency-Key` kept as its separate values.
 * Node joins the lines of a repeated header into one string (`"evt-1, evt-2"`), which the core
 * would take as one key; as a list, the core refuses it (400, see docs/design.md). Only a value
 * holding a comma can be a join, so other requests pass their headers as they are.
 */
export function nodeRequestHeaders(req: IncomingMessage): Readonly<Record<string, HeaderValue>> {
  const key = req.headers['idempotency-key'];
  if (key === undefined || !key.includes(',')) return req.headers;
  const lines = req.headersDistinct['idempotency-key'];
  return lines !== undefined && lines.length > 1 ? { ...req.headers, 'idempotency-key': lines } : req.headers;
}

/** Header names to pick from raw lines, and the range of their lengths: a line of another length is passed over. */
export interface HeaderLookup {
  readonly names: readonly string[];
  readonly wanted: ReadonlySet<string>;
  readonly shortest: number;
  readonly longest: number;
}

export function headerLookup(names: readonly string[]): HeaderLookup {
  const lengths = names.map((name) => name.length);
  return { names, wanted: new Set(names), shortest: Math.min(...lengths), longest: Math.max(...lengths) };
}

/**
 * The headers of `lookup`, straight from the request's raw header lines: Node builds `req.headers`
 * only when something asks for it, and a post that no other middleware inspects is spared building
 * it. Duplicates fold as Node folds them, except `Idempotency-Key` (see {@link nodeRequestHeaders}):
 * the first line counts, and `Transfer-Encoding` lines are joined.
 */
export function nodeCoreHeaders(
  req: IncomingMessage,
  { wanted, shortest, longest }: HeaderLookup,
): Readonly<Record<string, HeaderValue>> {
  const raw = req.rawHeaders;
  const headers: Record<string, HeaderValue> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length < shortest || name.length > longest) continue;
    const lower = name.toLowerCase();
    if (!wanted.has(lower)) continue;
    const value = raw[i + 1]!;
    const earlier = headers[lower];
    if (earlier === undefined) headers[lower] = value;
    else if (lower === 'idempotency-key')
      headers[lower] = typeof earlier === 'string' ? [earlier, value] : [...earlier, value];
    else if (lower === 'transfer-encoding') headers[lower] = `${earlier}, ${value}`;
  }
  return headers;
}
