// One world in its own process: `node world-server.mjs` with WORLD (JSON) in the environment:
// { store: 'memory' | 'postgres' | 'sqlite', webhooks, databaseUrl?, prefix?, file?, messages?, keyShare }. It builds or opens
// the world, listens on a free loopback port (node:http, the library's listener) and answers the
// parent over IPC: { run: 'inproc', seconds, concurrency } runs posts through the handler in this
// process; { run: 'cpu' } returns this process's CPU time so far.

/**
 * @typedef {{ store: 'memory'; webhooks: number; keyShare: number }} MemoryWorld
 * @typedef {{ store: 'sqlite'; webhooks: number; keyShare: number; file: string; messages: number; cacheMiB: number | undefined; groupCommit: boolean }} SqliteWorld
 * @typedef {{ store: 'postgres'; webhooks: number; keyShare: number; databaseUrl: string; prefix: string; poolSize?: number }} PostgresWorld
 * @typedef {MemoryWorld | SqliteWorld | PostgresWorld} World
 * @typedef {{ run: 'inproc'; seconds: number; concurrency: number } | { run: 'cpu' }} Command
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import { createMemoryRateLimiter, createMemoryStore, createWebhookHandler } from 'channel-webhooks';
import { createNodeListener } from 'channel-webhooks/node';
import { fromEnvironment, portOf, tellParent } from '../child.mjs';
import { drive } from './drive.mjs';
import { SMALL } from '../payloads.mjs';
import { fillMemoryStore, webhookPath } from './world.mjs';

const world = /** @type {World} */ (fromEnvironment('WORLD'));
// The limit is far above what a run sends to one webhook: these runs measure the store, and every
// post should be stored. The limiter still holds one entry per webhook that posted.
const rateLimiter = createMemoryRateLimiter({ limit: 1_000_000 });
/** @type {import('pg').Pool | undefined} */
let pool;
/** @type {import('channel-webhooks').WebhookStore} */
let store;
/** @type {number | null} */
let heapPerWebhook = null;

/**
 * The bundled hashSecret of the core (bench/scale/run.mjs bundles it), by its URL in CORE_INTERNALS.
 * @returns {Promise<Pick<typeof import('../../src/secret/secret.js'), 'hashSecret'>>}
 */
const coreInternals = () => {
  const url = process.env.CORE_INTERNALS;
  if (url === undefined)
    throw new Error('CORE_INTERNALS names the bundle of the core the memory and SQLite worlds use');
  return import(url);
};

if (world.store === 'memory') {
  const { hashSecret } = await coreInternals();
  const { gc } = globalThis;
  if (gc === undefined) throw new Error('a memory world runs with node --expose-gc');
  gc();
  const before = process.memoryUsage().heapUsed;
  const memory = createMemoryStore();
  fillMemoryStore(memory, world.webhooks, hashSecret);
  store = memory;
  gc();
  heapPerWebhook = Math.round((process.memoryUsage().heapUsed - before) / world.webhooks);
} else if (world.store === 'sqlite') {
  const { hashSecret } = await coreInternals();
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
server.listen(0, '127.0.0.1');
await once(server, 'listening');

process.on('message', async (/** @type {Command} */ command) => {
  if (command.run === 'inproc') {
    tellParent({ result: await drive(post, command) });
  } else if (command.run === 'cpu') {
    const cpu = process.cpuUsage();
    tellParent({ result: { cpuUs: cpu.user + cpu.system, rssBytes: process.memoryUsage().rss } });
  }
});
process.on('disconnect', async () => {
  server.close();
  await pool?.end();
  process.exit(0);
});
tellParent({ ready: true, port: portOf(server), heapPerWebhook });
