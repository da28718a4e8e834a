import type { WebhookPayload } from './payload-types.js';
import type { FieldError } from '../http/problem.js';
import { validatePayload as validateFields } from './validate-payload.js';

/**
 * Options of {@link validatePayload}.
 *
 * @example
 * ```ts
 * const options: ValidatePayloadOptions = { idempotencyKey: 'deploy-42' };
 * ```
 */
export interface ValidatePayloadOptions {
  /** The `Idempotency-Key` header that will go with the payload, if any; `eventId` must equal it. */
  idempotencyKey?: string;
}

/**
 * What {@link validatePayload} found: the payload, typed, or the 400 problem's `code`, `detail` and
 * `errors` the endpoint would answer with.
 *
 * @example
 * ```ts
 * const check: PayloadCheck = validatePayload({ text: 'Deploy finished' });
 * if (!check.ok) for (const error of check.errors) console.error(error.pointer, error.message);
 * ```
 */
export type PayloadCheck =
  | {
      ok: true;
      payload: WebhookPayload;
      /** The idempotency key the endpoint would use: `eventId` or the header; `null` when neither. */
      key: string | null;
    }
  | { ok: false; code: 'invalid_payload' | 'key_mismatch'; detail: string; errors: FieldError[] };

/**
 * Checks a payload offline with the very rules a webhook endpoint applies: the same validator, the
 * same JSON pointers and messages as the `errors` of its 400 answer. No HTTP, no store. The body's
 * size (64 KiB) is not checked here: it depends on how the payload is serialized.
 *
 * @param payload - a parsed JSON value, as it would be sent.
 * @param options - the `Idempotency-Key` header that would go with it, if any.
 * @returns `{ ok: true, payload, key }`, or `{ ok: false, code, detail, errors }` with at most 20 errors.
 * @example
 * ```ts
 * import { validatePayload } from 'channel-webhooks';
 *
 * const check = validatePayload({ blocks: [{ type: 'header', text: { type: 'mrkdwn', text: 'Deploy' } }] });
 * // { ok: false, code: 'invalid_payload', detail: 'One field is invalid; see errors.',
 * //   errors: [{ pointer: '/blocks/0/text/type', message: 'must be "plain_text"' }] }
 * ```
 */
export function validatePayload(payload: unknown, options: ValidatePayloadOptions = {}): PayloadCheck {
  // A value built in memory may hold NUL or a lone surrogate without any escape: walk every string.
  const validation = validateFields(payload, options.idempotencyKey, true);
  if (!validation.ok) return validation;
  return { ok: true, payload: payload as WebhookPayload, key: validation.payload.key };
}
