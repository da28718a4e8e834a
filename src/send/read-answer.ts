/**
 * The most of an answer's body the client reads. The endpoint's answers are a few KiB (a stored
 * message echoes a body of at most 64 KiB); anything far larger is not the endpoint talking.
 */
export const MAX_ANSWER_BYTES = 1024 * 1024;

/**
 * The text of `response`'s body, read chunk by chunk, or `null` as soon as it is over `maxBytes`
 * (by its declared `Content-Length`, or by counting): the rest is cancelled, never read.
 */
export async function readAnswer(response: Response, maxBytes = MAX_ANSWER_BYTES): Promise<string | null> {
  if (Number(response.headers.get('content-length')) > maxBytes) {
    discard(response);
    return null;
  }
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      reader.cancel().catch(() => undefined);
      return null;
    }
    text += decoder.decode(value, { stream: true });
  }
}

/** Lets go of `response`'s body unread, so that its connection is closed or reused. */
export function discard(response: Response): void {
  response.body?.cancel().catch(() => undefined);
}
