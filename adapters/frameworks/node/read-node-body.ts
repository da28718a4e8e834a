import type { IncomingMessage } from 'node:http';
import {
  bodyCutShort,
  bodyTimedOut,
  ChannelWebhookError,
  type BodyLimits,
  type RawBody,
} from '../../../src/adapter-kit/index.js';

/**
 * What a body parser that ran before the adapter may have left on the request.
 *
 * @example
 * ```ts
 * const leftovers: ParserLeftovers = { body: ctx.request.body, rawBody: ctx.request.rawBody };
 * ```
 */
export interface ParserLeftovers {
  /** The parsed body (`req.body`, `ctx.request.body`): a Buffer or string is the raw body itself. */
  body?: unknown;
  /** The raw text or bytes a parser kept beside its parsed result (`ctx.request.rawBody`, `req.rawBody`). */
  rawBody?: unknown;
}

/**
 * Reads a Node request body, the one body reader of the Node adapters, keeping the rule of
 * `BodyReader`. A body that has wholly arrived (a small post comes in the packet of its headers) is
 * taken at once from the stream's buffer, with no listener, timer or promise; otherwise the stream
 * is counted as it arrives. Past the cap or the deadline the rest is left to Node, which discards it
 * while the answer goes out and then closes the connection. When a body parser consumed the stream
 * first, the raw body it left is used.
 */
export function readNodeBody(
  req: IncomingMessage,
  leftovers: ParserLeftovers,
  { maxBytes, timeoutMs }: BodyLimits,
): RawBody | Promise<RawBody> {
  // A destroyed stream also looks drained: without a parser's leftovers, it is the client that left
  // (during a slow lookup, say), not a parser mounted first.
  const leftNothing = leftovers.body === undefined && leftovers.rawBody === undefined;
  if (!(req.destroyed && leftNothing) && isConsumed(req)) return fromLeftovers(leftovers);
  if (req.destroyed) throw bodyCutShort('the client closed the connection before sending the body');
  if (req.complete && req.readableFlowing !== true) return readBuffered(req, maxBytes);
  return readStream(req, maxBytes, timeoutMs);
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

function readStream(req: IncomingMessage, maxBytes: number, timeoutMs: number): Promise<Uint8Array> {
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
    const onFailure = () => finish(bodyCutShort('the client closed the connection before the body ended'));
    const onTimeout = () => {
      finish(bodyTimedOut(timeoutMs));
      // As for a 413, the rest is left flowing for Node to discard until the answer is out and the
      // connection closes: destroying the request would drop the answer with it.
      req.resume();
    };

    // Unreferenced: a pending body must not keep the process from exiting.
    const timer = setTimeout(onTimeout, timeoutMs).unref();
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onFailure);
    req.on('close', onFailure);
  });
}
