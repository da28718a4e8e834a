// The custom Map store behind the Express adapter: the whole library runs on a store you wrote.
// Run it with `node examples/custom-store/server.js` after `npm run build`.
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import express from 'express';
import { createWebhookHandler, createWebhookManager } from 'channel-webhooks';
import { createExpressMiddleware } from 'channel-webhooks/express';
import { createMapStore } from './map-store.js';
import { logMessage } from '../shared/log-message.js';

export const DEMO_ACTOR = { userId: 'u-demo', role: 'member' };
export const DEMO_CHANNEL_ID = 'general';

/**
 * Deadlines well under Node's defaults (300 s for a request, 60 s for its headers), as SECURITY.md
 * advises for a webhook endpoint: a sender that trickles bytes cannot hold a connection for minutes.
 */
export const SERVER_OPTIONS = { requestTimeout: 15_000, headersTimeout: 5_000 };

/**
 * Builds the app on a {@link createMapStore} store with a demo channel.
 *
 * @param {object} [options]
 * @param {string} [options.baseUrl] - where the app is reachable; webhook URLs start with it.
 * @param {(message: import('channel-webhooks').Message) => void} [options.onMessage] - called for every new message.
 */
export async function createApp({ baseUrl = 'http://127.0.0.1:3000', onMessage = logMessage } = {}) {
  const store = createMapStore();
  await store.putChannel({ id: DEMO_CHANNEL_ID, ownerId: DEMO_ACTOR.userId, archived: false });
  const manager = createWebhookManager({ store, baseUrl });
  const app = express();
  app.use(createExpressMiddleware(createWebhookHandler({ store, onMessage })));
  return { app, store, manager };
}

/**
 * Runs the example: listens on `host` (loopback unless HOST says otherwise), creates a webhook and
 * prints its URL once.
 *
 * @param {object} [options]
 * @param {number} [options.port] - default PORT or 3000; 0 picks a free port.
 * @param {string} [options.host] - default HOST or 127.0.0.1.
 * @returns {Promise<import('node:http').Server>}
 */
export async function start({ port = Number(process.env.PORT ?? 3000), host = process.env.HOST ?? '127.0.0.1' } = {}) {
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const { app, manager } = await createApp({ baseUrl: origin });
  const server = createServer(SERVER_OPTIONS, app);
  server.on('error', (error) => {
    if (error.code !== 'EADDRINUSE') throw error;
    console.error(
      `Port ${port} is already in use. Choose another one, e.g. PORT=3001 node examples/custom-store/server.js`,
    );
    process.exit(1);
  });
  await new Promise((resolve) => server.listen(port, host, resolve));
  const { url } = await manager.create(DEMO_ACTOR, { channelId: DEMO_CHANNEL_ID, name: 'Demo' });
  console.log(`Listening on ${origin}`);
  console.log(`Webhook URL (shown only once; keep it secret):\n  ${url}\n`);
  console.log(`Try it:\n  curl -i -X POST -H 'Content-Type: application/json' -d '{"text":"Hello from curl"}' ${url}`);
  return server;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await start();
