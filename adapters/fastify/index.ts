export { createFastifyPlugin } from './create-fastify-plugin.js';
export type { FastifyAdapterOptions } from './create-fastify-plugin.js';
export type { NodeAdapterOptions } from '../node/node-adapter.js';
