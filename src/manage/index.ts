/**
 * The management API: the webhook lifecycle (list, create, update the profile, rotate, revoke, the
 * history of posts) as HTTP routes behind the app's own sign-in, for the app's front end. Served as
 * a Fetch handler (`api.fetch`) and mounted on Express, Koa, Fastify and node:http by their entries'
 * `create…Management…` functions, all through {@link createManagementAdapter}.
 *
 * @module
 */
export { createManagementApi } from './create-management-api.js';
export { createManagementAdapter } from '../adapter-kit/create-management-adapter.js';
export { MAX_MANAGEMENT_BODY_BYTES } from './read-json-body.js';
export { MANAGEMENT_PROBLEMS } from './management-problems.js';
export type { ManagementProblem, ManagementProblemCode } from './management-problems.js';
export type {
  ManagementApi,
  ManagementApiOptions,
  ManagementErrorContext,
  ManagementRequest,
} from './management-types.js';
export type { Actor, WebhookInfo, WebhookProfileInput, WebhookWithUrl } from '../lifecycle/create-webhook-manager.js';
export type { PostRecord } from '../ports.js';
