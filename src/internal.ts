/**
 * The one internal entry of the core for this package's own adapters (`adapters/*`). Not a public
 * entry point: everything a user needs is exported from `channel-webhooks` itself.
 *
 * @module
 */
export { systemClock } from './clock.js';
export { createConsoleErrorLog } from './reporting/console-error-log.js';
export { MAX_TIMEOUT_MS, settleWithin } from './waiting/deadline.js';
export {
  CORE_HEADERS,
  DEFAULT_BODY_TIMEOUT_MS,
  openAdapterEntry,
  type AdapterEntry,
  type AdapterOptions,
  type RespondNow,
} from './adapter-kit/create-webhook-adapter.js';
export { isThenable, type MaybePromise } from './waiting/maybe-promise.js';
export { ChannelWebhookError, isChannelWebhookError } from './errors.js';
export type { ChannelWebhookErrorCode } from './errors.js';
export { DEFAULT_RATE_LIMIT, DEFAULT_RATE_WINDOW_MS, MAX_BODY_BYTES } from './limits.js';
export type { WebhookHandler } from './handler/handler-types.js';
export type { BodyReader, HeaderValue, RawBody, WebhookRequest, WebhookResponse } from './http/http-types.js';
export { FIXED_PROBLEMS, answer, problemResponse } from './http/problem.js';
export { matchWebhookPath, type WebhookPath } from './http/route.js';
export { redactWebhookUrl } from './http/redact.js';
export type * from './ports.js';
export {
  BOOLEAN,
  EPOCH_MS,
  HTTP_URL,
  MILLISECONDS,
  POSITIVE_MS,
  fn,
  integer,
  oneOf,
  port,
  required,
  rule,
  type ArgumentRule,
} from './arguments/argument-rules.js';
export { checkArgument, checkOptions, invalidArgument, type OptionsShape } from './arguments/check-options.js';
export { CLOCK, HANDLE, HANDLER_STORE, HIT_TIME, MANAGER_STORE, RATE_LIMITER } from './arguments/port-rules.js';
