export { createNodeListener } from './create-node-listener.js';
export { createNodeManagementListener } from './create-node-management-listener.js';
export type { NodeListener, NodeListenerOptions } from './listener-around.js';
export { nodeRequestParts } from './node-request-parts.js';
export type { NodeAdapterOptions, NodeRequestParts } from './node-request-parts.js';
export type { ParserLeftovers } from './read-node-body.js';
export { writeNodeResponse } from './write-node-response.js';
export { serveFeedEvents } from './serve-feed-events.js';
export type { FeedEventsOptions } from '../../../src/feed/feed-events.js';
