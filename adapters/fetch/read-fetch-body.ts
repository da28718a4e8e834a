import { ChannelWebhookError, type BodyReader } from '../../src/internal.js';

/**
 * Creates the {@link BodyReader} of a Web `Request`. With a trustworthy `Content-Length` (given, and
 * no `Transfer-Encoding`) the body is read in one `arrayBuffer()` call, which on Node is several
 * times faster than pulling the stream; a length over the limit is refused unread. Without one, the
 * stream is counted as it arrives and cancelled once it passes the limit, so at most
 * `maxBytes + 1` bytes are ever held.
 *
 * The whole body must arrive within `bodyTimeoutMs`; past it the reader rejects with code
 * `body_read_timeout` (the handler answers 400) and cancels the stream. The timer belongs to this
 * one read and is cleared when it settles, so it works in runtimes that drop the timers of a
 * request once that request has been answered (Cloudflare Workers).
 *
 * @param request - the Web request.
 * @param bodyTimeoutMs - deadline for the whole body, in ms.
 * @example
 * ```ts
 * const response = await handle({ method, url, headers, body: createFetchBodyReader(request, 10_000) });
 * ```
 */
export function createFetchBodyReader(request: Request, bodyTimeoutMs: number): BodyReader {
  return (maxBytes) => {
    const reading: Reading = { reader: undefined };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new ChannelWebhookError('body_read_timeout', `the request body did not arrive within ${bodyTimeoutMs} ms`));
        // Stop pulling a body nobody waits for any more.
        reading.reader?.cancel().catch(() => undefined);
      }, bodyTimeoutMs);
    });
    return Promise.race([read(request, maxBytes, reading), late]).finally(() => clearTimeout(timer));
  };
}

/** The stream reader of a counted read in progress, so that its deadline can cancel it. */
interface Reading {
  reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
}

async function read(request: Request, maxBytes: number, reading: Reading): Promise<Uint8Array | null> {
  if (request.bodyUsed) {
    throw new ChannelWebhookError('misconfigured', 'the request body was read before the webhook handler; pass it the untouched request');
  }
  const declared = request.headers.has('transfer-encoding') ? null : request.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared.trim())) {
    if (Number(declared) > maxBytes) {
      throw new ChannelWebhookError('payload_too_large', `the request body is larger than ${maxBytes} bytes`);
    }
    return new Uint8Array(await guard(request.arrayBuffer()));
  }
  if (request.body === null) return null;
  return readCounted(request.body, maxBytes, reading);
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
    throw new ChannelWebhookError('body_read_failed', 'the request body could not be read to its end', { cause });
  }
}
