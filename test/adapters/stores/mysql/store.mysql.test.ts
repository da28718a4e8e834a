import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createMysqlStore,
  MYSQL_SCHEMA_VERSION,
  mysqlSchema,
  type MysqlPool,
  type MysqlQuery,
  type MysqlStore,
} from '../../../../adapters/stores/mysql/index.js';
import type { PostRecord } from '../../../../src/index.js';
import { insertInput, makeMessage, makeWebhook, randomHex, randomId } from '../../../../src/testing/fixtures.js';
import { backends } from '../../../support/backends.js';
import { postRecord } from '../../../support/post-records.js';
import { recordingPool } from './recording-pool.js';

const { mysqlUrl, title } = backends();
const tablePrefix = 'cwtest_store_';
const t0 = Date.UTC(2026, 0, 1, 12);
let made = 0;
/** A part of a table prefix no other test of the run uses. */
const unique = () => `${Date.now().toString(36)}${made++}`;

/** A pool whose single statements answer after `ms` with no rows, and that counts how many ran at once. */
function slowPool(ms: number) {
  const seen = { running: 0, most: 0, queries: 0, order: [] as unknown[] };
  const pool: MysqlPool = {
    async query(query: MysqlQuery) {
      seen.queries++;
      seen.order.push(query.values?.[0]);
      seen.running++;
      seen.most = Math.max(seen.most, seen.running);
      await new Promise((resolve) => setTimeout(resolve, ms));
      seen.running--;
      return [[], []];
    },
    getConnection: () => Promise.reject(new Error('no transactions here')),
  };
  return { pool, seen };
}

describe('webhook lookups are bounded per store', () => {
  it('at most maxConcurrentLookups run, maxQueuedLookups wait, the rest fail at once with store_failed', async () => {
    const { pool, seen } = slowPool(100);
    const store = createMysqlStore({ pool, maxConcurrentLookups: 2, maxQueuedLookups: 3 });
    const started = Date.now();
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        store.getWebhook(`wh_${randomId()}`).then(
          (value) => ({ value, at: Date.now() - started }),
          (error: unknown) => ({ error, at: Date.now() - started }),
        ),
      ),
    );
    const failed = results.filter((result) => 'error' in result);
    expect(results.filter((result) => 'value' in result && result.value === null)).toHaveLength(5);
    expect(failed).toHaveLength(5);
    for (const result of failed) {
      expect((result as { error: unknown }).error).toMatchObject({ name: 'ChannelWebhookError', code: 'store_failed' });
      expect((result as { error: Error }).error.message).toMatch(/^MySQL store: too many webhook lookups/);
      expect(result.at).toBeLessThan(50);
    }
    expect(seen.most).toBe(2);
    expect(seen.queries).toBe(5);
  });

  it('serves a credential the store issued before every waiting lookup; a wrong secret for its id waits where strangers wait', async () => {
    const { pool, seen } = slowPool(40);
    const store = createMysqlStore({ pool, maxConcurrentLookups: 1, maxQueuedLookups: 2 });
    const webhook = makeWebhook('c1', t0);
    await store.insertWebhook(webhook);
    seen.order.length = 0;
    const strangers = ['wh_a', 'wh_b', 'wh_c'].map((id) => store.getWebhook(id, randomHex()));
    const refused = [store.getWebhook('wh_d', randomHex()), store.getWebhook(webhook.id, randomHex())];
    const proven = store.getWebhook(webhook.id, webhook.secretHash);
    for (const lookup of refused) await expect(lookup).rejects.toMatchObject({ code: 'store_failed' });
    await Promise.all([...strangers, proven]);
    expect(seen.order).toEqual(['wh_a', webhook.id, 'wh_b', 'wh_c']);
  });
});

