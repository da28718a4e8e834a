import type { WebhookStore } from '../ports.js';
import { registerChannelTests } from './store-conformance/channels.js';
import { createSuite, type StoreConformanceGroup, type StoreConformanceOptions } from './store-conformance/context.js';
import { registerFeedTests } from './store-conformance/feed.js';
import { registerGuardTests } from './store-conformance/guard.js';
import { registerHistoryTests } from './store-conformance/history.js';
import { registerMessageTests } from './store-conformance/messages.js';
import { registerProfileTests } from './store-conformance/profile.js';
import { registerWebhookTests } from './store-conformance/webhooks.js';

export type { StoreConformanceGroup, StoreConformanceOptions } from './store-conformance/context.js';

/**
 * Registers the conformance tests of a {@link WebhookStore}: every port method's contract,
 * including the idempotent insert under concurrent callers (exactly one stores, all get its message),
 * the guarded insert (a revocation, rotation, archival or deleted channel refuses it, also when it
 * races inserts), `lastPostAt`, keys scoped per webhook, rotation and revocation visible at once,
 * messages back exactly as sent, and secrets never reaching the store; webhook profiles kept and
 * changed field by field; for a store that keeps one, the post history (at most 100 records a
 * webhook, a minute's 429s as one, its 415s likewise); and, for a store with the feed (`readFeed`
 * and `watchFeed`), cursors, reads after a cursor, following live, resuming, `cursor_expired` and
 * `invalid_cursor`. A store may answer synchronously, with promises, or mixed. Call it at the top
 * level of a test file, passing your framework's `describe` and `it`; `groups` runs some of its
 * groups alone.
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
  const groups = new Set(options.groups ?? STORE_GROUPS);
  options.describe(options.name ?? 'WebhookStore conformance', () => {
    if (groups.has('channels')) registerChannelTests(suite);
    if (groups.has('webhooks')) registerWebhookTests(suite);
    if (groups.has('messages')) registerMessageTests(suite);
    if (groups.has('guarded insert')) registerGuardTests(suite);
    if (groups.has('profile')) registerProfileTests(suite);
    if (groups.has('history')) registerHistoryTests(suite);
    if (groups.has('feed')) registerFeedTests(suite);
  });
}

const STORE_GROUPS: readonly StoreConformanceGroup[] = [
  'channels',
  'webhooks',
  'messages',
  'guarded insert',
  'profile',
  'history',
  'feed',
];
