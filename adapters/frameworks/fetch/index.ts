export { createFetchHandler } from './create-fetch-handler.js';
export type { FetchHandlerOptions } from './create-fetch-handler.js';