describe('options', () => {
  it('refuses bad options with ChannelWebhookError invalid_argument', () => {
    const { pool } = slowPool(1);
    const bad: Array<Record<string, unknown>> = [
      {},
      { pool: {} },
      { pool: { query() {} } },
      { pool, timeoutMs: 0 },
      { pool, timeoutMs: '5000' },
      { pool, tablePrefix: 'x; DROP TABLE users; --' },
      { pool, tablePrefix: 'Upper_' },
      { pool, maxConcurrentLookups: 0 },
      { pool, maxQueuedLookups: -1 },
      { pool, feedCheckMs: 1 },
      { pool, onError: 'log' },
      { pool, channels: { table: 'channels; --' } },
      { pool, messages: { table: 'posts', columns: {} } },
    ];
    for (const [i, options] of bad.entries()) {
      expect(() => createMysqlStore(options as never), `bad options #${i}`).toThrow(
        expect.objectContaining({ name: 'ChannelWebhookError', code: 'invalid_argument' }),
      );
    }
    expect(() => createMysqlStore({ pool, maxQueuedLookups: 0, feedCheckMs: 10 })).not.toThrow();
  });

  it('a query that never answers rejects with store_timeout at its deadline', async () => {
    const hung: MysqlPool = { query: () => new Promise(() => {}), getConnection: () => new Promise(() => {}) };
    const store = createMysqlStore({ pool: hung, timeoutMs: 200 });
    for (const call of [() => store.getWebhook('wh_x'), () => store.revokeWebhook('wh_x', t0)]) {
      const started = Date.now();
      await expect(call()).rejects.toMatchObject({ name: 'ChannelWebhookError', code: 'store_timeout' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(190);
      expect(Date.now() - started).toBeLessThan(1_000);
    }
  });
});

describe.skipIf(mysqlUrl === null)(title('MySQL store on MariaDB', 'mysql'), () => {
  let pool: mysql.Pool;
  let peerPool: mysql.Pool;

  beforeAll(async () => {
    pool = mysql.createPool({ uri: mysqlUrl!, connectionLimit: 8 });
    peerPool = mysql.createPool({ uri: mysqlUrl!, connectionLimit: 8 });
    await createMysqlStore({ pool, tablePrefix }).migrate();
  });
  afterAll(async () => {
    await Promise.all([pool?.end(), peerPool?.end()]);
  });

  const tablesOf = async (prefix: string) =>
    (
      (
        await pool.query(
          'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name LIKE ?',
          [`${prefix}%`],
        )
      )[0] as Array<{ name: string }>
    )
      .map((row) => row.name)
      .sort();

  it('migrate() creates the schema once, safely when instances run it at once, and records its version', async () => {
    const prefix = `cwtest_migrate_${unique()}_`;
    const stores = Array.from({ length: 4 }, (_, i) =>
      createMysqlStore({ pool: i % 2 ? pool : peerPool, tablePrefix: prefix }),
    );
    await Promise.all(stores.map((store) => store.migrate()));
    await stores[0]!.migrate();
    expect(await tablesOf(prefix)).toEqual(
      ['channels', 'feed', 'messages', 'migrations', 'post_heads', 'posts', 'webhooks'].map(
        (name) => `${prefix}${name}`,
      ),
    );
    const [versions] = await pool.query(`SELECT version FROM ${prefix}migrations ORDER BY version`);
    expect(versions).toEqual([{ version: MYSQL_SCHEMA_VERSION }]);
    const [feed] = await pool.query(`SELECT id, next_seq, pruned_seq FROM ${prefix}feed`);
    expect(feed).toEqual([{ id: 1, next_seq: 0, pruned_seq: 0 }]);
  });

  it('refuses tables of a newer schema with schema_too_new, and changes nothing', async () => {
    const prefix = `cwtest_newer_${unique()}_`;
    const store = createMysqlStore({ pool, tablePrefix: prefix });
    await store.migrate();
    await pool.query(`INSERT INTO ${prefix}migrations (version) VALUES (?)`, [MYSQL_SCHEMA_VERSION + 1]);
    await pool.query(`DROP TABLE ${prefix}posts`);
    const error = await store.migrate().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'ChannelWebhookError', code: 'schema_too_new' });
    expect((error as Error).message).toContain(`schema version ${MYSQL_SCHEMA_VERSION + 1}`);
    expect(await tablesOf(`${prefix}posts`)).toEqual([]);
  });

  it('mysqlSchema() is the text migrate() runs, and a database made from it works with the store', async () => {
    const prefix = `cwtest_text_${unique()}_`;
    const text = mysqlSchema({ tablePrefix: prefix });
    expect(text).not.toContain('channel_webhooks_');
    for (const statement of text.split(';\n').filter((part) => part.trim() !== '')) await pool.query(statement);
    const store = createMysqlStore({ pool, tablePrefix: prefix });
    await store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
    const webhook = makeWebhook('general', t0);
    await store.insertWebhook(webhook);
    const message = makeMessage(webhook, t0 + 1);
    expect(await store.insertMessage(insertInput(webhook, message, 'k'))).toEqual({ outcome: 'created', message });
  });

  it('a failing query rejects with store_failed and the driver error as cause', async () => {
    const store = createMysqlStore({ pool, tablePrefix: 'cwtest_never_migrated_' });
    for (const call of [() => store.getWebhook('wh_x'), () => store.revokeWebhook('wh_x', t0)]) {
      const error = await call().catch((caught: unknown) => caught);
      expect(error).toMatchObject({ name: 'ChannelWebhookError', code: 'store_failed' });
      expect((error as Error).cause).toMatchObject({ errno: 1146 });
    }
  });

  it('keys of any length are kept once per webhook', async () => {
    const store = createMysqlStore({ pool, tablePrefix });
    const webhook = makeWebhook(`c_${randomId()}`, t0);
    await store.putChannel({ id: webhook.channelId, ownerId: 'u1', archived: false });
    await store.insertWebhook(webhook);
    const long = 'k'.repeat(5_000);
    const first = makeMessage(webhook, t0 + 1);
    expect(await store.insertMessage(insertInput(webhook, first, long))).toEqual({
      outcome: 'created',
      message: first,
    });
    expect(await store.insertMessage(insertInput(webhook, makeMessage(webhook, t0 + 2), long))).toEqual({
      outcome: 'duplicate',
      message: first,
    });
    const other = makeMessage(webhook, t0 + 3);
    expect(await store.insertMessage(insertInput(webhook, other, `${long}!`))).toEqual({
      outcome: 'created',
      message: other,
    });
  });

  const seeded = async (store: MysqlStore) => {
    const webhook = makeWebhook(`c_${randomId()}`, t0);
    await store.putChannel({ id: webhook.channelId, ownerId: 'u1', archived: false });
    await store.insertWebhook(webhook);
    return webhook;
  };

  it('a post alone with a key runs at READ COMMITTED and reads its key in the guard; one without runs at the session level', async () => {
    const sent: string[] = [];
    const store = createMysqlStore({ pool: recordingPool(pool, sent), tablePrefix });
    const webhook = await seeded(store);
    const kinds = (from: number) =>
      sent
        .slice(from)
        .map((sql) => /^\s*(SET TRANSACTION[^,]*|START TRANSACTION|COMMIT|ROLLBACK|\w+ \S+ \S+)/.exec(sql)![1]);
    let from = sent.length;
    await store.insertMessage(insertInput(webhook, makeMessage(webhook, t0 + 1), null));
    const plain = [
      `UPDATE ${tablePrefix}webhooks SET`,
      'SELECT w.channel_id AS',
      `UPDATE ${tablePrefix}feed SET`,
      `INSERT INTO ${tablePrefix}messages`,
      'COMMIT',
    ];
    expect(kinds(from)).toEqual(['START TRANSACTION', ...plain]);
    from = sent.length;
    const keyed = makeMessage(webhook, t0 + 2);
    await store.insertMessage(insertInput(webhook, keyed, 'k'));
    expect(kinds(from)).toEqual(['SET TRANSACTION ISOLATION LEVEL READ COMMITTED', 'START TRANSACTION', ...plain]);
    from = sent.length;
    expect(await store.insertMessage(insertInput(webhook, makeMessage(webhook, t0 + 3), 'k'))).toEqual({
      outcome: 'duplicate',
      message: keyed,
    });
    expect(kinds(from)).toEqual([
      'SET TRANSACTION ISOLATION LEVEL READ COMMITTED',
      'START TRANSACTION',
      ...plain.slice(0, 2),
      'ROLLBACK',
    ]);
  });

  it("the store's READ COMMITTED never reaches the app's own transactions on the pool's connections", async () => {
    const single = mysql.createPool({ uri: mysqlUrl!, connectionLimit: 1 });
    try {
      const store = createMysqlStore({ pool: single, tablePrefix });
      const webhook = await seeded(store);
      const message = makeMessage(webhook, t0 + 1);
      await store.insertMessage(insertInput(webhook, message, 'k'));
      await store.insertMessage(insertInput(webhook, makeMessage(webhook, t0 + 2), 'k'));
      await store.recordPosts([makeRecord(webhook.id)]);
      await store.pruneMessages(t0 - 1);
      const connection = await single.getConnection();
      try {
        await connection.query('START TRANSACTION');
        await connection.query(`SELECT id FROM ${tablePrefix}feed FOR UPDATE`);
        const [rows] = await connection.query(
          'SELECT trx_isolation_level AS level FROM information_schema.innodb_trx WHERE trx_mysql_thread_id = CONNECTION_ID()',
        );
        expect(rows).toEqual([{ level: 'REPEATABLE READ' }]);
      } finally {
        await connection.query('ROLLBACK');
        connection.release();
      }
    } finally {
      await single.end();
    }
    // A connection whose START TRANSACTION failed after the level was set is closed, not given back.
    const ends: string[] = [];
    const refusing: MysqlPool = {
      query: (query) => pool.query(query),
      async getConnection() {
        const connection = await pool.getConnection();
        return {
          query: (query) =>
            query.sql === 'START TRANSACTION' ? Promise.reject(new Error('refused')) : connection.query(query),
          release: () => {
            ends.push('release');
            connection.release();
          },
          destroy: () => {
            ends.push('destroy');
            connection.destroy();
          },
        };
      },
    };
    const webhook = await seeded(createMysqlStore({ pool, tablePrefix }));
    await expect(
      createMysqlStore({ pool: refusing, tablePrefix }).insertMessage(
        insertInput(webhook, makeMessage(webhook, t0 + 1), 'k'),
      ),
    ).rejects.toMatchObject({ code: 'store_failed' });
    expect(ends).toEqual(['destroy']);
  });

  // At REPEATABLE READ the guard's read of a key not yet stored would lock the gap of the key index
  // where it would go, and the next webhook's posts insert into that gap, holding the feed's counter
  // that the keyed post waits for next.
  it('a post with a key locks no gap of the key index: a post to the next webhook is stored meanwhile', async () => {
    const prefix = `cwtest_gap_${unique()}_`;
    const store = createMysqlStore({ pool, tablePrefix: prefix });
    await store.migrate();
    const [first, next] = await Promise.all(
      ['a', 'b'].map(async (letter) => {
        const webhook = makeWebhook(`c_${randomId()}`, t0, { id: `wh_${letter.repeat(22)}` });
        await store.putChannel({ id: webhook.channelId, ownerId: 'u1', archived: false });
        await store.insertWebhook(webhook);
        return webhook;
      }),
    );
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let guarded!: () => void;
    const hasGuarded = new Promise<void>((resolve) => (guarded = resolve));
    const holding: MysqlPool = {
      query: (query) => pool.query(query),
      async getConnection() {
        const connection = await peerPool.getConnection();
        return {
          async query(query) {
            if (query.sql.includes(`UPDATE ${prefix}feed`)) {
              guarded();
              await released;
            }
            return connection.query(query);
          },
          release: () => connection.release(),
          destroy: () => connection.destroy(),
        };
      },
    };
    const keyed = makeMessage(first!, t0 + 1);
    const storingKeyed = createMysqlStore({ pool: holding, tablePrefix: prefix }).insertMessage(
      insertInput(first!, keyed, 'k'),
    );
    try {
      await hasGuarded;
      const other = makeMessage(next!, t0 + 2);
      expect(await store.insertMessage(insertInput(next!, other, null))).toEqual({
        outcome: 'created',
        message: other,
      });
      release();
      expect(await storingKeyed).toEqual({ outcome: 'created', message: keyed });
    } finally {
      release();
    }
  });

  // At REPEATABLE READ the prune's scan locks the gap after the newest message: an insert that took
  // its place before then waits for the prune, which waits for the feed's counter that insert holds.
  it('a prune while an insert holds its place in the feed: the insert is stored, then the prune goes on', async () => {
    const prefix = `cwtest_prune_${unique()}_`;
    const store = createMysqlStore({ pool, tablePrefix: prefix });
    await store.migrate();
    const webhook = await seeded(store);
    for (let i = 0; i < 3; i++) await store.insertMessage(insertInput(webhook, makeMessage(webhook, t0), null));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let placed!: () => void;
    const hasPlace = new Promise<void>((resolve) => (placed = resolve));
    const holding: MysqlPool = {
      query: (query) => pool.query(query),
      async getConnection() {
        const connection = await peerPool.getConnection();
        return {
          async query(query) {
            if (query.sql.includes(`INSERT INTO ${prefix}messages`)) {
              placed();
              await released;
            }
            return connection.query(query);
          },
          release: () => connection.release(),
          destroy: () => connection.destroy(),
        };
      },
    };
    const later = makeMessage(webhook, t0 + 60_000);
    const storing = createMysqlStore({ pool: holding, tablePrefix: prefix }).insertMessage(
      insertInput(webhook, later, null),
    );
    try {
      await hasPlace;
      const sent: string[] = [];
      const pruning = createMysqlStore({ pool: recordingPool(pool, sent), tablePrefix: prefix }).pruneMessages(t0 + 1);
      // The prune has deleted and waits for the counter.
      await vi.waitFor(() => expect(sent.at(-1)).toContain(`UPDATE ${prefix}feed SET pruned_seq`));
      release();
      expect(await storing).toEqual({ outcome: 'created', message: later });
      expect(await pruning).toBe(3);
      expect(sent.filter((sql) => sql.startsWith('failed'))).toEqual([]);
      expect(await store.listMessages(webhook.channelId)).toEqual([later]);
    } finally {
      release();
    }
  });

  it('an insert blocked past its deadline times out, writes nothing, and a retry stores it once', async () => {
    const locker = await pool.getConnection();
    try {
      const store = createMysqlStore({ pool: peerPool, tablePrefix, timeoutMs: 300 });
      const webhook = makeWebhook(`c_${randomId()}`, t0);
      await store.putChannel({ id: webhook.channelId, ownerId: 'u1', archived: false });
      await store.insertWebhook(webhook);
      const message = makeMessage(webhook, t0 + 1);

      await locker.query('START TRANSACTION');
      await locker.query(`SELECT * FROM ${tablePrefix}webhooks WHERE id = ? FOR UPDATE`, [webhook.id]);
      const started = Date.now();
      await expect(store.insertMessage(insertInput(webhook, message, 'blocked'))).rejects.toMatchObject({
        code: 'store_timeout',
      });
      expect(Date.now() - started).toBeLessThan(2_000);
      await locker.query('COMMIT');

      await new Promise((resolve) => setTimeout(resolve, 300));
      const reader = createMysqlStore({ pool, tablePrefix });
      expect(await reader.listMessages(webhook.channelId)).toEqual([]);
      expect(await reader.insertMessage(insertInput(webhook, message, 'blocked'))).toEqual({
        outcome: 'created',
        message,
      });
      expect(await reader.insertMessage(insertInput(webhook, makeMessage(webhook, t0 + 2), 'blocked'))).toEqual({
        outcome: 'duplicate',
        message,
      });
      expect(await reader.listMessages(webhook.channelId)).toEqual([message]);
    } finally {
      await locker.query('ROLLBACK').catch(() => {});
      locker.release();
    }
  });
});

/** A record of a 201. */
const makeRecord = (webhookId: string): PostRecord => postRecord(webhookId, t0, { bodyBytes: 2 });
