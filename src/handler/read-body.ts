import { ChannelWebhookError, isChannelWebhookError } from '../errors.js';
import type { BodyReader, HeaderValue, RawBody } from '../http/http-types.js';
import { MAX_BODY_BYTES } from '../limits.js';

/** What reading the body came to. */
export type BodyOutcome =
  /** `decoded`: the text came from bytes through the strict UTF-8 decoder, so it holds no lone surrogate. */
  | { kind: 'text'; text: string; decoded: boolean }
  | { kind: 'too_large' }
  | { kind: 'not_utf8' }
  | { kind: 'read_failed'; error: unknown };

const decoder = new TextDecoder('utf-8', { fatal: true });
const textEncoder = new TextEncoder();

/**
 * The declared body size, or `null` when `Content-Length` is absent, malformed, or overridden by a
 * `Transfer-Encoding` (then only counting the bytes tells).
 */
export function declaredLength(headers: Readonly<Record<string, HeaderValue>>): number | null {
  if (headers['transfer-encoding'] !== undefined) return null;
  const value = headers['content-length'];
  if (typeof value !== 'string' || !/^\s*\d+\s*$/.test(value)) return null;
  return Number(value);
}

function utf8Length(text: string): number {
  // Each UTF-16 unit is at most 3 UTF-8 bytes, so short strings need no counting.
  if (text.length * 3 <= MAX_BODY_BYTES) return text.length;
  return textEncoder.encode(text).byteLength;
}

/** Reads (if needed), size-checks and decodes the body as UTF-8 (a leading BOM is dropped). */
export async function readBody(body: RawBody | BodyReader): Promise<BodyOutcome> {
  let raw: RawBody;
  if (typeof body === 'function') {
    try {
      raw = await body(MAX_BODY_BYTES);
    } catch (error) {
      if (isChannelWebhookError(error, 'payload_too_large')) return { kind: 'too_large' };
      return { kind: 'read_failed', error };
    }
  } else {
    raw = body;
  }
  if (raw === null || raw === undefined) return { kind: 'text', text: '', decoded: true };
  if (typeof raw === 'string') {
    if (utf8Length(raw) > MAX_BODY_BYTES) return { kind: 'too_large' };
    return { kind: 'text', text: raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw, decoded: false };
  }
  if (!(raw instanceof Uint8Array)) {
    return { kind: 'read_failed', error: new ChannelWebhookError('misconfigured', 'the request body must be bytes, a string, or a function that reads them') };
  }
  if (raw.byteLength > MAX_BODY_BYTES) return { kind: 'too_large' };
  try {
    return { kind: 'text', text: decoder.decode(raw), decoded: true };
  } catch {
    return { kind: 'not_utf8' };
  }
}
