// The stores the SQLite part compares, each with its own limiter: memory; SQLite on a file (WAL,
// synchronous NORMAL: the store's defaults) with group commit ('sqlite'), as a server runs it; and
// the same without it ('sqlite-before'), from the build in BENCH_BASELINE when one is given, else
// from this build. The limiters allow a million posts per webhook per minute, so that every post is
// stored (a 201) and the runs measure the store, not refusals.

import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const LIMIT = 1_000_000;

const importFrom = (root, entry) => import(pathToFileURL(join(root, 'dist', `${entry}.js`)).href);

/** The package's `channel-webhooks` and `channel-webhooks/sqlite`: this build's, or the one under `root`. */
async function packageOf(root) {
  if (root === null) return Promise.all([import('channel-webhooks'), import('channel-webhooks/sqlite')]);
  return Promise.all([importFrom(root, 'index'), importFrom(root, 'sqlite')]);
}

/** Opens `kind` (on `file` for SQLite), seeds `webhooks` webhooks when asked; returns the handler and their paths. */
export async function openBenchStore(kind, file, webhooks) {
  const baseline = kind === 'sqlite-before' ? process.env.BENCH_BASELINE || null : null;
  const [core, sqlite] = await packageOf(baseline);
  let store;
  let rateLimiter;
  if (kind === 'memory') {
    store = core.createMemoryStore();
    rateLimiter = core.createMemoryRateLimiter({ limit: LIMIT });
  } else {
    const { default: Database } = await import('better-sqlite3');
    const database = new Database(file);
    const groupCommit = kind === 'sqlite';
    store = sqlite.createSqliteStore({ database, ...(groupCommit ? { groupCommit } : {}) });
    rateLimiter = sqlite.createSqliteRateLimiter({ database, limit: LIMIT, ...(groupCommit ? { groupCommit } : {}) });
  }
  const paths = [];
  if (webhooks > 0) {
    store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
    const manager = core.createWebhookManager({ store, baseUrl: 'http://127.0.0.1' });
    for (let i = 0; i < webhooks; i++) {
      const { url } = await manager.create(
        { userId: 'u1', role: 'owner' },
        { channelId: 'general', name: `bench ${i}` },
      );
      paths.push(new URL(url).pathname);
    }
  }
  return { handle: core.createWebhookHandler({ store, rateLimiter }), paths };
}
