import { codePointLength } from '../validation/text.js';
import type { WebhookPayload } from '../validation/payload-types.js';

/** What every attempt of one event sends: its key, its headers and its body. */
export interface PreparedRequest {
  key: string;
  headers: Record<string, string>;
  body: string;
}

/** A request that cannot be sent, and why; `key` is the event's key all the same. */
export interface Unsendable {
  key: string;
  reason: string;
}

// The endpoint's rule for a key, in the body as in the header: 1–200 characters after trimming.
const MAX_KEY_LENGTH = 200;

// Printable ASCII with no white space at either end: every runtime's fetch sends it as it is, and
// every server reads it back the same. Beyond it, fetch throws on characters above U+00FF and on
// line breaks, sends U+0080–U+00FF as bytes that servers decode differently, and HTTP strips white
// space at either end, so that the header would no longer equal the payload's eventId.
const HEADER_SAFE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/**
 * The request for `payload` under its key (`idempotencyKey`, else the payload's `eventId`, else
 * `createKey()`): the key as `Idempotency-Key` when a header carries it as it is, else as the
 * payload's `eventId` alone (added when the payload has none), so that the endpoint sees the
 * same key on every attempt and never two that differ. Unsendable when the two keys given differ,
 * when the payload is not JSON, or when the key fits neither place.
 */
export function prepareRequest(
  payload: WebhookPayload,
  idempotencyKey: string | undefined,
  createKey: () => string,
): PreparedRequest | Unsendable {
  const eventId = isObject(payload) && typeof payload.eventId === 'string' ? payload.eventId : undefined;
  const key = idempotencyKey ?? eventId ?? createKey();
  if (eventId !== undefined && idempotencyKey !== undefined && eventId !== idempotencyKey) {
    return { key, reason: 'the key differs from the payload’s eventId; the endpoint would refuse the pair' };
  }
  const headerSafe = HEADER_SAFE.test(key);
  let sent: unknown = payload;
  if (!headerSafe && eventId === undefined) {
    const why = `the key cannot travel in a header (${HEADER_SAFE.test(key.trim()) ? 'HTTP strips white space at either end' : 'it holds a character other than printable ASCII'})`;
    if (!isObject(payload) || Object.hasOwn(payload, 'eventId'))
      return { key, reason: `${why}, and the payload has no place for it as eventId` };
    const length = codePointLength(key.trim());
    if (length === 0 || length > MAX_KEY_LENGTH)
      return {
        key,
        reason: `${why}, nor as the payload’s eventId, which is 1–${MAX_KEY_LENGTH} characters after trimming`,
      };
    sent = { ...payload, eventId: key };
  }
  let body: string | undefined;
  try {
    body = JSON.stringify(sent);
  } catch (error) {
    return { key, reason: `the payload cannot be serialized as JSON: ${(error as Error).message}` };
  }
  if (body === undefined) return { key, reason: 'the payload cannot be serialized as JSON' };
  return {
    key,
    headers: { 'content-type': 'application/json', ...(headerSafe ? { 'idempotency-key': key } : {}) },
    body,
  };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
