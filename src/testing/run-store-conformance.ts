import type { WebhookStore } from '../ports.js';
import { registerChannelTests } from './store-conformance/channels.js';
import { createSuite, type StoreConformanceOptions } from './store-conformance/context.js';
import { registerGuardTests } from './store-conformance/guard.js';
import { registerMessageTests } from './store-conformance/messages.js';
import { registerWebhookTests } from './store-conformance/webhooks.js';

export type { StoreConformanceOptions } from './store-conformance/context.js';

/**
 * Registers the conformance tests of a {@link WebhookStore}: every port method's contract,
 * including the idempotent insert under concurrent callers (exactly one stores, all get its message),
 * the guarded insert (a revocation, rotation, archival or deleted channel refuses it, also when it
 * races inserts), `lastPostAt`, keys scoped per webhook, rotation and revocation visible at once,
 * messages back exactly as sent, and secrets never reaching the store. A store may answer
 * synchronously, with promises, or mixed. Call it at the top level of a test file, passing your
 * framework's `describe` and `it`.
 *
 * @example
 * ```ts
 * import { describe, it } from 'vitest';
 * import { runStoreConformance } from 'channel-webhooks/testing';
 * import { createMyStore } from '../src/my-store.js';
 *
 * runStoreConformance({
 *   describe,
 *   it,
 *   createStore: () => createMyStore({ url: process.env.DATABASE_URL }),
 *   putChannel: (store, channel) => store.seedChannel(channel),
 *   deleteChannel: (store, channelId) => store.dropChannel(channelId),
 * });
 * ```
 */
export function runStoreConformance<S extends WebhookStore>(options: StoreConformanceOptions<S>): void {
  const suite = createSuite(options);
  options.describe(options.name ?? 'WebhookStore conformance', () => {
    registerChannelTests(suite);
    registerWebhookTests(suite);
    registerMessageTests(suite);
    registerGuardTests(suite);
  });
}

/**
 * One group of {@link runStoreConformance} alone, under `describe(options.name)`: channels
 * (`getChannel`, archival visible at once).
 *
 * @example
 * ```ts
 * runStoreChannelConformance({ describe, it, createStore: () => createMyStore() });
 * ```
 */
export function runStoreChannelConformance<S extends WebhookStore>(options: StoreConformanceOptions<S>): void {
  options.describe(options.name ?? 'WebhookStore conformance', () => registerChannelTests(createSuite(options)));
}

/**
 * One group of {@link runStoreConformance} alone: webhooks (records back exactly, rotation and
 * revocation visible at once, only a secret's hash ever stored).
 *
 * @example
 * ```ts
 * runStoreWebhookConformance({ describe, it, createStore: () => createMyStore() });
 * ```
 */
export function runStoreWebhookConformance<S extends WebhookStore>(options: StoreConformanceOptions<S>): void {
  options.describe(options.name ?? 'WebhookStore conformance', () => registerWebhookTests(createSuite(options)));
}

/**
 * One group of {@link runStoreConformance} alone: messages (the idempotent insert under concurrent
 * callers, keys per webhook and compared exactly, contents back exactly).
 *
 * @example
 * ```ts
 * runStoreMessageConformance({ describe, it, createStore: () => createMyStore(), concurrency: 50 });
 * ```
 */
export function runStoreMessageConformance<S extends WebhookStore>(options: StoreConformanceOptions<S>): void {
  options.describe(options.name ?? 'WebhookStore conformance', () => registerMessageTests(createSuite(options)));
}

/**
 * One group of {@link runStoreConformance} alone: the guarded insert (what refuses it, in which
 * order, under a racing revocation) and `lastPostAt`.
 *
 * @example
 * ```ts
 * runStoreGuardConformance({ describe, it, createStore: () => createMyStore(), deleteChannel: (store, id) => store.drop(id) });
 * ```
 */
export function runStoreGuardConformance<S extends WebhookStore>(options: StoreConformanceOptions<S>): void {
  options.describe(options.name ?? 'WebhookStore conformance', () => registerGuardTests(createSuite(options)));
}
