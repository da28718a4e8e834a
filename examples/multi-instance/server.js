// Two (or more) instances of one app behind a load balancer: webhooks and messages in PostgreSQL
// (or MySQL, MariaDB), the rate limit in Redis, so idempotency, the 60-per-minute limit, rotation and
// revocation hold across all of them. Start it twice on different ports (see README.md).
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import express from 'express';
import { Redis } from 'ioredis';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { createWebhookHandler, createWebhookManager } from 'channel-webhooks';
import { createExpressManagementMiddleware, createExpressMiddleware, serveFeedEvents } from 'channel-webhooks/express';
import { createManagementApi } from 'channel-webhooks/manage';
import { createMysqlStore } from 'channel-webhooks/mysql';
import { createPostgresStore } from 'channel-webhooks/postgres';
import { createRedisFeedNotifier, createRedisRateLimiter } from 'channel-webhooks/redis';

export const DEMO_CHANNEL_ID = 'general';

/** Deadlines well under Node's defaults (300 s / 60 s), as SECURITY.md advises for a webhook endpoint. */
export const SERVER_OPTIONS = { requestTimeout: 15_000, headersTimeout: 5_000 };

/**
 * Builds one instance.
 *
 * @param {object} options
 * @param {string} options.databaseUrl - PostgreSQL (`postgres://…`) or MySQL, MariaDB (`mysql://…`) shared by every instance.
 * @param {string} options.redisUrl - Redis shared by every instance.
 * @param {string} options.baseUrl - public origin of the app (the load balancer's), which webhook URLs start with.
 * @param {string} options.adminToken - bearer token of the /admin routes (the management API), a stand-in for your app's own sign-in.
 * @param {string} [options.tablePrefix] - table prefix.
 * @param {string} [options.keyPrefix] - Redis key prefix.
 * @param {'allow' | 'reject'} [options.onRateLimiterError] - what to do when Redis is down.
 */
export async function createApp(options) {
  // Fail fast while Redis is unreachable instead of queueing commands; the handler then lets posts
  // through unthrottled (or answers 500 with onRateLimiterError: 'reject') and tells onError.
  const redis = new Redis(options.redisUrl, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 500,
    lazyConnect: true,
  });
  redis.on('error', () => {});
  await redis.connect();

  const { store, pool } = openStore(options, redis);
  await store.migrate(); // safe when several instances start at once
  await store.putChannel({ id: DEMO_CHANNEL_ID, ownerId: 'u-demo', archived: false });
  const rateLimiter = createRedisRateLimiter({ client: redis, keyPrefix: options.keyPrefix });
  const handle = createWebhookHandler({
    store,
    rateLimiter,
    onRateLimiterError: options.onRateLimiterError ?? 'allow',
    onError: (error, context) =>
      console.error(`webhook ${context.webhookId ?? '-'} (${context.stage}):`, error.code ?? error.message),
  });
  const manager = createWebhookManager({ store, baseUrl: options.baseUrl });

  // A stand-in for your app's own sign-in: the bearer token is an organization admin's.
  const signedIn = (req) =>
    req.get('authorization') === `Bearer ${options.adminToken}` ? { userId: 'u-admin', role: 'admin' } : null;

  const app = express();
  app.use(createExpressMiddleware(handle));
  app.get('/admin/channels/:id/messages', async (req, res) => {
    if (signedIn(req) === null) return res.status(401).json({ error: 'unauthorized' });
    res.json(await store.listMessages(req.params.id));
  });
  // The channel's messages as Server-Sent Events, from whichever instance stored them: each
  // instance follows the shared feed (PostgreSQL LISTEN/NOTIFY, or on MySQL a notifier through
  // Redis), and a client that reconnects, to
  // this instance or another, resumes after its Last-Event-ID. A browser's EventSource sends no
  // Authorization header: a real app serves this behind its own session cookie.
  const streams = new AbortController();
  app.get('/admin/channels/:id/events', (req, res) => {
    if (signedIn(req) === null) return res.status(401).json({ error: 'unauthorized' });
    serveFeedEvents(req, res, { store, channelId: req.params.id, signal: streams.signal });
  });
  // The management API: list, create, update, rotate and revoke webhooks, and their post history.
  app.use('/admin', createExpressManagementMiddleware(createManagementApi({ manager, authenticate: signedIn })));

  const close = async () => {
    streams.abort();
    await pool.end();
    redis.disconnect();
  };
  return { app, close, endStreams: () => streams.abort() };
}

/**
 * The store `options.databaseUrl` names, and its pool. MySQL has no LISTEN: its feed wakes through
 * Redis, where each instance announces the channels it stored messages in.
 */
function openStore(options, redis) {
  if (options.databaseUrl.startsWith('mysql://')) {
    const pool = mysql.createPool({ uri: options.databaseUrl, connectionLimit: 10 });
    const notifier = createRedisFeedNotifier({ client: redis });
    return { store: createMysqlStore({ pool, tablePrefix: options.tablePrefix, notifier }), pool };
  }
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    // Deadlines on the database side too: a hung database is a quick 500, never a hung request.
    statement_timeout: 5_000,
    connectionTimeoutMillis: 5_000,
  });
  pool.on('error', (error) => console.error('PostgreSQL: an idle connection failed:', error.message));
  return { store: createPostgresStore({ pool, tablePrefix: options.tablePrefix }), pool };
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
  // A deploy's SIGTERM: the event streams end and their connections close, so that each browser
  // reconnects through the load balancer to another instance and resumes after its last event;
  // the server stops listening at once and closes when the posts in flight are answered. Those
  // answers go with `Connection: close`: the proxy's kept-alive connection they came on would
  // otherwise stay open, and server.close() wait keepAliveTimeout (5 s) for it.
  let stopping = false;
  const answering = new Set();
  server.on('request', (_req, res) => {
    if (stopping) res.setHeader('connection', 'close');
    answering.add(res);
    res.on('close', () => answering.delete(res));
  });
  const stop = () => {
    stopping = true;
    for (const res of answering) if (!res.headersSent) res.setHeader('connection', 'close');
    endStreams();
    server.close(() => close().then(() => process.exit(0)));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
