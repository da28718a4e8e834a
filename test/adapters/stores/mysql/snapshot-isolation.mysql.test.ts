import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMysqlStore, type MysqlPool, type MysqlStore } from '../../../../adapters/stores/mysql/index.js';
import type { Message, WebhookRecord } from '../../../../src/index.js';
import { runStoreConformance } from '../../../../src/testing/index.js';
import { insertInput, makeMessage, makeWebhook, randomId } from '../../../../src/testing/fixtures.js';
import { backends } from '../../../support/backends.js';
import { postRecord } from '../../../support/post-records.js';
import { recordingPool } from './recording-pool.js';

const { mysqlUrl, title } = backends();
const tablePrefix = 'cwtest_snapshot_';
const t0 = Date.UTC(2026, 0, 1, 12);

/**
 * A pool whose every connection runs with `innodb_snapshot_isolation` on, as MariaDB 11.6.2 and
 * later do by default: a REPEATABLE READ transaction that read plainly, then locks or changes a row
 * another transaction changed and committed since that read, fails with error 1020.
 */
function snapshotPool(connectionLimit: number): mysql.Pool {
  const pool = mysql.createPool({ uri: mysqlUrl!, connectionLimit });
  pool.on('connection', (connection) => {
    connection.query('SET SESSION innodb_snapshot_isolation = ON');
  });
  return pool;
}

const record = postRecord;

