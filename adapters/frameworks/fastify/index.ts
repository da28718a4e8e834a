export { createFastifyPlugin } from './create-fastify-plugin.js';
export { createFastifyManagementPlugin } from './create-fastify-management-plugin.js';
export type { FastifyAdapterOptions } from './create-fastify-plugin.js';
export { createRedactingLogMethod } from './create-redacting-log-method.js';
export type { RedactingLogMethod } from './create-redacting-log-method.js';
export type { NodeAdapterOptions } from '../node/node-request-parts.js';
export { serveFastifyFeedEvents } from './serve-fastify-feed-events.js';
export type { FeedEventsOptions } from '../../../src/feed/feed-events.js';
