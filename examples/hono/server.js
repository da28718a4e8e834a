// Hono example: the Fetch adapter on the webhook route, served on Node by @hono/node-server.
// The same `app.fetch` runs on Bun, Deno and workers. Run it with `node examples/hono/server.js`
// after `npm run build`.
import { pathToFileURL } from 'node:url';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createMemoryStore, createWebhookHandler, createWebhookManager } from 'channel-webhooks';
import { createFetchHandler } from 'channel-webhooks/fetch';

export const DEMO_ACTOR = { userId: 'u-demo', role: 'member' };
export const DEMO_CHANNEL_ID = 'general';

/**
 * Builds the app with a demo channel.
 *
 * @param {object} [options]
 * @param {string} [options.baseUrl] - where the app is reachable; webhook URLs start with it.
 * @param {(message: import('channel-webhooks').Message) => void} [options.onMessage] - called for every new message.
 */
export async function createApp({ baseUrl = 'http://localhost:3000', onMessage = logMessage } = {}) {
  const store = createMemoryStore();
  await store.putChannel({ id: DEMO_CHANNEL_ID, ownerId: DEMO_ACTOR.userId, archived: false });
  const manager = createWebhookManager({ store, baseUrl });
  const fetchHandler = createFetchHandler(createWebhookHandler({ store, onMessage }));

  const app = new Hono();
  // The raw request, untouched: its body can be read only once, and the handler reads it.
  app.all('/hooks/channels/:id/:secret', (c) => fetchHandler(c.req.raw));
  app.get('/channels/:id/messages', async (c) => c.json(await store.listMessages(c.req.param('id'))));
  return { app, store, manager };
}

function logMessage(message) {
  console.log(`#${message.channelId} ${message.author.name}: ${message.body || '(blocks only)'}`);
}

async function main() {
  const port = Number(process.env.PORT ?? 3000);
  const { app, manager } = await createApp({ baseUrl: `http://localhost:${port}` });
  const server = serve({ fetch: app.fetch, port }, async () => {
    const { url } = await manager.create(DEMO_ACTOR, { channelId: DEMO_CHANNEL_ID, name: 'Demo' });
    console.log(`Webhook URL (shown only once; keep it secret):\n  ${url}\n`);
    console.log(`Try it:\n  curl -i -X POST -H 'Content-Type: application/json' -d '{"text":"Hello from curl"}' ${url}`);
  });
  server.on('error', (error) => {
    if (error.code !== 'EADDRINUSE') throw error;
    console.error(`Port ${port} is already in use. Choose another one, e.g. PORT=3001 node examples/hono/server.js`);
    process.exit(1);
  });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
