import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMysqlStore, type MysqlStore } from '../../../../adapters/stores/mysql/index.js';
import { randomId } from '../../../../src/testing/fixtures.js';
import { backends } from '../../../support/backends.js';
import { postRecord } from '../../../support/post-records.js';
import { recordingPool } from './recording-pool.js';

const { mysqlUrl, title } = backends();
const tablePrefix = 'cwtest_history_';
const minute = Math.ceil(Date.UTC(2026, 0, 1, 12) / 60_000) * 60_000;

const record = postRecord;
const limited = (webhookId: string, at: number, count = 1) =>
  record(webhookId, at, { status: 429, code: 'rate_limited', messageId: null, bodyBytes: null, count });

describe.skipIf(mysqlUrl === null)(title('MySQL post history on MariaDB', 'mysql'), () => {
  let pool: mysql.Pool;
  let store: MysqlStore;
  const sent: string[] = [];

  beforeAll(async () => {
    pool = mysql.createPool({ uri: mysqlUrl!, connectionLimit: 4 });
    store = createMysqlStore({ pool: recordingPool(pool, sent), tablePrefix });
    await store.migrate();
  });
  afterAll(async () => {
    await pool?.end();
  });

  const table = (sql: string) => /^\s*(\w+(?: INTO)?) (\S+)/.exec(sql)?.slice(1).join(' ') ?? sql;

  it('a batch of many webhooks is one statement for their heads, one to read them and one for their records', async () => {
    const webhookIds = Array.from({ length: 40 }, () => `wh_${randomId()}`);
    const records = webhookIds.flatMap((webhookId, i) => [
      record(webhookId, minute + i),
      record(webhookId, minute + i),
    ]);
    const from = sent.length;
    await store.recordPosts(records);
    expect(sent.slice(from).map(table)).toEqual([
      'SET TRANSACTION',
      'START TRANSACTION',
      `INSERT INTO ${tablePrefix}post_heads`,
      `SELECT webhook_id,`,
      `INSERT INTO ${tablePrefix}posts`,
      'COMMIT',
    ]);
    for (const webhookId of webhookIds)
      expect(await store.listPosts(webhookId, 100)).toEqual(records.filter((r) => r.webhookId === webhookId).reverse());
  });

  it("a batch with 429s reads its rings' 415s and 429s once, and gives back the places of those that joined their minute", async () => {
    const [a, b] = [`wh_${randomId()}`, `wh_${randomId()}`];
    const earlier = record(b, minute);
    await store.recordPosts([limited(a, minute + 1_000), earlier]);
    const from = sent.length;
    const [first, second] = [record(a, minute + 2_000), record(b, minute + 3_000)];
    await store.recordPosts([first, limited(a, minute + 2_500, 2), limited(b, minute + 4_000), second]);
    expect(sent.slice(from).map(table)).toEqual([
      'SET TRANSACTION',
      'START TRANSACTION',
      `INSERT INTO ${tablePrefix}post_heads`,
      'SELECT webhook_id,',
      'SELECT slot,',
      `UPDATE ${tablePrefix}post_heads`,
      `INSERT INTO ${tablePrefix}posts`,
      'COMMIT',
    ]);
    expect(await store.listPosts(a, 100)).toEqual([first, limited(a, minute + 1_000, 3)]);
    expect(await store.listPosts(b, 100)).toEqual([second, limited(b, minute + 4_000), earlier]);
    // The place given back is the next record's: the ring's positions run without a gap.
    const next = record(a, minute + 5_000);
    await store.recordPosts([next]);
    expect(await store.listPosts(a, 100)).toEqual([next, first, limited(a, minute + 1_000, 3)]);
    const [positions] = await pool.query(
      `SELECT position FROM ${tablePrefix}posts WHERE webhook_id = ? ORDER BY position`,
      [a],
    );
    expect(positions).toEqual([{ position: 0 }, { position: 1 }, { position: 2 }]);
  });

  it('a record the server refuses fails alone: the rest of its batch is kept, and the failure says how many', async () => {
    const [a, b] = [`wh_${randomId()}`, `wh_${randomId()}`];
    // Its key's JSON text is longer than the 65,535 bytes a TEXT column holds.
    const refused = record(a, minute + 1, { idempotencyKey: '\u0000'.repeat(11_000) });
    const kept = [record(a, minute), record(b, minute + 2), record(a, minute + 3)];
    const error = await store.recordPosts([kept[0]!, refused, kept[1]!, kept[2]!]).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'ChannelWebhookError', code: 'store_failed' });
    expect((error as Error).message).toBe(
      'MySQL store: recordPosts failed for 1 of 4 records, each written alone; the others are kept',
    );
    expect((error as Error).cause).toMatchObject({ cause: { errno: 1406 } });
    expect(await store.listPosts(a, 100)).toEqual([kept[2], kept[0]]);
    expect(await store.listPosts(b, 100)).toEqual([kept[1]]);
  });
});
