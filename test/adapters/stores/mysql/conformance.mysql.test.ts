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
});
