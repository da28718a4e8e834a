// Koa example: the webhook middleware mounted before koa-bodyparser, on the in-memory store.
// Run it with `node examples/koa/server.js` after `npm run build`.
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import Koa from 'koa';
import bodyParser from 'koa-bodyparser';
import { createMemoryStore, createWebhookHandler, createWebhookManager } from 'channel-webhooks';
import { createKoaMiddleware } from 'channel-webhooks/koa';

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

  const app = new Koa();
  // Before koa-bodyparser: the middleware reads (and size-limits) the webhook body itself.
  app.use(createKoaMiddleware(handle));
  app.use(bodyParser());
  app.use(async (ctx) => {
    const match = /^\/channels\/([^/]+)\/messages$/.exec(ctx.path);
    if (ctx.method !== 'GET' || match === null) return;
    ctx.body = await store.listMessages(match[1]);
  });
  return { app, store, manager };
}

function logMessage(message) {
  console.log(`#${message.channelId} ${message.author.name}: ${message.body || '(blocks only)'}`);
}

async function main() {
  const port = Number(process.env.PORT ?? 3000);
  const { app, manager } = await createApp({ baseUrl: `http://localhost:${port}` });
  const server = createServer(app.callback());
  server.on('error', (error) => {
    if (error.code !== 'EADDRINUSE') throw error;
    console.error(`Port ${port} is already in use. Choose another one, e.g. PORT=3001 node examples/koa/server.js`);
    process.exit(1);
  });
  server.listen(port, async () => {
    const { url } = await manager.create(DEMO_ACTOR, { channelId: DEMO_CHANNEL_ID, name: 'Demo' });
    console.log(`Webhook URL (shown only once; keep it secret):\n  ${url}\n`);
    console.log(`Try it:\n  curl -i -X POST -H 'Content-Type: application/json' -d '{"text":"Hello from curl"}' ${url}`);
  });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
