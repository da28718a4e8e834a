import type { IncomingMessage } from 'node:http';
import { ChannelWebhookError, type RawBody } from '../../../src/internal.js';

/** What a body parser that ran before the adapter may have left on the request. */
export interface ParserLeftovers {
  /** The parsed body (`req.body`, `ctx.request.body`): a Buffer or string is the raw body itself. */
  body?: unknown;
  /** The raw text or bytes a parser kept beside its parsed result (`ctx.request.rawBody`, `req.rawBody`). */
  rawBody?: unknown;
}

/**
 * Reads a Node request body for the handler, the one body reader of the Node adapters.
 *
 * - A body that has wholly arrived already (a small post comes in the packet of its headers) is
 *   taken at once from the stream's buffer: no listener, no timer and no promise.
 * - Otherwise the stream is counted as it arrives and reading stops at `maxBytes + 1` bytes, which
 *   are returned so the handler answers 413; nothing beyond them is ever held.
 * - A client that goes away mid-body is a rejection with code `body_read_failed`.
 * - A body still incomplete `bodyTimeoutMs` after reading started is a rejection with code
 *   `body_read_timeout`: the rest is left to Node to discard while the answer goes out (which then
 *   closes the connection), so a client trickling bytes holds the request no longer than that,
 *   whatever the server's own `requestTimeout`.
 * - Every listener added here is removed, and the deadline's timer cleared, on every path.
 * - When a body parser consumed the stream first, the raw body it left is used; a parsed object
 *   without one is a rejection with code `misconfigured`, never a wait on a stream that will not
 *   end.
 *
 * @param req - the Node request.
 * @param leftovers - what a body parser may have left, read only when the stream was consumed.
 * @param bodyTimeoutMs - the deadline for the whole body, already checked by the adapter factory.
 * @param maxBytes - the most the handler takes.
 * @example
 * ```ts
 * const response = await handle({ method, url, headers, body: (maxBytes) => readNodeBody(req, { body: req.body }, 10_000, maxBytes) });
 * ```
 */
export function readNodeBody(req: IncomingMessage, leftovers: ParserLeftovers, bodyTimeoutMs: number, maxBytes: number): RawBody | Promise<RawBody> {
  // A destroyed stream also looks drained: without a parser's leftovers, it is the client that left
  // (during a slow lookup, say), not a parser mounted first.
  const leftNothing = leftovers.body === undefined && leftovers.rawBody === undefined;
  if (!(req.destroyed && leftNothing) && isConsumed(req)) return fromLeftovers(leftovers);
  if (req.destroyed) throw new ChannelWebhookError('body_read_failed', 'the client closed the connection before sending the body');
  if (req.complete && req.readableFlowing !== true) return readBuffered(req, maxBytes);
  return readStream(req, maxBytes, bodyTimeoutMs);
}

// The parser has seen the whole message, and all of it waits in the stream's buffer: `read()` hands
// it over in one piece.
function readBuffered(req: IncomingMessage, maxBytes: number): Uint8Array {
  const bytes = (req.read() as Buffer | null) ?? EMPTY;
  return bytes.length > maxBytes + 1 ? bytes.subarray(0, maxBytes + 1) : bytes;
}

const EMPTY = Buffer.alloc(0);

function isConsumed(req: IncomingMessage): boolean {
  // `_body` is body-parser 1.x's own mark; `complete && !readable` is how body-parser 2.x and
  // on-finished tell a drained request.
  return req.readableEnded || (req as { _body?: unknown })._body === true || (req.complete && !req.readable);
}

function fromLeftovers({ body, rawBody }: ParserLeftovers): RawBody {
  for (const candidate of [rawBody, body]) {
    if (typeof candidate === 'string' || candidate instanceof Uint8Array) return candidate;
  }
  throw new ChannelWebhookError(
    'misconfigured',
    'a body parser read the request body before the webhook middleware and left no raw body; ' +
      'mount the webhook middleware before any body parser, or parse webhook routes with ' +
      "express.raw({ type: 'application/json' })",
  );
}

function readStream(req: IncomingMessage, maxBytes: number, bodyTimeoutMs: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;

    const finish = (error: ChannelWebhookError | null) => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onFailure);
      req.off('close', onFailure);
      if (error !== null) return reject(error);
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received));
    };
    const onData = (chunk: Buffer) => {
      const room = maxBytes + 1 - received;
      const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
      chunks.push(kept);
      received += kept.length;
      if (received > maxBytes) {
        // Enough to know the answer is 413. The rest is left to Node, which discards it while the
        // answer goes out and then closes the connection, instead of resetting it before the answer.
        finish(null);
        req.resume();
      }
    };
    const onEnd = () => finish(null);
    const onFailure = () => finish(new ChannelWebhookError('body_read_failed', 'the client closed the connection before the body ended'));
    const onTimeout = () => {
      finish(new ChannelWebhookError('body_read_timeout', `the request body did not arrive within ${bodyTimeoutMs} ms`));
      // As for a 413, the rest is left flowing for Node to discard until the answer is out and the
      // connection closes: destroying the request would drop the answer with it.
      req.resume();
    };

    // Unreferenced: a pending body must not keep the process from exiting.
    const timer = setTimeout(onTimeout, bodyTimeoutMs).unref();
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onFailure);
    req.on('close', onFailure);
  });
}
