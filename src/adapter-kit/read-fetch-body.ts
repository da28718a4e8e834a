import { ChannelWebhookError } from '../errors.js';
import { settleWithin } from '../waiting/deadline.js';
import type { BodyLimits } from './adapter-types.js';
import { bodyCutShort, bodyTimedOut } from './body-errors.js';

/**
 * Reads a Web `Request`'s body, keeping the rule of `BodyReader`: the one reader of the Fetch adapter
 * and of the management API's `fetch`. With a trusted `Content-Length`
 * the body is read in one `arrayBuffer()` call, several times faster on Node than pulling the
 * stream; without one, the stream is counted as it arrives and cancelled once it passes the cap.
 * Past the deadline the stream is cancelled too. The timer belongs to this one read and is cleared
 * when it settles, so it works in runtimes that drop a request's timers once it is answered
 * (Cloudflare Workers).
 */
export function readFetchBody(
  request: Request,
  { maxBytes, declaredLength, timeoutMs }: BodyLimits,
): Uint8Array | null | Promise<Uint8Array | null> {
  if (request.bodyUsed) {
    throw new ChannelWebhookError(
      'misconfigured',
      'the request body was read before the webhook handler; pass it the untouched request',
    );
  }
  if (declaredLength !== null) {
    if (declaredLength > maxBytes) {
      throw new ChannelWebhookError('payload_too_large', `the request body is larger than ${maxBytes} bytes`);
    }
    return bytesWithin(request.arrayBuffer(), timeoutMs);
  }
  if (request.body === null) return null;
  return countedWithin(request.body, maxBytes, timeoutMs);
}

function readFailed(cause: unknown): ChannelWebhookError {
  return bodyCutShort('the request body could not be read to its end', cause);
}

function bytesWithin(reading: Promise<ArrayBuffer>, timeoutMs: number): Promise<Uint8Array> {
  const bytes = reading.then(
    (buffer) => new Uint8Array(buffer),
    (cause: unknown) => {
      throw readFailed(cause);
    },
  );
  return settleWithin(bytes, timeoutMs, () => bodyTimedOut(timeoutMs));
}

function countedWithin(stream: ReadableStream<Uint8Array>, maxBytes: number, timeoutMs: number): Promise<Uint8Array> {
  const reading: Reading = { reader: undefined };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(bodyTimedOut(timeoutMs));
      // Stop pulling a body nobody waits for any more.
      reading.reader?.cancel().catch(() => undefined);
    }, timeoutMs);
  });
  return Promise.race([readCounted(stream, maxBytes, reading), late]).finally(() => clearTimeout(timer));
}

/** The stream reader of a counted read in progress, so that its deadline can cancel it. */
interface Reading {
  reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
}

async function readCounted(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
  reading: Reading,
): Promise<Uint8Array> {
  const reader = stream.getReader();
  reading.reader = reader;
  const chunks: Uint8Array[] = [];
  let received = 0;
  try {
    while (received <= maxBytes) {
      const { done, value } = await guard(reader.read());
      if (done) break;
      const kept = value.byteLength > maxBytes + 1 - received ? value.subarray(0, maxBytes + 1 - received) : value;
      chunks.push(kept);
      received += kept.byteLength;
    }
    // Past the limit the answer is 413 whatever follows, so the rest is not pulled at all.
    if (received > maxBytes) await reader.cancel().catch(() => undefined);
  } finally {
    reader.releaseLock();
  }
  const body = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

async function guard<T>(reading: Promise<T>): Promise<T> {
  try {
    return await reading;
  } catch (cause) {
    throw readFailed(cause);
  }
}
