// Fastify example (4 or 5): the webhook plugin under /api beside the app's own JSON routes, on the
// in-memory store. Run it with `node examples/fastify/server.js` after `npm run build`; tests
// import `createApp` and run the very same app.
import { pathToFileURL } from 'node:url';
import Fastify from 'fastify';
import { createMemoryStore, createWebhookHandler, createWebhookManager } from 'channel-webhooks';
import { createFastifyPlugin, createRedactingLogMethod } from 'channel-webhooks/fastify';
import { logMessage } from '../shared/log-message.js';

/** The demo user: owner of the demo channel, so allowed to manage its webhooks. */
export const DEMO_ACTOR = { userId: 'u-demo', role: 'member' };
export const DEMO_CHANNEL_ID = 'general';

/**
 * Builds the app (not yet listening) with a demo channel.
 *
 * @param {object} [options]
 * @param {string} [options.baseUrl] - where the app is reachable, `/api` included; webhook URLs start with it.
 * @param {(message: import('channel-webhooks').Message) => void} [options.onMessage] - called for every new message.
 * @param {boolean | object} [options.logger] - Fastify's `logger` option; webhook URLs are logged with the secret redacted.
 */
export async function createApp({
  baseUrl = 'http://127.0.0.1:3000/api',
  onMessage = logMessage,
  logger = false,
} = {}) {
  const store = createMemoryStore();
  await store.putChannel({ id: DEMO_CHANNEL_ID, ownerId: DEMO_ACTOR.userId, archived: false });
  const manager = createWebhookManager({ store, baseUrl });
  const handle = createWebhookHandler({ store, onMessage });

  // A webhook body has 5 s to arrive (the plugin's deadline); a whole request, headers included, 15 s.
  const app = Fastify({ logger, requestTimeout: 15_000 });
  // Encapsulated: the plugin's catch-all body parser applies to its routes only.
  await app.register(createFastifyPlugin(handle, { bodyTimeoutMs: 5_000 }), { prefix: '/api' });
  app.get('/channels/:id/messages', async (request) => store.listMessages(request.params.id));
  return { app, store, manager };
}

async function main() {
  const port = Number(process.env.PORT ?? 3000);
  const origin = `http://127.0.0.1:${port}`;
  // The plugin redacts its own routes' logs; this hook also redacts the 404s Fastify answers itself
  // for near misses (a trailing slash, `//`, another case), whose URLs carry a live secret too.
  const logger = { hooks: { logMethod: createRedactingLogMethod() } };
  const { app, manager } = await createApp({ baseUrl: `${origin}/api`, logger });
  try {
    await app.listen({ port, host: '127.0.0.1' });
  } catch (error) {
    if (error.code !== 'EADDRINUSE') throw error;
    console.error(`Port ${port} is already in use. Choose another one, e.g. PORT=3001 node examples/fastify/server.js`);
    process.exit(1);
  }
  const { url } = await manager.create(DEMO_ACTOR, { channelId: DEMO_CHANNEL_ID, name: 'Demo' });
  console.log(`Webhook URL for #${DEMO_CHANNEL_ID} (shown only once; keep it secret):\n  ${url}\n`);
  console.log(
    `Try it:\n  curl -i -X POST -H 'Content-Type: application/json' -d '{"text":"Hello from curl"}' ${url}\n`,
  );
  console.log(`Messages: ${origin}/channels/${DEMO_CHANNEL_ID}/messages`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
