import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, it } from 'vitest';
import { createSqliteRateLimiter, createSqliteStore } from '../../../../adapters/stores/sqlite/index.js';
import { runRateLimiterConformance, runStoreConformance } from '../../../../src/testing/index.js';

// One database file; each test gets a store on one connection and a peer on another, as two
// processes sharing the file would have.
const dir = mkdtempSync(join(tmpdir(), 'cw-sqlite-conformance-'));
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

describe('SQLite store and rate limiter (better-sqlite3)', () => {
  runStoreConformance({
    describe,
    it,
    name: 'store conformance, two connections on one file',
    createStore: () => createSqliteStore({ database: open() }),
    createPeer: () => createSqliteStore({ database: open() }),
    deleteChannel: (_store, channelId) => {
      open().prepare('DELETE FROM channel_webhooks_channels WHERE id = ?').run(channelId);
    },
  });

  // Each store's own in-memory database, so that a test can delete a channel under it.
  const databases = new WeakMap<object, Database.Database>();
  runStoreConformance({
    describe,
    it,
    name: 'store conformance, in memory, another table prefix, synchronous full',
    createStore: () => {
      const database = new Database(':memory:');
      const store = createSqliteStore({ database, tablePrefix: 'hooks_', synchronous: 'full' });
      databases.set(store, database);
      return store;
    },
    deleteChannel: (store, channelId) => {
      databases.get(store)!.prepare('DELETE FROM hooks_channels WHERE id = ?').run(channelId);
    },
  });

  // The host app keeps channels in its own table, with its own column names.
  const appChannels = { table: 'app_rooms', id: 'room_key', ownerId: 'owner', archived: 'is_archived' };
  runStoreConformance({
    describe,
    it,
    name: "store conformance with channels in the app's own table",
    createStore: () => {
      const database = open();
      database.exec(
        'CREATE TABLE IF NOT EXISTS app_rooms (room_key TEXT PRIMARY KEY, owner TEXT NOT NULL, is_archived INTEGER, topic TEXT)',
      );
      return createSqliteStore({ database, tablePrefix: 'app_', channels: appChannels });
    },
    createPeer: () => createSqliteStore({ database: open(), tablePrefix: 'app_', channels: appChannels }),
    deleteChannel: (_store, channelId) => {
      open().prepare('DELETE FROM app_rooms WHERE room_key = ?').run(channelId);
    },
  });

  // The host app also keeps every message in its own table, written in the guarded insert; with
  // group commit, in the batch's transaction.
  const appMessages = {
    table: 'host_posts',
    columns: { id: 'message_id', channelId: 'room_id', body: 'text', blocks: 'blocks', createdAt: 'posted_at' },
    values: { kind: 'webhook' },
  };
  const withAppPosts = () => {
    const database = open();
    database.exec(
      'CREATE TABLE IF NOT EXISTS host_posts (message_id TEXT PRIMARY KEY, room_id TEXT NOT NULL, kind TEXT NOT NULL, text TEXT NOT NULL, blocks TEXT, posted_at TEXT NOT NULL)',
    );
    return database;
  };
  for (const groupCommit of [false, true]) {
    runStoreConformance({
      describe,
      it,
      name: `store conformance with messages also in the app's own table${groupCommit ? ', group commit' : ''}`,
      createStore: () => createSqliteStore({ database: withAppPosts(), messages: appMessages, groupCommit }),
      createPeer: () => createSqliteStore({ database: withAppPosts(), messages: appMessages, groupCommit }),
      deleteChannel: (_store, channelId) => {
        open().prepare('DELETE FROM channel_webhooks_channels WHERE id = ?').run(channelId);
      },
    });
  }

  runRateLimiterConformance({
    describe,
    it,
    name: 'rate limiter conformance',
    createRateLimiter: ({ limit, windowMs }) => createSqliteRateLimiter({ database: open(), limit, windowMs }),
  });
});
