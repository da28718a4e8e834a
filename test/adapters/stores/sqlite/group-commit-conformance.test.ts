import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, it } from 'vitest';
import { createSqliteRateLimiter, createSqliteStore } from '../../../../adapters/stores/sqlite/index.js';
import { runRateLimiterConformance, runStoreConformance } from '../../../../src/testing/index.js';

// The conformance suites again, with group commit: the same answers, through promises.
const dir = mkdtempSync(join(tmpdir(), 'cw-sqlite-group-commit-'));
const file = join(dir, 'conformance.sqlite');
const connections: Database.Database[] = [];
const open = () => {
  const database = new Database(file);
  connections.push(database);
  return database;
};
afterAll(() => {
  for (const database of connections) database.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('SQLite store and rate limiter with group commit (better-sqlite3)', () => {
  runStoreConformance({
    describe,
    it,
    name: 'store conformance, two connections on one file',
    createStore: () => createSqliteStore({ database: open(), groupCommit: true }),
    createPeer: () => createSqliteStore({ database: open(), groupCommit: true }),
    deleteChannel: (_store, channelId) => {
      open().prepare('DELETE FROM channel_webhooks_channels WHERE id = ?').run(channelId);
    },
  });

  runRateLimiterConformance({
    describe,
    it,
    name: 'rate limiter conformance',
    createRateLimiter: ({ limit, windowMs }) =>
      createSqliteRateLimiter({ database: open(), limit, windowMs, groupCommit: true }),
  });
});
