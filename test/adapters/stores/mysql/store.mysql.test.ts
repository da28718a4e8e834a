import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMysqlStore,
  MYSQL_SCHEMA_VERSION,
  mysqlSchema,
  type MysqlPool,
  type MysqlQuery,
} from '../../../../adapters/stores/mysql/index.js';
import { insertInput, makeMessage, makeWebhook, randomHex, randomId } from '../../../../src/testing/fixtures.js';
import { backends } from '../../../support/backends.js';

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
