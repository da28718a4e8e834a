export { createFetchHandler } from './create-fetch-handler.js';
export type { FetchHandlerOptions } from './create-fetch-handler.js';
export { fetchRequestParts } from './fetch-request-parts.js';
export type { FetchRequestParts } from './fetch-request-parts.js';
