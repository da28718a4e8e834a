// Express example: the webhook middleware mounted before the app's body parser, on a SQLite file
// (STORE=memory: in memory; see ./store.js). `npm start` runs it with the demo page (see ./demo);
// tests import `createApp` and `start` and run the very same app.
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import express from 'express';
import { createWebhookHandler, createWebhookManager, FEED_EVENT_HEADERS } from 'channel-webhooks';
import { createExpressMiddleware } from 'channel-webhooks/express';
import { answerWithoutInternals, createDemo, isLoopback } from './demo/create-demo.js';
import { logMessage } from '../shared/log-message.js';
import { openStore } from './store.js';

/** The demo user: owner of the demo channel, so allowed to manage its webhooks. */
export const DEMO_ACTOR = { userId: 'u-demo', role: 'member' };
export const DEMO_CHANNEL_ID = 'general';

/**
 * Deadlines well under Node's defaults (300 s for a request, 60 s for its headers), as SECURITY.md
 * advises for a webhook endpoint: a sender that trickles bytes cannot hold a connection for minutes.
 */
export const SERVER_OPTIONS = { requestTimeout: 15_000, headersTimeout: 5_000 };

/**
 * Builds the app with a demo channel.
 *
 * @param {object} [options]
 * @param {string} [options.baseUrl] - where the app is reachable; webhook URLs start with it.
 * @param {(message: import('channel-webhooks').Message) => void} [options.onMessage] - called for every new message.
 * @param {boolean} [options.demo] - DEMO ONLY: mount the demo page and the management API behind a
 *   sign-in that lets in the page itself, over loopback (./demo). Never in a real app, and only on a
 *   server bound to loopback.
 * @param {AbortSignal} [options.streams] - aborted at shutdown: ends the page's message streams.
 */
export async function createApp({
  baseUrl = 'http://127.0.0.1:3000',
  onMessage = logMessage,
  demo = false,
  streams,
} = {}) {
  const { store, rateLimiter, where } = await openStore();
  await store.putChannel({ id: DEMO_CHANNEL_ID, ownerId: DEMO_ACTOR.userId, archived: false });
  const manager = createWebhookManager({ store, baseUrl });
  // onMessage is the in-process hook (here: a log line); the page follows the store's feed.
  const handle = createWebhookHandler({ store, rateLimiter, onMessage });
  const page = demo
    ? createDemo({ store, manager, handle, actor: DEMO_ACTOR, channelId: DEMO_CHANNEL_ID, signal: streams })
    : null;

  const app = express();
  app.disable('x-powered-by');
  // Before any body parser: the middleware reads (and size-limits) the webhook body itself.
  app.use(createExpressMiddleware(handle));
  if (page !== null) app.use(page.router);
  app.use(express.json());
  app.use(answerWithoutInternals);
  return { app, store, manager, where };
}

/**
 * The name of the webhook a start creates: "Demo" and the time of that start. Each start makes one,
 * and the earlier ones stay: their URLs were printed once and may be in a sender's settings, and
 * only their hashes are kept, so a start can neither print an earlier URL again nor take it over
 * without breaking it. The time tells them apart on the page, where the old ones can be revoked.
 *
 * @param {Date} started
 * @returns {string}
 * @example
 * startupWebhookName(new Date('2026-05-04T09:30:12Z')); // 'Demo, started 2026-05-04 09:30:12 UTC'
 */
export function startupWebhookName(started) {
  return `Demo, started ${started.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/**
 * Runs the example: listens on `host` (loopback unless HOST says otherwise), creates a webhook named
 * by the time of this start ({@link startupWebhookName}) and prints its URL once. The demo page is on
 * unless DEMO=off, and only ever on a loopback address.
 *
 * @param {object} [options]
 * @param {number} [options.port] - default PORT or 3000; 0 picks a free port.
 * @param {string} [options.host] - default HOST or 127.0.0.1.
 * @param {AbortSignal} [options.streams] - aborted at shutdown: ends the page's message streams.
 * @returns {Promise<import('node:http').Server>}
 */
export async function start({
  port = Number(process.env.PORT ?? 3000),
  host = process.env.HOST ?? '127.0.0.1',
  streams,
} = {}) {
  const demo = process.env.DEMO !== 'off' && isLoopback(host);
  // Listening comes first, so that the origin has the port the system gave (PORT=0 picks a free
  // one) before any URL is made with it; a request that comes before the app is ready gets a 503.
  // But the page's message stream: its EventSource would give up for good on any status but 200,
  // so it gets a stream that ends at once, and the browser tries again after its retry delay.
  let app = (req, res) => {
    if (req.headers.accept === 'text/event-stream') return res.writeHead(200, FEED_EVENT_HEADERS).end();
    res.writeHead(503, { 'retry-after': '1' }).end();
  };
  const server = createServer(SERVER_OPTIONS, (req, res) => app(req, res));
  server.on('error', (error) => {
    if (error.code !== 'EADDRINUSE') throw error;
    console.error(`Port ${port} is already in use. Choose another one, e.g. PORT=3001 npm start`);
    process.exit(1);
  });
  await new Promise((resolve) => server.listen(port, host, resolve));
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${server.address().port}`;
  const created = await createApp({ baseUrl: origin, demo, streams });
  app = created.app;
  console.log(created.where);
  const name = startupWebhookName(new Date());
  const { url } = await created.manager.create(DEMO_ACTOR, { channelId: DEMO_CHANNEL_ID, name });
  console.log(`Listening on ${origin}`);
  if (demo) console.log(`Demo page (loopback only): ${origin}/`);
  else if (process.env.DEMO !== 'off') console.log(`Demo page off: it is served only on a loopback HOST.`);
  console.log(`URL of the webhook "${name}" in #${DEMO_CHANNEL_ID} (shown only once; keep it secret):\n  ${url}\n`);
  console.log(
    `Try it:\n  curl -i -X POST -H 'Content-Type: application/json' -d '{"text":"Hello from curl"}' ${url}\n`,
  );
  return server;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const streams = new AbortController();
  const server = await start({ streams: streams.signal });
  // Ctrl-C or a SIGTERM: the page's streams end and their connections close, so the server closes
  // once the requests in flight are answered, and the page resumes on the next start. A second
  // Ctrl-C stops the process at once.
  const stop = () => {
    streams.abort();
    server.close(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
