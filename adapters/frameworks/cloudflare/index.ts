export { ChannelWebhooksObject } from './channel-webhooks-object.js';
export type { DurableObjectStateLike } from './channel-webhooks-object.js';
export { createDurableObjectFetchHandler } from './create-durable-object-fetch-handler.js';
export type { DurableObjectFetchHandlerOptions } from './create-durable-object-fetch-handler.js';
export {
  createDurableObjectRateLimiter,
  createDurableObjectStore,
  OBJECT_SCHEMA_VERSION,
  type DurableObjectNamespaceLike,
  type DurableObjectPruneOptions,
  type DurableObjectRateLimiter,
  type DurableObjectRateLimiterOptions,
  type DurableObjectStorageLike,
  type DurableObjectStore,
  type DurableObjectStoreOptions,
  type DurableObjectStubLike,
  type SqlCursorLike,
} from '../../stores/cloudflare/index.js';
