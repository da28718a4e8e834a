// Two (or more) instances of one app behind a load balancer: webhooks and messages in PostgreSQL,
// the rate limit in Redis, so idempotency, the 60-per-minute limit, rotation and revocation hold
// across all of them. Start it twice on different ports (see README.md).
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import express from 'express';
import { Redis } from 'ioredis';
import pg from 'pg';
import { createWebhookHandler, createWebhookManager } from 'channel-webhooks';
import { createExpressMiddleware, serveFeedEvents } from 'channel-webhooks/express';
import { createPostgresStore } from 'channel-webhooks/postgres';
import { createRedisRateLimiter } from 'channel-webhooks/redis';

export const DEMO_CHANNEL_ID = 'general';

/** Deadlines well under Node's defaults (300 s / 60 s), as SECURITY.md advises for a webhook endpoint. */
export const SERVER_OPTIONS = { requestTimeout: 15_000, headersTimeout: 5_000 };

/**
 * Builds one instance.
 *
 * @param {object} options
 * @param {string} options.databaseUrl - PostgreSQL shared by every instance.
 * @param {string} options.redisUrl - Redis shared by every instance.
 * @param {string} options.baseUrl - public origin of the app (the load balancer's), which webhook URLs start with.
 * @param {string} options.adminToken - bearer token of the admin routes, a stand-in for your app's own sign-in.
 * @param {string} [options.tablePrefix] - PostgreSQL table prefix.
 * @param {string} [options.keyPrefix] - Redis key prefix.
 * @param {'allow' | 'reject'} [options.onRateLimiterError] - what to do when Redis is down.
 */
export async function createApp(options) {
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    // Deadlines on the database side too: a hung database is a quick 500, never a hung request.
    statement_timeout: 5_000,
    connectionTimeoutMillis: 5_000,
  });
  pool.on('error', (error) => console.error('PostgreSQL: an idle connection failed:', error.message));
  // Fail fast while Redis is unreachable instead of queueing commands; the handler then lets posts
  // through unthrottled (or answers 500 with onRateLimiterError: 'reject') and tells onError.
  const redis = new Redis(options.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 500, lazyConnect: true });
  redis.on('error', () => {});
  await redis.connect();

  const store = createPostgresStore({ pool, tablePrefix: options.tablePrefix });
  await store.migrate(); // safe when several instances start at once
  await store.putChannel({ id: DEMO_CHANNEL_ID, ownerId: 'u-demo', archived: false });
  const rateLimiter = createRedisRateLimiter({ client: redis, keyPrefix: options.keyPrefix });
  const handle = createWebhookHandler({
    store,
    rateLimiter,
    onRateLimiterError: options.onRateLimiterError ?? 'allow',
    onError: (error, context) => console.error(`webhook ${context.webhookId ?? '-'} (${context.stage}):`, error.code ?? error.message),
  });
  const manager = createWebhookManager({ store, baseUrl: options.baseUrl });

  const app = express();
  app.use(createExpressMiddleware(handle));
  app.use(express.json());

  const admin = express.Router();
  admin.use((req, res, next) => {
    if (req.get('authorization') === `Bearer ${options.adminToken}`) return next();
    res.status(401).json({ error: 'unauthorized' });
  });
  const actor = { userId: 'u-admin', role: 'admin' };
  const answer = (work) => async (req, res) => {
    try {
      res.json(await work(req));
    } catch (error) {
      const status = { forbidden: 403, webhook_not_found: 404, channel_not_found: 404, webhook_revoked: 409, channel_archived: 409 }[error.code] ?? 400;
      res.status(error.code === undefined ? 500 : status).json({ error: error.code ?? 'internal', message: error.message });
    }
  };
  admin.post(
    '/webhooks',
    answer((req) => manager.create(actor, { channelId: req.body.channelId ?? DEMO_CHANNEL_ID, name: req.body.name })),
  );
  admin.post(
    '/webhooks/:id/rotate',
    answer((req) => manager.rotate(actor, req.params.id)),
  );
  admin.post(
    '/webhooks/:id/revoke',
    answer((req) => manager.revoke(actor, req.params.id)),
  );
  admin.get(
    '/channels/:id/messages',
    answer((req) => store.listMessages(req.params.id)),
  );
  // The channel's messages as Server-Sent Events, from whichever instance stored them: each
  // instance follows the shared feed (PostgreSQL LISTEN/NOTIFY), and a client that reconnects, to
  // this instance or another, resumes after its Last-Event-ID. A browser's EventSource sends no
  // Authorization header: a real app serves this behind its own session cookie.
  const streams = new AbortController();
  admin.get('/channels/:id/events', (req, res) => serveFeedEvents(req, res, { store, channelId: req.params.id, signal: streams.signal }));
  app.use('/admin', admin);

  const close = async () => {
    streams.abort();
    await pool.end();
    redis.disconnect();
  };
  return { app, close, endStreams: () => streams.abort() };
}

async function main() {
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST ?? '127.0.0.1';
  const adminToken = process.env.ADMIN_TOKEN;
  if (!adminToken) throw new Error('Set ADMIN_TOKEN: the bearer token of the /admin routes');
  const { app, close, endStreams } = await createApp({
    databaseUrl: process.env.DATABASE_URL ?? 'postgres://localhost/postgres',
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    baseUrl: process.env.BASE_URL ?? `http://localhost:${port}`,
    adminToken,
    tablePrefix: process.env.TABLE_PREFIX,
    keyPrefix: process.env.KEY_PREFIX,
    onRateLimiterError: process.env.ON_RATE_LIMITER_ERROR,
  });
  const server = createServer(SERVER_OPTIONS, app);
  server.listen(port, host, () => {
    console.log(`Listening on http://${host}:${server.address().port}`);
  });
  // The event streams end first (their clients reconnect to another instance), so that the server
  // can close.
  const stop = () => {
    server.close(() => close().then(() => process.exit(0)));
    endStreams();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
