// Deno: the Fetch adapter served by Deno.serve, with its webhooks, messages and rate limits in Deno KV.
// Run it from a project that has channel-webhooks in its package.json (Deno reads node_modules):
//   deno run --unstable-kv --allow-net --allow-env --allow-read --allow-write examples/deno/server.js
// a copy in your app needs ../shared/log-message.js beside it too. Locally the KV is a SQLite file,
// webhooks.kv (or DENO_KV_PATH), and everything survives a restart. On Deno Deploy (with
// "unstable": ["kv"] in deno.json) Deno.openKv() opens the app's KV database, shared by every
// isolate in every region, so idempotency and the 60-a-minute limit hold across all of them.
import { createWebhookHandler, createWebhookManager } from 'channel-webhooks';
import { createDenoKvRateLimiter, createDenoKvStore } from 'channel-webhooks/deno-kv';
import { createFetchHandler } from 'channel-webhooks/fetch';
import { logMessage } from '../shared/log-message.js';

const host = Deno.env.get('HOST') ?? '127.0.0.1';
const port = Number(Deno.env.get('PORT') ?? 3000);
const onDeploy = Deno.env.get('DENO_DEPLOYMENT_ID') !== undefined;

const kv = await Deno.openKv(onDeploy ? undefined : (Deno.env.get('DENO_KV_PATH') ?? 'webhooks.kv'));
const store = createDenoKvStore({ kv });
await store.migrate(); // fails here, not at the first post, on a KV of a newer release
await store.putChannel({ id: 'general', ownerId: 'u-demo', archived: false });
const manager = createWebhookManager({ store, baseUrl: `http://${host}:${port}` });
const handle = createWebhookHandler({
  store,
  rateLimiter: createDenoKvRateLimiter({ kv }),
  onMessage: logMessage,
});

Deno.serve(
  { hostname: host, port, onListen: ({ hostname, port }) => console.log(`Listening on http://${hostname}:${port}`) },
  createFetchHandler(handle, { bodyTimeoutMs: 10_000 }),
);
// A new webhook at every start: its URL is shown only once. The ones of earlier starts keep working.
const { url } = await manager.create({ userId: 'u-demo', role: 'member' }, { channelId: 'general', name: 'Demo' });
console.log(`Webhook URL (shown only once; keep it secret):\n  ${url}`);
