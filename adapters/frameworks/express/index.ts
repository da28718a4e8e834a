export { createExpressMiddleware } from './create-express-middleware.js';
export { createExpressManagementMiddleware } from './create-express-management-middleware.js';
export type { ExpressLikeRequest, ExpressMiddleware } from './express-binding.js';
export type { NodeAdapterOptions } from '../node/node-request-parts.js';
export { serveFeedEvents } from '../node/serve-feed-events.js';
export type { FeedEventsOptions } from '../../../src/feed/feed-events.js';
