/**
 * The one internal entry of the core for this package's own adapters (`adapters/*`). Not a public
 * entry point: everything a user needs is exported from `channel-webhooks` itself.
 *
 * @module
 */
export { checkMilliseconds, settleWithin } from './deadline.js';
export { checkHandle } from './handler/check-handle.js';
export { respondNowOf, type RespondNow } from './handler/respond-now.js';
export { isThenable } from './maybe-promise.js';
export { ChannelWebhookError, isChannelWebhookError } from './errors.js';
export type { ChannelWebhookErrorCode } from './errors.js';
export { DEFAULT_RATE_LIMIT, DEFAULT_RATE_WINDOW_MS, MAX_BODY_BYTES } from './limits.js';
export type { WebhookHandler } from './handler/handler-types.js';
export type { BodyReader, HeaderValue, RawBody, WebhookRequest, WebhookResponse } from './http/http-types.js';
export { problemResponse } from './http/problem.js';
export { matchWebhookPath } from './http/route.js';
export { redactWebhookUrl } from './http/redact.js';
export type * from './ports.js';
export { DEFAULT_BODY_TIMEOUT_MS, resolveBodyTimeout } from './http/body-timeout.js';