describe.skipIf(mysqlUrl === null)(title('MySQL store with innodb_snapshot_isolation on', 'mysql'), () => {
  let pool: mysql.Pool;
  let peerPool: mysql.Pool;
  let store: MysqlStore;
  let peer: MysqlStore;
  // The statements both instances sent, in order.
  const sent: string[] = [];

  beforeAll(async () => {
    pool = snapshotPool(10);
    peerPool = snapshotPool(10);
    store = createMysqlStore({ pool: recordingPool(pool, sent), tablePrefix });
    await store.migrate();
    peer = createMysqlStore({ pool: recordingPool(peerPool, sent), tablePrefix });
  });
  afterAll(async () => {
    await Promise.all([pool?.end(), peerPool?.end()]);
  });

  const failures = (from: number) => sent.slice(from).filter((sql) => sql.startsWith('failed'));
  const seeded = async (): Promise<WebhookRecord> => {
    const webhook = makeWebhook(`c_${randomId()}`, t0);
    await store.putChannel({ id: webhook.channelId, ownerId: 'u1', archived: false });
    await store.insertWebhook(webhook);
    return webhook;
  };

  it('runs on connections with the setting on', async () => {
    const connection = await pool.getConnection();
    try {
      const [rows] = await connection.query('SELECT @@innodb_snapshot_isolation AS on_');
      expect(rows).toEqual([{ on_: 1 }]);
    } finally {
      connection.release();
    }
  });

  it('two instances posting with keys and without, alone and in batches, store each post once, no statement failing', async () => {
    const webhooks = await Promise.all(Array.from({ length: 4 }, () => seeded()));
    const keys = [...Array.from({ length: 10 }, (_, i) => `k${i}`), null, null];
    const plan = webhooks.flatMap((webhook) => keys.map((key) => [webhook, key] as const));
    const from = sent.length;
    // One instance sends every post at once (the first alone, the rest in batches); the other one
    // post at a time, each alone, the other way round.
    const [batched, alone] = await Promise.all([
      Promise.all(
        plan.map(([webhook, key]) =>
          store.insertMessage(insertInput(webhook, makeMessage(webhook, t0 + 1), key)).then((result) => ({
            webhook,
            key,
            result,
          })),
        ),
      ),
      (async () => {
        const results = [];
        for (const [webhook, key] of [...plan].reverse()) {
          const result = await peer.insertMessage(insertInput(webhook, makeMessage(webhook, t0 + 2), key));
          results.push({ webhook, key, result });
        }
        return results;
      })(),
    ]);
    expect(failures(from)).toEqual([]);
    const byKey = new Map<string, Set<string>>();
    for (const { webhook, key, result } of [...batched, ...alone]) {
      expect(key === null ? ['created'] : ['created', 'duplicate']).toContain(result.outcome);
      if (key === null) continue;
      const ids = byKey.get(`${webhook.id} ${key}`) ?? new Set();
      ids.add((result as { message: Message }).message.id);
      byKey.set(`${webhook.id} ${key}`, ids);
    }
    for (const ids of byKey.values()) expect(ids.size).toBe(1);
    for (const webhook of webhooks)
      expect((await store.listMessages(webhook.channelId)).length).toBe(keys.length - 2 + 4);
  });

  it("posts to the app's tables, whose trigger reads, from four instances: each stored once, no statement failing", async () => {
    for (const statement of [
      'DROP TABLE IF EXISTS cwtest_si_posts',
      'DROP TABLE IF EXISTS cwtest_si_rooms',
      'CREATE TABLE cwtest_si_rooms (room_key VARCHAR(80) PRIMARY KEY, owner VARCHAR(80) NOT NULL, is_archived BOOLEAN)',
      'CREATE TABLE cwtest_si_posts (message_id VARCHAR(64) PRIMARY KEY, room_id VARCHAR(80) NOT NULL, text TEXT NOT NULL, earlier INT)',
      // A plain read in the insert's transaction, as an app's trigger may make.
      `CREATE TRIGGER cwtest_si_count BEFORE INSERT ON cwtest_si_posts FOR EACH ROW
         SET NEW.earlier = (SELECT COUNT(*) FROM cwtest_si_posts WHERE room_id = NEW.room_id)`,
    ])
      await pool.query(statement);
    const mapping = {
      channels: { table: 'cwtest_si_rooms', id: 'room_key', ownerId: 'owner', archived: 'is_archived' },
      messages: { table: 'cwtest_si_posts', columns: { id: 'message_id', channelId: 'room_id', body: 'text' } },
    };
    // Four instances, each posting one at a time: every post goes alone.
    const instances = [pool, peerPool, pool, peerPool].map((on) =>
      createMysqlStore({ pool: recordingPool(on, sent), tablePrefix, ...mapping }),
    );
    const webhooks = Array.from({ length: 3 }, () => makeWebhook(`room_${randomId()}`, t0));
    for (const webhook of webhooks) {
      await instances[0]!.putChannel({ id: webhook.channelId, ownerId: 'u1', archived: false });
      await instances[0]!.insertWebhook(webhook);
    }
    const from = sent.length;
    const outcomes = await Promise.all(
      instances.map(async (instance) => {
        const seen = new Set<string>();
        for (let i = 0; i < 30; i++) {
          const webhook = webhooks[i % 3]!;
          seen.add((await instance.insertMessage(insertInput(webhook, makeMessage(webhook, t0 + 1), null))).outcome);
        }
        return [...seen];
      }),
    );
    expect(failures(from)).toEqual([]);
    expect(outcomes).toEqual(instances.map(() => ['created']));
    const [rows] = await pool.query('SELECT room_id, COUNT(*) AS n FROM cwtest_si_posts GROUP BY room_id');
    expect(rows).toEqual(expect.arrayContaining(webhooks.map((webhook) => ({ room_id: webhook.channelId, n: 40 }))));
  });

  it('two instances recording the history of the same webhooks at once lose nothing, no statement failing', async () => {
    const webhookIds = Array.from({ length: 6 }, () => `wh_${randomId()}`);
    const minute = Math.ceil(t0 / 60_000) * 60_000;
    // Each batch has a record of every webhook and a 429 of the minute, in its own order.
    const batches = (instance: string, order: string[]) =>
      Array.from({ length: 8 }, (_, b) =>
        order.flatMap((webhookId, i) => [
          record(webhookId, minute + b * 100 + i, { idempotencyKey: `${instance}-${b}` }),
          record(webhookId, minute + b * 100 + i, { status: 429, code: 'rate_limited', messageId: null }),
        ]),
      );
    const from = sent.length;
    await Promise.all([
      ...batches('a', webhookIds).map((batch) => store.recordPosts(batch)),
      ...batches('b', [...webhookIds].reverse()).map((batch) => peer.recordPosts(batch)),
    ]);
    expect(failures(from)).toEqual([]);
    for (const webhookId of webhookIds) {
      const kept = await store.listPosts(webhookId, 100);
      expect(kept.filter((post) => post.status === 429)).toEqual([expect.objectContaining({ status: 429, count: 16 })]);
      expect(kept.filter((post) => post.status === 201).length).toBe(16);
    }
  });

  // During a rolling upgrade, an instance of the release before adds a 429 to its minute's record
  // with an UPDATE of that row alone, without the webhook's head.
  it("an older instance adding to a minute's record while a batch holds the heads: both counts are kept, no statement failing", async () => {
    const webhookId = `wh_${randomId()}`;
    const minute = Math.ceil(t0 / 60_000) * 60_000;
    const limited = (at: number, count: number) =>
      record(webhookId, at, { status: 429, code: 'rate_limited', messageId: null, bodyBytes: null, count });
    await store.recordPosts([limited(minute + 1_000, 1)]);
    const older = `UPDATE ${tablePrefix}posts SET count = count + 5, at = LEAST(at, ?) WHERE webhook_id = ? AND status = 429 AND at DIV 60000 = ?`;
    let added = false;
    const racing: MysqlPool = {
      query: (query) => pool.query(query),
      async getConnection() {
        const connection = await pool.getConnection();
        return {
          async query(query) {
            const answer = await connection.query(query);
            // Right after the batch read the 415s and 429s of its rings.
            if (!added && query.sql.includes('status IN (415, 429)')) {
              added = true;
              await peerPool.query(older, [minute + 500, webhookId, minute / 60_000]);
            }
            return answer;
          },
          release: () => connection.release(),
          destroy: () => connection.destroy(),
        };
      },
    };
    const from = sent.length;
    const next = record(webhookId, minute + 3_000);
    await createMysqlStore({ pool: recordingPool(racing, sent), tablePrefix }).recordPosts([
      limited(minute + 2_000, 2),
      next,
    ]);
    expect(added).toBe(true);
    expect(failures(from)).toEqual([]);
    expect(await store.listPosts(webhookId, 100)).toEqual([next, limited(minute + 500, 8)]);
  });

  it('pruning while both instances post fails no statement, and the feed keeps every message after it', async () => {
    const webhooks = await Promise.all([seeded(), seeded()]);
    for (const webhook of webhooks)
      for (let i = 0; i < 20; i++) await store.insertMessage(insertInput(webhook, makeMessage(webhook, t0), null));
    const from = sent.length;
    const posting = (instance: MysqlStore) =>
      Promise.all(
        Array.from({ length: 40 }, (_, i) => {
          const webhook = webhooks[i % 2]!;
          return instance.insertMessage(insertInput(webhook, makeMessage(webhook, Date.now()), `p${i}`));
        }),
      );
    const pruning = async () => {
      let removed = 0;
      for (let pruned = -1; pruned !== 0; removed += pruned) pruned = await peer.pruneMessages(t0 + 1, 5);
      return removed;
    };
    const [, , removed] = await Promise.all([posting(store), posting(peer), pruning()]);
    expect(failures(from)).toEqual([]);
    expect(removed).toBeGreaterThanOrEqual(40);
    for (const webhook of webhooks) expect((await store.listMessages(webhook.channelId)).length).toBe(20);
  });
});

describe.skipIf(mysqlUrl === null)(title('MySQL store with innodb_snapshot_isolation on: conformance', 'mysql'), () => {
  let pool: mysql.Pool;
  let peerPool: mysql.Pool;
  const prefix = 'cwtest_snapshot_conformance_';

  beforeAll(async () => {
    pool = snapshotPool(16);
    peerPool = snapshotPool(16);
    await createMysqlStore({ pool, tablePrefix: prefix }).migrate();
  });
  afterAll(async () => {
    await Promise.all([pool?.end(), peerPool?.end()]);
  });

  runStoreConformance({
    describe,
    it,
    name: 'conformance',
    createStore: () => createMysqlStore({ pool, tablePrefix: prefix }),
    createPeer: () => createMysqlStore({ pool: peerPool, tablePrefix: prefix }),
    deleteChannel: async (_store, channelId) => {
      await pool.query(`DELETE FROM ${prefix}channels WHERE id = ?`, [channelId]);
    },
    concurrency: 40,
  });
});
