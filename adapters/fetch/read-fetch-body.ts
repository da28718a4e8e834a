import { ChannelWebhookError, type BodyReader } from '../../src/internal.js';

/**
 * Creates the {@link BodyReader} of a Web `Request`. With a trustworthy `Content-Length` (given, and
 * no `Transfer-Encoding`) the body is read in one `arrayBuffer()` call, which on Node is several
 * times faster than pulling the stream; a length over the limit is refused unread. Without one, the
 * stream is counted as it arrives and cancelled once it passes the limit, so at most
 * `maxBytes + 1` bytes are ever held.
 *
 * @param request - the Web request.
 * @example
 * ```ts
 * const response = await handle({ method, url, headers, body: createFetchBodyReader(request) });
 * ```
 */
export function createFetchBodyReader(request: Request): BodyReader {
  return async (maxBytes) => {
    if (request.bodyUsed) {
      throw new ChannelWebhookError(
        'misconfigured',
        'the request body was read before the webhook handler; pass it the untouched request',
      );
    }
    const declared = request.headers.has('transfer-encoding') ? null : request.headers.get('content-length');
    if (declared !== null && /^\d+$/.test(declared.trim())) {
      if (Number(declared) > maxBytes) {
        throw new ChannelWebhookError('payload_too_large', `the request body is larger than ${maxBytes} bytes`);
      }
      return new Uint8Array(await guard(request.arrayBuffer()));
    }
    if (request.body === null) return null;
    return readCounted(request.body, maxBytes);
  };
}

async function readCounted(stream: ReadableStream<Uint8Array>, maxBytes: number): Promise<Uint8Array> {
  const reader = stream.getReader();
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
