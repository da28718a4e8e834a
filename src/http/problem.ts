import type { WebhookResponse } from './http-types.js';
import { MAX_BODY_BYTES } from '../limits.js';
import type { FieldError, RateLimitDecision } from '../ports.js';

export type { FieldError };

/**
 * An RFC 9457 problem body, with the library's stable `code`; `errors` lists the offending fields
 * of a 400.
 *
 * @example
 * ```ts
 * const res = await handle(request);
 * if (res.status >= 400) {
 *   const problem = res.body as ProblemBody;
 *   log.warn(problem.code, problem.detail, problem.errors ?? []);
 * }
 * ```
 */
export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ProblemCode;
  errors?: FieldError[];
}

/**
 * The one table of problem codes: each stable code with its status, title and the detail it is
 * answered with unless the request adds to it. The OpenAPI document, the OpenTelemetry wrapper and
 * the tests read their lists from here.
 */
export const PROBLEMS = {
  method_not_allowed: { status: 405, title: 'Method not allowed', detail: 'Only POST is accepted here.' },
  not_found: {
    status: 404,
    title: 'Not found',
    detail: 'No webhook answers at this URL. Check the stored URL, or create a new webhook in the channel.',
  },
  unsupported_media_type: {
    status: 415,
    title: 'Unsupported media type',
    detail: 'Send the body as JSON with Content-Type: application/json (charset, if any, utf-8).',
  },
  rate_limited: {
    status: 429,
    title: 'Too many requests',
    detail: 'Too many requests on this webhook. Retry later, with the same idempotency key if the request had one.',
  },
  payload_too_large: {
    status: 413,
    title: 'Payload too large',
    detail: `The body exceeds ${MAX_BODY_BYTES.toLocaleString('en-US')} bytes. Send a smaller message.`,
  },
  invalid_json: { status: 400, title: 'Invalid JSON', detail: 'The body is not valid JSON.' },
  invalid_payload: { status: 400, title: 'Invalid payload', detail: 'The body has invalid fields; see errors.' },
  key_mismatch: {
    status: 400,
    title: 'Idempotency keys differ',
    detail: 'eventId and the Idempotency-Key header must be exactly equal when both are sent.',
  },
  body_read_failed: {
    status: 400,
    title: 'Request body could not be read',
    detail: 'The request body ended before it was complete.',
  },
  channel_archived: {
    status: 409,
    title: 'Channel archived',
    detail: 'The destination channel is archived. Unarchive it, or use a webhook of an active channel.',
  },
  store_failed: {
    status: 500,
    title: 'Message could not be stored',
    detail:
      'The message could not be stored. Retry with exponential backoff, with the same idempotency key if the request had one.',
  },
  rate_limiter_failed: {
    status: 500,
    title: 'Rate limiter unavailable',
    detail:
      'The request could not be counted toward the rate limit. Retry later, with the same idempotency key if the request had one.',
  },
  misconfigured: {
    status: 500,
    title: 'Webhook endpoint misconfigured',
    detail: 'The webhook endpoint is misconfigured.',
  },
  internal_error: { status: 500, title: 'Internal error', detail: 'The request could not be handled.' },
} as const satisfies Record<string, { readonly status: number; readonly title: string; readonly detail: string }>;

/**
 * Stable codes of the problem bodies the handler answers with. Each goes with one status;
 * docs/design.md ("The order of the checks") lists them.
 *
 * @example
 * ```ts
 * const retryable: ProblemCode[] = ['rate_limited', 'store_failed', 'rate_limiter_failed'];
 * if (retryable.includes((res.body as ProblemBody).code)) scheduleRetry();
 * ```
 */
export type ProblemCode = keyof typeof PROBLEMS;

const PROBLEM_HEADERS = { 'content-type': 'application/problem+json', 'cache-control': 'no-store' } as const;

/** The `type` URI of a problem code: a tag URI, stable and never dereferenced. */
const problemType = (code: ProblemCode): string => `tag:channel-webhooks,2026:problem:${code}`;

/**
 * Builds the problem+json answer for `code`, with the code's own detail unless `detail` is given.
 *
 * @example
 * ```ts
 * const res = problemResponse('not_found');
 * const custom = problemResponse('misconfigured', 'Mount the webhook middleware before express.json().');
 * ```
 */
export function problemResponse(
  code: ProblemCode,
  detail: string = PROBLEMS[code].detail,
  extra?: { errors?: FieldError[]; headers?: Record<string, string> },
): WebhookResponse {
  const { status, title } = PROBLEMS[code];
  const body: ProblemBody = { type: problemType(code), title, status, detail, code };
  if (extra?.errors !== undefined) body.errors = extra.errors;
  return { status, headers: { ...PROBLEM_HEADERS, ...extra?.headers }, body };
}

