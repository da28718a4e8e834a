import { ChannelWebhookError, isChannelWebhookError } from '../errors.js';
import type { HeaderValue, RawBody } from '../http/http-types.js';
import { MAX_BODY_BYTES } from '../limits.js';

/**
 * What reading the body came to, one kind per answer: only `text` goes on to the JSON and field
 * checks; every other kind is answered as it is.
 */
export type BodyOutcome =
  /** `decoded`: the text came from bytes through the strict UTF-8 decoder, so it holds no lone surrogate. */
  | { kind: 'text'; text: string; decoded: boolean }
  /** 413. */
  | { kind: 'too_large' }
  /** 400 `invalid_json`. */
  | { kind: 'not_utf8' }
  /** 400 `body_read_failed`: the client went away, or the reader failed otherwise. */
  | { kind: 'cut_short' }
  /** 400 `body_read_failed`, reported: the body did not arrive within the reader's deadline. */
  | { kind: 'timed_out'; error: unknown }
  /** 500 `misconfigured`, reported: the body was consumed before the handler, or is of no known shape. */
  | { kind: 'misconfigured'; error: ChannelWebhookError };

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

/** The size of a body that arrived, in bytes (a string's as UTF-8), or `null` for one of no known shape. */
export function bodyBytes(raw: RawBody): number | null {
  if (raw === null || raw === undefined) return 0;
  if (raw instanceof Uint8Array) return raw.byteLength;
  return typeof raw === 'string' ? textEncoder.encode(raw).byteLength : null;
}

/** What a reader's failure comes to. */
export function readFailed(error: unknown): BodyOutcome {
  if (isChannelWebhookError(error, 'payload_too_large')) return { kind: 'too_large' };
  if (isChannelWebhookError(error, 'misconfigured')) return { kind: 'misconfigured', error };
  if (isChannelWebhookError(error, 'body_read_timeout')) return { kind: 'timed_out', error };
  return { kind: 'cut_short' };
}

/** Size-checks and decodes a body that has arrived. */
export function decodeBody(raw: RawBody): BodyOutcome {
  if (raw === null || raw === undefined) return { kind: 'text', text: '', decoded: true };
  if (typeof raw === 'string') {
    if (utf8Length(raw) > MAX_BODY_BYTES) return { kind: 'too_large' };
    return { kind: 'text', text: raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw, decoded: false };
  }
  if (!(raw instanceof Uint8Array)) {
    return {
      kind: 'misconfigured',
      error: new ChannelWebhookError(
        'misconfigured',
        'the request body must be bytes, a string, or a function that reads them',
      ),
    };
  }
  if (raw.byteLength > MAX_BODY_BYTES) return { kind: 'too_large' };
  try {
    return { kind: 'text', text: decoder.decode(raw), decoded: true };
  } catch {
    return { kind: 'not_utf8' };
  }
}
