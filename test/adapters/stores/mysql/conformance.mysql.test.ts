import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createMysqlStore } from '../../../../adapters/stores/mysql/index.js';
import { runStoreConformance } from '../../../../src/testing/index.js';
import { backends } from '../../../support/backends.js';

const { mysqlUrl, title } = backends();
const tablePrefix = 'cwtest_conformance_';

describe.skipIf(mysqlUrl === null)(title('MySQL store', 'mysql'), () => {
  let pool: mysql.Pool;
  let peerPool: mysql.Pool;

  beforeAll(async () => {
    pool = mysql.createPool({ uri: mysqlUrl!, connectionLimit: 16 });
    peerPool = mysql.createPool({ uri: mysqlUrl!, connectionLimit: 16 });
    await createMysqlStore({ pool, tablePrefix }).migrate();
  });
  afterAll(async () => {
    await Promise.all([pool?.end(), peerPool?.end()]);
  });

  runStoreConformance({
    describe,
    it,
    name: 'conformance',
    createStore: () => createMysqlStore({ pool, tablePrefix }),
    // Another pool is another set of sessions, as another instance would have.
    createPeer: () => createMysqlStore({ pool: peerPool, tablePrefix }),
    deleteChannel: async (_store, channelId) => {
      await pool.query(`DELETE FROM ${tablePrefix}channels WHERE id = ?`, [channelId]);
    },
    concurrency: 40,
  });

  // The host app keeps channels in its own table (its own names, its database's collation) and
  // every message in its own table too, written in the guarded insert. Its blocks are text: MariaDB's
  // JSON check refuses the lone surrogates of the suite's exact-text test.
  const channels = { table: 'cwtest_host_channels', id: 'channel_key', ownerId: 'owner', archived: 'is_archived' };
  const messages = {
    table: 'cwtest_host_posts',
    columns: { id: 'message_id', channelId: 'room_id', body: 'text', blocks: 'blocks', createdAt: 'posted_at' },
    values: { kind: 'webhook' },
  };
  const appPrefix = 'cwtest_conformance_app_';
  let appTables: Promise<void> | null = null;
  runStoreConformance({
    describe,
    it,
    name: "conformance with channels and messages in the app's own tables",
    createStore: async () => {
      appTables ??= (async () => {
        await pool.query(
          'CREATE TABLE IF NOT EXISTS cwtest_host_channels (channel_key VARCHAR(80) PRIMARY KEY, owner VARCHAR(80) NOT NULL, is_archived BOOLEAN, topic TEXT) COLLATE utf8mb4_unicode_ci',
        );
        await pool.query(
          'CREATE TABLE IF NOT EXISTS cwtest_host_posts (message_id VARCHAR(64) PRIMARY KEY, room_id VARCHAR(80) NOT NULL, kind VARCHAR(16) NOT NULL, text TEXT NOT NULL, blocks LONGTEXT, posted_at DATETIME(3) NOT NULL) COLLATE utf8mb4_unicode_ci',
        );
        await createMysqlStore({ pool, tablePrefix: appPrefix, channels, messages }).migrate();
      })();
      await appTables;
      return createMysqlStore({ pool, tablePrefix: appPrefix, channels, messages });
    },
    createPeer: () => createMysqlStore({ pool: peerPool, tablePrefix: appPrefix, channels, messages }),
    deleteChannel: async (_store, channelId) => {
      await pool.query('DELETE FROM cwtest_host_channels WHERE channel_key = ?', [channelId]);
    },
    concurrency: 40,
  });
});
