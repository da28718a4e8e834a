// Bun: the Fetch adapter served by Bun.serve. Run `bun examples/bun/server.js` after
// `npm install channel-webhooks` (in this repository: after `npm run build`); a copy in your app
// needs ../shared/log-message.js beside it too.
// The memory store lives in this process: one instance, and gone on restart. Several instances
// share state through channel-webhooks/postgres and channel-webhooks/redis instead.
import { createMemoryStore, createWebhookHandler, createWebhookManager } from 'channel-webhooks';
import { createFetchHandler } from 'channel-webhooks/fetch';
import { logMessage } from '../shared/log-message.js';

const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 3000);

const store = createMemoryStore();
store.putChannel({ id: 'general', ownerId: 'u-demo', archived: false });
const manager = createWebhookManager({ store, baseUrl: `http://${host}:${port}` });
const handle = createWebhookHandler({
  store,
  onMessage: logMessage,
});

const server = Bun.serve({ hostname: host, port, fetch: createFetchHandler(handle, { bodyTimeoutMs: 10_000 }) });
const { url } = await manager.create({ userId: 'u-demo', role: 'member' }, { channelId: 'general', name: 'Demo' });
console.log(`Listening on http://${server.hostname}:${server.port}`);
console.log(`Webhook URL (shown only once; keep it secret):\n  ${url}`);
