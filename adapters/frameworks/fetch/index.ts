export { createFetchHandler } from './create-fetch-handler.js';
export type { FetchHandlerOptions } from './create-fetch-handler.js';
export { fetchRequestParts } from './fetch-request-parts.js';
export type { FetchRequestParts } from './fetch-request-parts.js';
export { createFeedEventsResponse } from './create-feed-events-response.js';
export type { FeedEventsOptions } from '../../../src/feed/feed-events.js';
