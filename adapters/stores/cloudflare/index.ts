/**
 * The Durable Object store: webhooks, messages, idempotency keys, rate windows and post histories
 * in `ChannelWebhooksObject`s, one object per channel, each in its own SQLite database. Its public
 * names are exported by `channel-webhooks/cloudflare` (adapters/frameworks/cloudflare/, the host);
 * the object's side of the calls is the host's too: the object class and the router run these.
 *
 * @module
 */
export { createDurableObjectRateLimiter, createDurableObjectStore } from './create-durable-object-store.js';
export type {
  DurableObjectRateLimiter,
  DurableObjectPruneOptions,
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
// The object's side, for its host.
export { createObjectState, type ObjectState } from './object-state.js';
export {
  answerOperation,
  callShard,
  forwardToObject,
  isOperationCall,
  operationFailed,
  SHARD_HEADER,
} from './object-calls.js';
export { createObjectPorts } from './sharded-store.js';
