// Express example: the webhook middleware mounted before the app's body parser, on the in-memory
// store. `npm start` runs it; tests import `createApp` and run the very same app.
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import express from 'express';
import { createMemoryStore, createWebhookHandler, createWebhookManager } from 'channel-webhooks';
import { createExpressMiddleware } from 'channel-webhooks/express';

/** The demo user: owner of the demo channel, so allowed to manage its webhooks. */
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
  const handle = createWebhookHandler({ store, onMessage });

  const app = express();
  // Before any body parser: the middleware reads (and size-limits) the webhook body itself.
  app.use(createExpressMiddleware(handle));
  app.use(express.json());
  app.get('/channels/:id/messages', async (req, res) => {
    res.json(await store.listMessages(req.params.id));
  });
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
    console.error(`Port ${port} is already in use. Choose another one, e.g. PORT=3001 npm start`);
    process.exit(1);
  });
  server.listen(port, async () => {
    const { url } = await manager.create(DEMO_ACTOR, { channelId: DEMO_CHANNEL_ID, name: 'Demo' });
    console.log(`Listening on http://localhost:${port}`);
    console.log(`Webhook URL for #${DEMO_CHANNEL_ID} (shown only once; keep it secret):\n  ${url}\n`);
    console.log(`Try it:\n  curl -i -X POST -H 'Content-Type: application/json' -d '{"text":"Hello from curl"}' ${url}\n`);
    console.log(`Messages: http://localhost:${port}/channels/${DEMO_CHANNEL_ID}/messages`);
  });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
