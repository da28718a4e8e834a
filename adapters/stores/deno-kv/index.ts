export { createDenoKvStore } from './create-deno-kv-store.js';
export type { DenoKvStore, DenoKvStoreOptions } from './create-deno-kv-store.js';
export { createDenoKvRateLimiter } from './create-deno-kv-rate-limiter.js';
export type { DenoKvRateLimiterOptions } from './create-deno-kv-rate-limiter.js';
export type { DenoKvConnectionOptions } from './options.js';
export type { DenoKv, DenoKvAtomicOperation, DenoKvEntry, DenoKvKeyPart } from './deno-kv.js';
export { DENO_KV_LAYOUT_VERSION } from './key-layout.js';
