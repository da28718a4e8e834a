import type { FieldError } from '../http/problem.js';
import type { WebhookResponse } from '../http/http-types.js';

/**
 * The one table of the management API's problem codes: each with its status, title and the detail
 * it is answered with unless the case adds to it. The manager's own codes keep their names; a
 * channel or webhook the actor may not manage is answered as one that does not exist.
 */
export const MANAGEMENT_PROBLEMS = {
  invalid_json: { status: 400, title: 'Invalid JSON', detail: 'The body is not a JSON object.' },
  invalid_argument: { status: 400, title: 'Invalid request', detail: 'The request has invalid fields; see errors.' },
  invalid_name: { status: 400, title: 'Invalid name', detail: 'The webhook name is invalid.' },
  invalid_description: { status: 400, title: 'Invalid description', detail: 'The description is invalid.' },
  invalid_avatar_url: { status: 400, title: 'Invalid avatar URL', detail: 'The avatar URL is invalid.' },
  body_read_failed: {
    status: 400,
    title: 'Request body could not be read',
    detail: 'The request body did not arrive whole, or in time.',
  },
  unauthenticated: { status: 401, title: 'Sign-in required', detail: 'Sign in to manage webhooks.' },
  cross_site_request: {
    status: 403,
    title: 'Cross-site request',
    detail: 'The management API answers requests from its own site only.',
  },
  not_found: { status: 404, title: 'Not found', detail: 'There is no management route here.' },
  channel_not_found: {
    status: 404,
    title: 'Channel not found',
    detail: 'There is no channel with this id, or you may not manage its webhooks.',
  },
  webhook_not_found: {
    status: 404,
    title: 'Webhook not found',
    detail: 'There is no webhook with this id, or you may not manage it.',
  },
  method_not_allowed: {
    status: 405,
    title: 'Method not allowed',
    detail: 'This route does not take that method; see Allow.',
  },
  channel_archived: {
    status: 409,
    title: 'Channel archived',
    detail: 'The channel is archived: no webhook can be created in it.',
  },
  webhook_revoked: {
    status: 409,
    title: 'Webhook revoked',
    detail: 'The webhook is revoked, for good: create a new one to resume the integration.',
  },
  payload_too_large: {
    status: 413,
    title: 'Payload too large',
    detail: 'The body is larger than the management API takes.',
  },
  unsupported_media_type: {
    status: 415,
    title: 'Unsupported media type',
    detail: 'Send the body as JSON with Content-Type: application/json.',
  },
  store_failed: { status: 500, title: 'Store failed', detail: 'The change could not be made or read. Try again.' },
  store_timeout: { status: 503, title: 'Store timed out', detail: 'The store did not answer in time. Try again.' },
  misconfigured: { status: 500, title: 'Management API misconfigured', detail: 'The management API is misconfigured.' },
  internal_error: { status: 500, title: 'Internal error', detail: 'The request could not be handled.' },
  history_unavailable: {
    status: 501,
    title: 'History unavailable',
    detail: 'This server keeps no history of posts: its store has no listPosts.',
  },
  test_unavailable: {
    status: 501,
    title: 'Test message unavailable',
    detail: 'This server posts no test message: createManagementApi was given no handle.',
  },
} as const satisfies Record<string, { readonly status: number; readonly title: string; readonly detail: string }>;

/**
 * Stable codes of the management API's problem bodies, each with one status.
 *
 * @example
 * ```ts
 * if ((await response.json()).code === 'unauthenticated') location.assign('/sign-in');
 * ```
 */
export type ManagementProblemCode = keyof typeof MANAGEMENT_PROBLEMS;

/**
 * An RFC 9457 problem body of the management API, with a stable `code`; `errors` points at the
 * fields of a 400.
 *
 * @example
 * ```ts
 * const problem = (await response.json()) as ManagementProblem;
 * for (const { pointer, message } of problem.errors ?? []) form.showError(pointer, message);
 * ```
 */
export interface ManagementProblem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ManagementProblemCode;
  errors?: FieldError[];
}

/**
 * The headers of every answer: JSON, never stored by a cache (an answer may hold a secret URL, and
 * every one depends on who asks), never sniffed as anything else.
 */
export const ANSWER_HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' } as const;

/** The answer of a problem `code`, with its own detail unless `detail` is given. */
export function managementProblem(
  code: ManagementProblemCode,
  detail: string = MANAGEMENT_PROBLEMS[code].detail,
  extra?: { errors?: FieldError[]; headers?: Record<string, string> },
): WebhookResponse {
  const { status, title } = MANAGEMENT_PROBLEMS[code];
  const body: ManagementProblem = { type: `tag:channel-webhooks,2026:problem:${code}`, title, status, detail, code };
  if (extra?.errors !== undefined) body.errors = extra.errors;
  return {
    status,
    headers: { 'content-type': 'application/problem+json', ...ANSWER_HEADERS, ...extra?.headers },
    body,
  };
}

/** A JSON answer that is not a problem. */
export function managementAnswer(status: number, body: unknown): WebhookResponse {
  return { status, headers: { 'content-type': 'application/json', ...ANSWER_HEADERS }, body };
}
