// Deno: the Fetch adapter served by Deno.serve. Run it from a project that has channel-webhooks in
// its package.json (Deno reads node_modules): `deno run --allow-net --allow-env examples/deno/server.js`;
// a copy in your app needs ../shared/log-message.js beside it too.
// The memory store lives in this process: one instance, and gone on restart. Several instances
// share state through channel-webhooks/postgres and channel-webhooks/redis instead.
import { createMemoryStore, createWebhookHandler, createWebhookManager } from 'channel-webhooks';
import { createFetchHandler } from 'channel-webhooks/fetch';
import { logMessage } from '../shared/log-message.js';

const host = Deno.env.get('HOST') ?? '127.0.0.1';
const port = Number(Deno.env.get('PORT') ?? 3000);

const store = createMemoryStore();
store.putChannel({ id: 'general', ownerId: 'u-demo', archived: false });
const manager = createWebhookManager({ store, baseUrl: `http://${host}:${port}` });
const handle = createWebhookHandler({
  store,
  onMessage: logMessage,
});

Deno.serve(
  { hostname: host, port, onListen: ({ hostname, port }) => console.log(`Listening on http://${hostname}:${port}`) },
  createFetchHandler(handle, { bodyTimeoutMs: 10_000 }),
);
const { url } = await manager.create({ userId: 'u-demo', role: 'member' }, { channelId: 'general', name: 'Demo' });
console.log(`Webhook URL (shown only once; keep it secret):\n  ${url}`);
