// The webhook endpoint of a Next.js app, built once per server process. Route handlers import it.
// In your app, copy examples/shared/log-message.js into lib/ and import it from './log-message.js'.
//
// The memory store lives in one server process (and, in `next dev`, survives hot reloads through
// globalThis). On serverless hosting every function instance has its own: use
// channel-webhooks/postgres and channel-webhooks/redis there, created here the same way.
import { createMemoryStore, createWebhookHandler, createWebhookManager } from 'channel-webhooks';
import { createFetchHandler } from 'channel-webhooks/fetch';
import { logMessage } from '../../shared/log-message.js';

function build() {
  const store = createMemoryStore();
  store.putChannel({ id: 'general', ownerId: 'u-demo', archived: false });
  const manager = createWebhookManager({ store, baseUrl: process.env.PUBLIC_BASE_URL ?? 'http://localhost:3000' });
  const handle = createWebhookHandler({
    store,
    onMessage: logMessage,
  });
  return { store, manager, fetchHandler: createFetchHandler(handle, { bodyTimeoutMs: 10_000 }) };
}

globalThis.__channelWebhooks ??= build();
export const webhooks = globalThis.__channelWebhooks;
