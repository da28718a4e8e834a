import { ChannelWebhookError, settleWithin } from '../../../src/internal.js';

/**
 * Reads a Web `Request`'s body for the handler, as a `BodyReader` does. With a trustworthy
 * `Content-Length` (given, and no `Transfer-Encoding`) the body is read in one `arrayBuffer()`
 * call, which on Node is several
 * times faster than pulling the stream; a length over the limit is refused unread. Without one, the
 * stream is counted as it arrives and cancelled once it passes the limit, so at most
 * `maxBytes + 1` bytes are ever held.
 *
 * The whole body must arrive within `bodyTimeoutMs`; past it the reader rejects with code
 * `body_read_timeout` (the handler answers 400) and cancels the stream. The timer belongs to this
 * one read and is cleared when it settles, so it works in runtimes that drop the timers of a
 * request once that request has been answered (Cloudflare Workers). A misconfiguration or a
 * declared length over `maxBytes` is thrown at once, and a body read in one `arrayBuffer()` call
 * waits on one promise, with one timer.
 *
 * @param request - the Web request.
 * @param maxBytes - the most the handler takes.
 * @param bodyTimeoutMs - deadline for the whole body, in ms.
 * @param declared - the request's `Content-Length`, or `undefined` when it has none or has a
 *   `Transfer-Encoding` (then only counting the bytes tells).
 * @example
 * ```ts
 * const response = await handle({ method, url, headers, body: (maxBytes) => readFetchBody(request, maxBytes, 10_000, request.headers.get('content-length') ?? undefined) });
 * ```
 */
export function readFetchBody(
  request: Request,
  maxBytes: number,
  bodyTimeoutMs: number,
  declared: string | undefined,
): Uint8Array | null | Promise<Uint8Array | null> {
  if (request.bodyUsed) {
    throw new ChannelWebhookError('misconfigured', 'the request body was read before the webhook handler; pass it the untouched request');
  }
  if (declared !== undefined && /^\d+$/.test(declared.trim())) {
    if (Number(declared) > maxBytes) {
      throw new ChannelWebhookError('payload_too_large', `the request body is larger than ${maxBytes} bytes`);
    }
    return bytesWithin(request.arrayBuffer(), bodyTimeoutMs);
  }
  if (request.body === null) return null;
  return countedWithin(request.body, maxBytes, bodyTimeoutMs);
}

function timedOut(bodyTimeoutMs: number): ChannelWebhookError {
  return new ChannelWebhookError('body_read_timeout', `the request body did not arrive within ${bodyTimeoutMs} ms`);
}

function readFailed(cause: unknown): ChannelWebhookError {
  return new ChannelWebhookError('body_read_failed', 'the request body could not be read to its end', { cause });
}

function bytesWithin(reading: Promise<ArrayBuffer>, bodyTimeoutMs: number): Promise<Uint8Array> {
  const bytes = reading.then(
    (buffer) => new Uint8Array(buffer),
    (cause: unknown) => {
      throw readFailed(cause);
    },
  );
  return settleWithin(bytes, bodyTimeoutMs, () => timedOut(bodyTimeoutMs));
}

function countedWithin(stream: ReadableStream<Uint8Array>, maxBytes: number, bodyTimeoutMs: number): Promise<Uint8Array> {
  const reading: Reading = { reader: undefined };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(timedOut(bodyTimeoutMs));
      // Stop pulling a body nobody waits for any more.
      reading.reader?.cancel().catch(() => undefined);
    }, bodyTimeoutMs);
  });
  return Promise.race([readCounted(stream, maxBytes, reading), late]).finally(() => clearTimeout(timer));
}

/** The stream reader of a counted read in progress, so that its deadline can cancel it. */
interface Reading {
  reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
}

async function readCounted(stream: ReadableStream<Uint8Array>, maxBytes: number, reading: Reading): Promise<Uint8Array> {
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
