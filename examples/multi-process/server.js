// Several processes on one machine, one SQLite file: Node's cluster runs WORKERS processes that
// share the port, and every one of them keeps webhooks, messages and the rate limit in DATABASE_FILE.
// Whatever process a post reaches, a key stores one message and a webhook gets 60 posts a minute in
// all. See README.md beside this file.
import cluster from 'node:cluster';
import { createServer } from 'node:http';
import Database from 'better-sqlite3';
import { createWebhookHandler, createWebhookManager } from 'channel-webhooks';
import { createNodeListener } from 'channel-webhooks/node';
import { createSqliteRateLimiter, createSqliteStore } from 'channel-webhooks/sqlite';

const FILE = process.env.DATABASE_FILE || 'webhooks.sqlite';
const PORT = Number(process.env.PORT ?? 3000);
const HOST = process.env.HOST ?? '127.0.0.1';
const WORKERS = Number(process.env.WORKERS ?? 2);

/**
 * Each process opens its own connection; the store and the limiter share it. A worker serving posts
 * turns group commit on: the decisions and inserts of the posts that arrive together go into one
 * transaction (see docs/sqlite.md).
 */
function open({ groupCommit = false } = {}) {
  const database = new Database(FILE);
  return {
    database,
    store: createSqliteStore({ database, groupCommit }),
    rateLimiter: createSqliteRateLimiter({ database, groupCommit }),
  };
}

if (cluster.isPrimary) {
  // The primary migrates and seeds before any worker starts, and makes one webhook to try. A real
  // app creates webhooks through its own signed-in management API (see examples/multi-instance).
  const { database, store } = open();
  store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
  const baseUrl = process.env.BASE_URL ?? `http://${HOST}:${PORT}`;
  const { url } = await createWebhookManager({ store, baseUrl }).create(
    { userId: 'u1', role: 'member' },
    { channelId: 'general', name: 'Deploys' },
  );
  database.close();

  for (let i = 0; i < WORKERS; i++) cluster.fork();
  cluster.on('exit', (worker, code, signal) => {
    // A killed worker loses nothing it answered 201: the file has it. Start another in its place.
    console.error(`worker ${worker.process.pid} exited (${signal ?? code}); starting another`);
    cluster.fork();
  });
  let listening = 0;
  cluster.on('listening', () => {
    if (++listening !== WORKERS) return;
    console.log(`${WORKERS} workers on ${baseUrl}, data in ${FILE}`);
    console.log(`Webhook URL for #general (shown only once; keep it secret):\n  ${url}\n`);
    console.log(`Try it:\n  curl -i -X POST -H 'Content-Type: application/json' -d '{"text":"Hello"}' ${url}\n`);
  });
} else {
  const { store, rateLimiter } = open({ groupCommit: true });
  const handle = createWebhookHandler({
    store,
    rateLimiter,
    // The message text is the sender's: only ids go to the log.
    onMessage: (message) => console.log(`worker ${process.pid} stored ${message.id} in #${message.channelId}`),
    onError: (error, { stage }) => console.error(`worker ${process.pid}: ${stage} failed: ${error?.code ?? error}`),
  });
  createServer({ requestTimeout: 15_000, headersTimeout: 5_000 }, createNodeListener(handle)).listen(PORT, HOST);
}
