// One instance of the feed part's latency runs, in its own process: `node feed-instance.mjs
// <database url>`. The handler on node:http over the PostgreSQL store (table prefix bench_latency_,
// made and seeded by the parent), with `GET /events?after=` serving the channel's feed as
// Server-Sent Events. It tells the parent its port and the time each message was stored, and exits
// when the parent disconnects.

import { createServer } from 'node:http';
import pg from 'pg';
import { portOf, tellParent } from '../child.mjs';

const [databaseUrl] = process.argv.slice(2);
const { createWebhookHandler } = await import('channel-webhooks');
const { createNodeListener, serveFeedEvents } = await import('channel-webhooks/node');
const { createPostgresStore } = await import('channel-webhooks/postgres');

const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
const store = createPostgresStore({ pool, tablePrefix: 'bench_latency_' });
/** @type {import('channel-webhooks').RateLimiter} */
const allowAll = {
  hit: () => ({ allowed: true, limit: 1_000_000, windowMs: 60_000, remaining: 999_999, resetMs: 60_000 }),
};
/**
 * When each message was stored, just before its 201, on a clock every process of the machine shares.
 * @param {import('channel-webhooks').Message} message
 */
const onMessage = (message) =>
  tellParent({ type: 'stored', id: message.id, at: performance.timeOrigin + performance.now() });
const handle = createWebhookHandler({ store, rateLimiter: allowAll, onMessage });
const server = createServer(
  createNodeListener(handle, {
    fallback: (req, res) => {
      const after = new URL(/** @type {string} */ (req.url), 'http://localhost').searchParams.get('after') ?? undefined;
      serveFeedEvents(req, res, { store, channelId: 'general', after, data: ({ message }) => ({ id: message.id }) });
    },
  }),
);
server.listen(0, '127.0.0.1', () => tellParent({ type: 'ready', port: portOf(server) }));
process.on('disconnect', () => {
  server.closeAllConnections();
  server.close(() => pool.end().then(() => process.exit(0)));
});
