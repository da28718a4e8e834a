// Where `npm start` keeps its channel: in a SQLite file, so webhooks and messages survive a restart,
// or in memory with STORE=memory (nothing survives). STORE_FILE picks another file.
import { mkdirSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMemoryRateLimiter, createMemoryStore } from 'channel-webhooks';

/** The demo's database file: `.data/demo.sqlite` at the repository's root (git-ignored). */
export const DEMO_DATABASE = fileURLToPath(new URL('../../.data/demo.sqlite', import.meta.url));

/**
 * Opens the store and rate limiter the environment asks for, and a line saying where the data is.
 *
 * @param {object} [options]
 * @param {string} [options.kind] - `sqlite` or `memory`; default STORE, else `sqlite`.
 * @param {string} [options.file] - the SQLite file; default STORE_FILE, else {@link DEMO_DATABASE}.
 */
export async function openStore({
  kind = process.env.STORE || 'sqlite',
  file = process.env.STORE_FILE || DEMO_DATABASE,
} = {}) {
  if (kind === 'memory') {
    return {
      store: createMemoryStore(),
      rateLimiter: createMemoryRateLimiter(),
      where: 'Data: in memory (STORE=memory), gone when the process stops.',
    };
  }
  if (kind !== 'sqlite') throw new Error(`STORE must be "sqlite" or "memory", got ${JSON.stringify(kind)}`);
  // Loaded only here, so that STORE=memory runs without the SQLite driver.
  const [{ default: Database }, { createSqliteRateLimiter, createSqliteStore }] = await Promise.all([
    import('better-sqlite3'),
    import('channel-webhooks/sqlite'),
  ]);
  mkdirSync(dirname(file), { recursive: true });
  const database = new Database(file);
  const shown = relative(process.cwd(), file);
  return {
    store: createSqliteStore({ database }),
    rateLimiter: createSqliteRateLimiter({ database }),
    where: `Data: SQLite file ${shown.startsWith('..') ? file : shown}, kept across restarts (STORE=memory keeps nothing).`,
  };
}
