// One world in its own process: `node world-server.mjs` with WORLD (JSON) in the environment:
// { store: 'memory' | 'postgres' | 'sqlite', webhooks, databaseUrl?, prefix?, file?, messages?, keyShare }. It builds or opens
// the world, listens on a free loopback port (node:http, the library's listener) and answers the
// parent over IPC: { run: 'inproc', seconds, concurrency } runs posts through the handler in this
// process; { run: 'cpu' } returns this process's CPU time so far.

import { createServer } from 'node:http';
import { createMemoryRateLimiter, createMemoryStore, createWebhookHandler } from 'channel-webhooks';
import { createNodeListener } from 'channel-webhooks/node';
import { drive } from './drive.mjs';
import { SMALL } from '../payloads.mjs';
import { fillMemoryStore, webhookPath } from './world.mjs';

const world = JSON.parse(process.env.WORLD);
// The limit is far above what a run sends to one webhook: these runs measure the store, and every
// post should be stored. The limiter still holds one entry per webhook that posted.
const rateLimiter = createMemoryRateLimiter({ limit: 1_000_000 });
let pool;
let store;
let heapPerWebhook = null;

if (world.store === 'memory') {
  const { hashSecret } = await import(process.env.CORE_INTERNALS);
  globalThis.gc();
  const before = process.memoryUsage().heapUsed;
  store = createMemoryStore();
  fillMemoryStore(store, world.webhooks, hashSecret);
  globalThis.gc();
  heapPerWebhook = Math.round((process.memoryUsage().heapUsed - before) / world.webhooks);
} else if (world.store === 'sqlite') {
  const { hashSecret } = await import(process.env.CORE_INTERNALS);
  const { openSqliteWorld } = await import('./sqlite-world.mjs');
  ({ store } = await openSqliteWorld(world, hashSecret));
} else {
  const { default: pg } = await import('pg');
  const { createPostgresStore } = await import('channel-webhooks/postgres');
  pool = new pg.Pool({ connectionString: world.databaseUrl, max: world.poolSize ?? 10 });
  pool.on('error', () => {});
  store = createPostgresStore({ pool, tablePrefix: world.prefix });
}

const handle = createWebhookHandler({ store, rateLimiter });
const body = new TextEncoder().encode(SMALL);
const plain = { 'content-type': 'application/json', 'content-length': String(body.byteLength) };
let keyed = 0;
// A share of posts carries a fresh idempotency key, so the key index is written as in production.
const headersOf = () =>
  Math.random() < world.keyShare ? { ...plain, 'idempotency-key': `k-${process.pid}-${keyed++}` } : plain;
const post = async () =>
  (
    await handle({
      method: 'POST',
      url: webhookPath(Math.floor(Math.random() * world.webhooks)),
      headers: headersOf(),
      body: async () => body,
    })
  ).status;

const server = createServer(createNodeListener(handle));
server.keepAliveTimeout = 60_000;
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));

process.on('message', async (command) => {
  if (command.run === 'inproc') {
    process.send({ result: await drive(post, command) });
  } else if (command.run === 'cpu') {
    const cpu = process.cpuUsage();
    process.send({ result: { cpuUs: cpu.user + cpu.system, rssBytes: process.memoryUsage().rss } });
  }
});
process.on('disconnect', async () => {
  server.close();
  await pool?.end();
  process.exit(0);
});
process.send({ ready: true, port: server.address().port, heapPerWebhook });
