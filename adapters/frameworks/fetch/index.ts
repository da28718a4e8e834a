export { createFetchHandler } from './create-fetch-handler.js';
export type { FetchHandlerOptions } from './create-fetch-handler.js';
export { fetchRequestParts, toFetchResponse } from '../../../src/adapter-kit/index.js';
export type { FetchRequestParts } from '../../../src/adapter-kit/index.js';
export { createFeedEventsResponse } from './create-feed-events-response.js';
export type { FeedEventsOptions } from '../../../src/feed/feed-events.js';
