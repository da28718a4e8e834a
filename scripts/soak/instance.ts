// One instance of the soak's app on node:http, on the port in SOAK_PORT: on the SQLite file in
// SOAK_SQLITE_FILE (the store and the limiter on one connection, as examples/multi-process opens
// it, with group commit unless SOAK_GROUP_COMMIT=off), or in memory. The PostgreSQL target runs examples/multi-instance/server.js instead.
import Database from 'better-sqlite3';
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createNodeListener } from '../../adapters/frameworks/node/index.js';
import { createSqliteRateLimiter, createSqliteStore } from '../../adapters/stores/sqlite/index.js';
import {
  createMemoryRateLimiter,
  createMemoryStore,
  createWebhookHandler,
  createWebhookManager,
  type RateLimiter,
  type WebhookStore,
} from '../../src/index.js';
import { createBoundedMemoryStore } from './bounded-memory-store.js';
import { CHANNEL_ID, PROBE_CHANNEL_ID, PROBE_WEBHOOKS } from './world.js';

/** The deadlines of examples/multi-instance and SECURITY.md's advice, on every target. */
const SERVER_OPTIONS = { requestTimeout: 15_000, headersTimeout: 5_000 };

const port = Number(process.env.SOAK_PORT);
const file = process.env.SOAK_SQLITE_FILE;

async function open(): Promise<{ store: WebhookStore; rateLimiter: RateLimiter; seeded: string[] }> {
  if (file !== undefined) {
    const database = new Database(file);
    if (process.env.SOAK_GROUP_COMMIT === 'off')
      return { store: createSqliteStore({ database }), rateLimiter: createSqliteRateLimiter({ database }), seeded: [] };
    return {
      store: createSqliteStore({ database, groupCommit: true }),
      rateLimiter: createSqliteRateLimiter({ database, groupCommit: true }),
      seeded: [],
    };
  }
  // In memory the instance is the only one and seeds its own webhooks; what it stores goes to a
  // file the checker reads, so the process holds no message and its heap measures the library.
  const seed = createMemoryStore();
  const store = createBoundedMemoryStore(seed, (message) =>
    appendFileSync(process.env.SOAK_MESSAGES_FILE!, `${JSON.stringify(message)}\n`),
  );
  const manager = createWebhookManager({ store: seed, baseUrl: 'http://127.0.0.1' });
  const owner = { userId: 'soak', role: 'owner' } as const;
  const seeded: string[] = [];
  for (const channelId of [CHANNEL_ID, PROBE_CHANNEL_ID])
    await seed.putChannel({ id: channelId, ownerId: 'soak', archived: false });
  for (let i = 0; i < Number(process.env.SOAK_WEBHOOKS) + PROBE_WEBHOOKS; i++) {
    const channelId = i < Number(process.env.SOAK_WEBHOOKS) ? CHANNEL_ID : PROBE_CHANNEL_ID;
    seeded.push((await manager.create(owner, { channelId, name: `soak ${i}` })).url);
  }
  return { store, rateLimiter: createMemoryRateLimiter(), seeded };
}

const { store, rateLimiter, seeded } = await open();
const handle = createWebhookHandler({
  store,
  rateLimiter,
  // What failed goes to stderr, by code only: the soak counts the lines.
  onError: (error, { stage }) =>
    process.stderr.write(`${stage}: ${(error as { code?: string }).code ?? String(error)}\n`),
});
const server = createServer(SERVER_OPTIONS, createNodeListener(handle));
server.listen(port, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ listening: port, seeded })}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
