export { ChannelWebhooksObject } from './channel-webhooks-object.js';
export type { DurableObjectStateLike } from './channel-webhooks-object.js';
export { createDurableObjectFetchHandler } from './create-durable-object-fetch-handler.js';
export type { DurableObjectFetchHandlerOptions } from './create-durable-object-fetch-handler.js';
export { createDurableObjectRateLimiter, createDurableObjectStore } from './create-durable-object-store.js';
export type {
  DurableObjectRateLimiter,
  DurableObjectRateLimiterOptions,
  DurableObjectStore,
  DurableObjectStoreOptions,
} from './create-durable-object-store.js';
export { OBJECT_SCHEMA_VERSION } from './object-schema.js';
export type {
  DurableObjectNamespaceLike,
  DurableObjectStorageLike,
  DurableObjectStubLike,
  SqlCursorLike,
} from './storage-types.js';
