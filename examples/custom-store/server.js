// The custom Map store behind the Express adapter: the whole library runs on a store you wrote.
// Run it with `node examples/custom-store/server.js` after `npm run build`.
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import express from 'express';
import { createWebhookHandler, createWebhookManager } from 'channel-webhooks';
import { createExpressMiddleware } from 'channel-webhooks/express';
import { createMapStore } from './map-store.js';

export const DEMO_ACTOR = { userId: 'u-demo', role: 'member' };
export const DEMO_CHANNEL_ID = 'general';

/**
 * Builds the app on a {@link createMapStore} store with a demo channel.
 *
 * @param {object} [options]
 * @param {string} [options.baseUrl] - where the app is reachable; webhook URLs start with it.
 * @param {(message: import('channel-webhooks').Message) => void} [options.onMessage] - called for every new message.
 */
export async function createApp({ baseUrl = 'http://localhost:3000', onMessage = logMessage } = {}) {
  const store = createMapStore();
  await store.putChannel({ id: DEMO_CHANNEL_ID, ownerId: DEMO_ACTOR.userId, archived: false });
  const manager = createWebhookManager({ store, baseUrl });
  const app = express();
  app.use(createExpressMiddleware(createWebhookHandler({ store, onMessage })));
  return { app, store, manager };
}

function logMessage(message) {
  console.log(`#${message.channelId} ${message.author.name}: ${message.body || '(blocks only)'}`);
}

async function main() {
  const port = Number(process.env.PORT ?? 3000);
  const { app, manager } = await createApp({ baseUrl: `http://localhost:${port}` });
  const server = createServer(app);
  server.on('error', (error) => {
    if (error.code !== 'EADDRINUSE') throw error;
    console.error(`Port ${port} is already in use. Choose another one, e.g. PORT=3001 node examples/custom-store/server.js`);
    process.exit(1);
  });
  server.listen(port, async () => {
    const { url } = await manager.create(DEMO_ACTOR, { channelId: DEMO_CHANNEL_ID, name: 'Demo' });
    console.log(`Webhook URL (shown only once; keep it secret):\n  ${url}\n`);
    console.log(`Try it:\n  curl -i -X POST -H 'Content-Type: application/json' -d '{"text":"Hello from curl"}' ${url}`);
  });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
