export { createKoaMiddleware } from './create-koa-middleware.js';
export { createKoaManagementMiddleware } from './create-koa-management-middleware.js';
export type { KoaLikeContext, KoaMiddleware } from './koa-binding.js';
export type { NodeAdapterOptions } from '../node/node-request-parts.js';
export { serveKoaFeedEvents } from './serve-koa-feed-events.js';
export type { FeedEventsOptions } from '../../../src/feed/feed-events.js';
