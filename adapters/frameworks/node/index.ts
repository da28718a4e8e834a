export { createNodeListener } from './create-node-listener.js';
export type { NodeListener, NodeListenerOptions } from './create-node-listener.js';
export type { NodeAdapterOptions } from './node-adapter.js';