/** An answer whose body and headers never depend on the request: built once, frozen, handed out anew. */
export interface FixedProblem {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Readonly<ProblemBody>;
}

function fixed(
  code: ProblemCode,
  detail?: string,
  errors?: FieldError[],
  headers?: Record<string, string>,
): FixedProblem {
  const {
    status,
    headers: all,
    body,
  } = problemResponse(code, detail, { errors: errors?.map((error) => Object.freeze(error)), headers });
  if (errors !== undefined) Object.freeze((body as ProblemBody).errors);
  return Object.freeze({ status, headers: Object.freeze(all), body: Object.freeze(body as ProblemBody) });
}

/** The answers that do not depend on the request. */
export const FIXED_PROBLEMS = {
  methodNotAllowed: fixed('method_not_allowed', undefined, undefined, { allow: 'POST' }),
  notFound: fixed('not_found'),
  // What the Fetch adapter and the node:http listener answer on a path that is no webhook URL.
  noWebhookHere: fixed('not_found', 'No webhook answers at this URL.'),
  unsupportedMediaType: fixed('unsupported_media_type'),
  payloadTooLarge: fixed('payload_too_large'),
  notUtf8: fixed('invalid_json', 'The body is not valid UTF-8.', [{ pointer: '', message: 'must be UTF-8' }]),
  // Never the parser's message: it quotes the body.
  notJson: fixed('invalid_json', undefined, [{ pointer: '', message: 'must be valid JSON' }]),
  bodyTimedOut: fixed('body_read_failed', 'The request body did not arrive in time. Send the whole body promptly.', [
    { pointer: '', message: 'did not arrive in time' },
  ]),
  bodyCutShort: fixed('body_read_failed', undefined, [{ pointer: '', message: 'ended before it was complete' }]),
  channelArchived: fixed('channel_archived'),
  storeFailed: fixed('store_failed'),
  rateLimiterFailed: fixed('rate_limiter_failed'),
  internalError: fixed('internal_error'),
} satisfies Record<string, FixedProblem>;

/**
 * A fresh answer from a fixed one: its own headers object, which the handler and adapters may add
 * to; the frozen body is shared.
 */
export function answer(problem: FixedProblem): WebhookResponse {
  return { status: problem.status, headers: { ...problem.headers }, body: problem.body };
}

/**
 * The 429 answer to `decision`: its detail and `Retry-After` say when to come back. A post that
 * sent an `Idempotency-Key` is told to send it again; of one that did not, the body is unread (a
 * 429 comes before it), so the detail speaks of an `eventId` only if it has one.
 */
export function rateLimitedResponse(decision: RateLimitDecision, keyed: boolean): WebhookResponse {
  const retryAfter = Math.max(1, Math.ceil(decision.resetMs / 1000));
  const retry = keyed
    ? `Retry after ${retryAfter} s with the same Idempotency-Key.`
    : `Retry after ${retryAfter} s, with the same eventId if the body has one.`;
  return problemResponse(
    'rate_limited',
    `More than ${decision.limit} requests in ${Math.ceil(decision.windowMs / 1000)} seconds on this webhook. ${retry}`,
    { headers: { 'retry-after': String(retryAfter) } },
  );
}

/** Adds the `RateLimit-Policy` and `RateLimit` headers (IETF httpapi-ratelimit-headers) of a decision. */
export function withRateLimitHeaders(response: WebhookResponse, decision: RateLimitDecision): WebhookResponse {
  response.headers['ratelimit-policy'] = policyOf(decision);
  response.headers.ratelimit = rateLimitOf(decision);
  return response;
}

/**
 * The headers of a 201 or 200 answer to a counted post: the content type and the decision's
 * `RateLimit-Policy` and `RateLimit`, in one object built whole (the order {@link withRateLimitHeaders}
 * gives them).
 */
export function storedHeaders(decision: RateLimitDecision): Record<string, string> {
  return {
    'content-type': 'application/json',
    'ratelimit-policy': policyOf(decision),
    ratelimit: rateLimitOf(decision),
  };
}

// The `RateLimit` value: what is left of the window, and whole seconds until it resets.
function rateLimitOf({ remaining, resetMs }: RateLimitDecision): string {
  return `"default";r=${remaining};t=${Math.max(0, Math.ceil(resetMs / 1000))}`;
}

// The `RateLimit-Policy` value: the quota and the window in whole seconds.
function policyOf({ limit, windowMs }: RateLimitDecision): string {
  return `"default";q=${limit};w=${Math.ceil(windowMs / 1000)}`;
}
