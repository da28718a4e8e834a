/**
 * The adapter kit: what a framework adapter needs of the core, and nothing else. Its public half,
 * `createWebhookAdapter` and its types, is exported from `channel-webhooks`, and
 * `createManagementAdapter` from `channel-webhooks/manage`; the rest serves this package's own
 * adapters (`adapters/frameworks/*`). Stores have a kit of their own, `src/store-kit/`.
 *
 * @module
 */
export { createWebhookAdapter, DEFAULT_BODY_TIMEOUT_MS } from './create-webhook-adapter.js';
export { createManagementAdapter } from './create-management-adapter.js';
export { readFetchBody } from './read-fetch-body.js';
export { fetchRequestParts, type FetchRequestParts } from './fetch-request-parts.js';
export { fetchBinding, toFetchResponse } from './fetch-binding.js';
export type { ManagementApi } from '../manage/management-types.js';
export type { BodyLimits, WebhookAdapter, WebhookAdapterBinding, WebhookAdapterOptions } from './adapter-types.js';
export { bodyCutShort, bodyTimedOut } from './body-errors.js';
export type { WebhookHandler } from '../handler/handler-types.js';
export type { HeaderValue, RawBody, WebhookResponse } from '../http/http-types.js';
// An adapter that passes a request on answers a path that is no webhook URL with this 404.
export { FIXED_PROBLEMS, answer } from '../http/problem.js';
export { redactWebhookUrl } from '../http/redact.js';
// A router that answers a URL no webhook can have without asking its store (the Durable Object's).
export { isWellFormedCredential } from '../secret/secret.js';
export { createConsoleErrorLog } from '../reporting/console-error-log.js';
export type { ErrorContext } from '../reporting/error-context.js';
export { systemClock } from '../clock.js';
export { settleWithin } from '../waiting/deadline.js';
export { isThenable, type MaybePromise } from '../waiting/maybe-promise.js';
export { ChannelWebhookError } from '../errors.js';
