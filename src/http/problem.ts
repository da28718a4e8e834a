import type { WebhookResponse } from './http-types.js';
import type { RateLimitDecision } from '../ports.js';
import type { FieldError } from '../validation/validate-payload.js';

/** Stable codes of the problem bodies the handler answers with. */
export type ProblemCode =
  | 'method_not_allowed'
  | 'not_found'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'payload_too_large'
  | 'invalid_json'
  | 'invalid_payload'
  | 'key_mismatch'
  | 'body_read_failed'
  | 'channel_archived'
  | 'store_failed'
  | 'rate_limiter_failed'
  | 'misconfigured'
  | 'internal_error';

/** An RFC 9457 problem body, with the library's stable `code`. */
export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ProblemCode;
  errors?: FieldError[];
}

/** The status and title of every problem code. */
export const PROBLEM_STATUSES: Readonly<Record<ProblemCode, readonly [status: number, title: string]>> = {
  method_not_allowed: [405, 'Method not allowed'],
  not_found: [404, 'Not found'],
  unsupported_media_type: [415, 'Unsupported media type'],
  rate_limited: [429, 'Too many requests'],
  payload_too_large: [413, 'Payload too large'],
  invalid_json: [400, 'Invalid JSON'],
  invalid_payload: [400, 'Invalid payload'],
  key_mismatch: [400, 'Idempotency keys differ'],
  body_read_failed: [400, 'Request body could not be read'],
  channel_archived: [409, 'Channel archived'],
  store_failed: [500, 'Message could not be stored'],
  rate_limiter_failed: [500, 'Rate limiter unavailable'],
  misconfigured: [500, 'Webhook endpoint misconfigured'],
  internal_error: [500, 'Internal error'],
};

/** The `type` URI of a problem code: a tag URI, stable and never dereferenced. */
const problemType = (code: ProblemCode): string => `tag:channel-webhooks,2026:problem:${code}`;

/**
 * Builds the problem+json answer for `code`.
 *
 * @example
 * ```ts
 * const res = problemResponse('not_found', 'No webhook answers at this URL.');
 * ```
 */
export function problemResponse(
  code: ProblemCode,
  detail: string,
  extra?: { errors?: FieldError[]; headers?: Record<string, string> },
): WebhookResponse {
  const [status, title] = PROBLEM_STATUSES[code];
  const body: ProblemBody = { type: problemType(code), title, status, detail, code };
  if (extra?.errors !== undefined) body.errors = extra.errors;
  return {
    status,
    headers: { 'content-type': 'application/problem+json', 'cache-control': 'no-store', ...extra?.headers },
    body,
  };
}

/** The `RateLimit-Policy` and `RateLimit` headers (IETF httpapi-ratelimit-headers) of a decision. */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  const seconds = Math.max(0, Math.ceil(decision.resetMs / 1000));
  return { 'ratelimit-policy': policyOf(decision), ratelimit: `"default";r=${decision.remaining};t=${seconds}` };
}

// A limiter's policy rarely changes: keep the last header value.
let lastPolicy = { limit: 0, windowMs: 0, value: '' };
function policyOf({ limit, windowMs }: RateLimitDecision): string {
  if (limit !== lastPolicy.limit || windowMs !== lastPolicy.windowMs) {
    lastPolicy = { limit, windowMs, value: `"default";q=${limit};w=${Math.ceil(windowMs / 1000)}` };
  }
  return lastPolicy.value;
}
