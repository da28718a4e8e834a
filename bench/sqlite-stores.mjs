// The stores the SQLite part compares, each with its own limiter: memory; SQLite on a file (WAL,
// synchronous NORMAL: the store's defaults) with group commit ('sqlite'), as a server runs it; and
// the same without it ('sqlite-before'), from the build in BENCH_BASELINE when one is given, else
// from this build. The limiters allow a million posts per webhook per minute, so that every post is
// stored (a 201) and the runs measure the store, not refusals.

/**
 * @import { MemoryStore, RateLimiter } from 'channel-webhooks'
 * @import { SqliteGroupCommitStore, SqliteStore } from 'channel-webhooks/sqlite'
 */
import { BASELINE, importEntry } from './build.mjs';

export const LIMIT = 1_000_000;

/**
 * Opens `kind` (on `file` for SQLite), seeds `webhooks` webhooks when asked; returns the handler and their paths.
 * @param {'memory' | 'sqlite' | 'sqlite-before'} kind
 * @param {string} file the SQLite file ('' for memory)
 * @param {number} webhooks
 */
export async function openBenchStore(kind, file, webhooks) {
  const root = kind === 'sqlite-before' ? BASELINE : null;
  const [core, sqlite] = await Promise.all([importEntry(root, 'index'), importEntry(root, 'sqlite')]);
  /** @type {MemoryStore | SqliteStore | SqliteGroupCommitStore} */
  let store;
  /** @type {RateLimiter} */
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
