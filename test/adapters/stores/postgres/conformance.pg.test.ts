import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStore, postgresSchema, type PostgresQuery } from '../../../../adapters/stores/postgres/index.js';
import { runStoreConformance } from '../../../../src/testing/index.js';
import { insertInput, makeMessage, makeWebhook } from '../../../../src/testing/fixtures.js';
import { backends } from '../../../support/backends.js';
import { retentionRecipes } from './recipes.js';

const { databaseUrl, title } = backends();
const tablePrefix = 'cwtest_conformance_';

describe.skipIf(databaseUrl === null)(title('PostgreSQL store', 'postgres'), () => {
  let pool: pg.Pool;
  let peerPool: pg.Pool;

  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: databaseUrl!, max: 8 });
    peerPool = new pg.Pool({ connectionString: databaseUrl!, max: 8 });
    for (const prefix of [tablePrefix, 'cwtest_app_']) {
      await createPostgresStore({ pool, tablePrefix: prefix }).migrate();
      await pool.query(retentionRecipes(prefix).archive!);
      await pool.query(
        `CREATE TABLE IF NOT EXISTS ${prefix}messages_archive_all PARTITION OF ${prefix}messages_archive DEFAULT`,
      );
    }
  });
  // The feed's retention is docs/scaling.md's: the move of older messages to the archive, in
  // batches until one moves nothing, which also raises the feed's low-water mark.
  const pruneMessages = (prefix: string) => async (_store: unknown, before: number) => {
    const move = retentionRecipes(prefix).move!;
    while (((await pool.query(move, [new Date(before).toISOString(), 500])).rowCount ?? 0) > 0);
  };
  afterAll(async () => {
    await Promise.all([pool?.end(), peerPool?.end()]);
  });

  runStoreConformance({
    describe,
    it,
    name: 'conformance',
    createStore: () => createPostgresStore({ pool, tablePrefix }),
    // Another pool is another set of sessions, as another instance would have.
    createPeer: () => createPostgresStore({ pool: peerPool, tablePrefix }),
    deleteChannel: async (_store, channelId) => {
      await pool.query(`DELETE FROM ${tablePrefix}channels WHERE id = $1`, [channelId]);
    },
    pruneMessages: pruneMessages(tablePrefix),
    concurrency: 40,
  });

  // Behind a pooler that keeps no prepared statements the store runs every statement unnamed.
  runStoreConformance({
    describe,
    it,
    name: 'conformance without prepared statements',
    createStore: () => createPostgresStore({ pool, tablePrefix, preparedStatements: false }),
    createPeer: () => createPostgresStore({ pool: peerPool, tablePrefix, preparedStatements: false }),
    deleteChannel: async (_store, channelId) => {
      await pool.query(`DELETE FROM ${tablePrefix}channels WHERE id = $1`, [channelId]);
    },
    pruneMessages: pruneMessages(tablePrefix),
    concurrency: 20,
  });

  // The host app keeps channels in its own table, with its own column names and a varchar id.
  const channels = { table: 'cwtest_host_channels', id: 'channel_key', ownerId: 'owner', archived: 'is_archived' };
  runStoreConformance({
    describe,
    it,
    name: "conformance with channels in the app's own table",
    createStore: async () => {
      await pool.query(
        `CREATE TABLE IF NOT EXISTS cwtest_host_channels (channel_key varchar(80) PRIMARY KEY, owner text NOT NULL, is_archived boolean, topic text)`,
      );
      return createPostgresStore({ pool, tablePrefix: 'cwtest_app_', channels });
    },
    createPeer: () => createPostgresStore({ pool: peerPool, tablePrefix: 'cwtest_app_', channels }),
    deleteChannel: async (_store, channelId) => {
      await pool.query('DELETE FROM cwtest_host_channels WHERE channel_key = $1', [channelId]);
    },
    pruneMessages: pruneMessages('cwtest_app_'),
    concurrency: 20,
  });

  // The host app also keeps every message in its own table, written in the guarded insert.
  const messages = {
    table: 'cwtest_host_posts',
    columns: { id: 'message_id', channelId: 'room_id', body: 'text', blocks: 'blocks', createdAt: 'posted_at' },
    values: { kind: 'webhook' },
  };
  runStoreConformance({
    describe,
    it,
    name: "conformance with messages also in the app's own table",
    createStore: async () => {
      await pool.query(
        `CREATE TABLE IF NOT EXISTS cwtest_host_posts (message_id text PRIMARY KEY, room_id text NOT NULL, kind text NOT NULL, text text NOT NULL, blocks jsonb, posted_at timestamptz NOT NULL)`,
      );
      return createPostgresStore({ pool, tablePrefix, messages });
    },
    createPeer: () => createPostgresStore({ pool: peerPool, tablePrefix, messages }),
    deleteChannel: async (_store, channelId) => {
      await pool.query(`DELETE FROM ${tablePrefix}channels WHERE id = $1`, [channelId]);
    },
    pruneMessages: pruneMessages(tablePrefix),
    concurrency: 20,
  });

  describe('schema', () => {
    it('adapters/stores/postgres/schema.sql is the schema for the default prefix', async () => {
      const file = await readFile(new URL('../../../../adapters/stores/postgres/schema.sql', import.meta.url), 'utf8');
      expect(file).toContain(postgresSchema());
    });

    it('migrate() is idempotent and safe when instances run it at once', async () => {
      const prefix = `cwtest_migrate_${Date.now().toString(36)}_`;
      const stores = Array.from({ length: 4 }, (_, i) =>
        createPostgresStore({ pool: i % 2 ? pool : peerPool, tablePrefix: prefix }),
      );
      await Promise.all(stores.map((store) => store.migrate()));
      await stores[0]!.migrate();
      const { rows } = await pool.query(
        `SELECT table_name FROM information_schema.tables WHERE table_name LIKE $1 ORDER BY table_name`,
        [`${prefix}%`],
      );
      expect(rows.map((row) => row.table_name)).toEqual([
        `${prefix}channels`,
        `${prefix}feed`,
        `${prefix}messages`,
        `${prefix}migrations`,
        `${prefix}post_chunks`,
        `${prefix}post_log`,
        `${prefix}webhooks`,
      ]);
    });

    // NULL keys never conflict, so the index of keys holds keyed messages only: posts without a key
    // (most of them) cost it nothing, where a full index would hold a leaf entry for each.
    it('the idempotency index grows with keyed messages only', async () => {
      const prefix = `cwtest_keyidx_${Date.now().toString(36)}_`;
      const store = createPostgresStore({ pool, tablePrefix: prefix });
      await store.migrate();
      await store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
      const webhook = makeWebhook('general', Date.UTC(2026, 0, 1));
      await store.insertWebhook(webhook);
      const indexSize = async () =>
        Number(
          (await pool.query(`SELECT pg_relation_size($1::regclass) AS bytes`, [`${prefix}messages_key_idx`])).rows[0]
            .bytes,
        );
      const empty = await indexSize();
      for (let i = 0; i < 600; i++)
        await store.insertMessage(insertInput(webhook, makeMessage(webhook, Date.UTC(2026, 0, 1, 0, 0, i)), null));
      expect(await indexSize()).toBe(empty);
      for (let i = 0; i < 600; i++)
        await store.insertMessage(
          insertInput(webhook, makeMessage(webhook, Date.UTC(2026, 0, 1, 1, 0, i)), `key-${i}`),
        );
      expect(await indexSize()).toBeGreaterThan(empty);
      const again = await store.insertMessage(
        insertInput(webhook, makeMessage(webhook, Date.UTC(2026, 0, 2)), 'key-7'),
      );
      expect(again.outcome).toBe('duplicate');
    });

    it('refuses a table prefix that is not a plain identifier', () => {
      expect(() => createPostgresStore({ pool, tablePrefix: 'x; DROP TABLE users; --' })).toThrow(
        expect.objectContaining({ name: 'ChannelWebhookError', code: 'invalid_argument' }),
      );
      expect(() => createPostgresStore({ pool, tablePrefix: 'Upper_' })).toThrow(/lower-case/);
    });

    it('refuses bad options with ChannelWebhookError invalid_argument', () => {
      const bad: Array<Record<string, unknown>> = [
        {},
        { pool: {} },
        { pool, timeoutMs: 0 },
        { pool, timeoutMs: Number.NaN },
        { pool, timeoutMs: '5000' },
        { pool, tablePrefix: 7 },
        { pool, channels: 'channels' },
        { pool, channels: { table: 'channels; DROP TABLE x' } },
        { pool, channels: { table: 'a.b.c' } },
        { pool, channels: { table: 'channels', archived: 'is archived' } },
        { pool, channels: { table: 'channels', id: 'Id' } },
        { pool, maxConcurrentLookups: 0 },
        { pool, maxQueuedLookups: -1 },
        { pool, maxQueuedLookups: 1.5 },
        { pool, preparedStatements: 'yes' },
      ];
      for (const [i, options] of bad.entries()) {
        expect(() => createPostgresStore(options as never), `bad options #${i}`).toThrow(
          expect.objectContaining({ name: 'ChannelWebhookError', code: 'invalid_argument' }),
        );
      }
      expect(() => createPostgresStore(undefined as never)).toThrow(
        expect.objectContaining({ code: 'invalid_argument' }),
      );
      expect(() =>
        createPostgresStore({ pool, channels: { table: 'app.channels' }, maxQueuedLookups: 0 }),
      ).not.toThrow();
    });
  });

  describe('round trips and deadlines', () => {
    it('each store call is one query, the guarded insert included', async () => {
      const queries: string[] = [];
      const counting = { query: (query: PostgresQuery) => (queries.push(query.text), pool.query(query)) };
      const store = createPostgresStore({ pool: counting, tablePrefix });
      const channel = { id: `c_${Date.now()}_${Math.random()}`, ownerId: 'u1', archived: false };
      await store.putChannel(channel);
      const webhook = makeWebhook(channel.id, Date.UTC(2026, 0, 1));
      await store.insertWebhook(webhook);
      queries.length = 0;

      const found = await store.getWebhook(webhook.id);
      const message = makeMessage(webhook, Date.UTC(2026, 0, 1, 1));
      const inserted = await store.insertMessage(insertInput(webhook, message, 'k1'));
      const repeated = await store.insertMessage(
        insertInput(webhook, makeMessage(webhook, Date.UTC(2026, 0, 1, 2)), 'k1'),
      );

      expect(queries).toHaveLength(3);
      expect(found).toEqual(webhook);
      expect(inserted).toEqual({ outcome: 'created', message });
      expect(repeated).toEqual({ outcome: 'duplicate', message });

      await store.putChannel({ ...channel, archived: true });
      queries.length = 0;
      expect(
        await store.insertMessage(insertInput(webhook, makeMessage(webhook, Date.UTC(2026, 0, 1, 3)), null)),
      ).toEqual({ outcome: 'channel_archived' });
      await store.revokeWebhook(webhook.id, Date.UTC(2026, 0, 1, 4));
      expect(
        await store.insertMessage(insertInput(webhook, makeMessage(webhook, Date.UTC(2026, 0, 1, 5)), 'k1')),
      ).toEqual({ outcome: 'webhook_inactive' });
      expect(queries).toHaveLength(3);
    });

    // Each statement is parsed and planned once per connection. Stores with other table prefixes
    // share the connection without a clash (node-postgres refuses one name for two texts), and with
    // `preparedStatements: false` nothing is prepared.
    it('runs its statements as named prepared statements, one name per text, unless told not to', async () => {
      const connect = async () => {
        const client = new pg.Client({ connectionString: databaseUrl! });
        await client.connect();
        return client;
      };
      const prepared = async (client: pg.Client) =>
        (
          await client.query(
            `SELECT name FROM pg_prepared_statements WHERE name LIKE 'channel\\_webhooks\\_%' ORDER BY name`,
          )
        ).rows.map((row) => row.name as string);
      const post = async (store: ReturnType<typeof createPostgresStore>) => {
        const webhook = makeWebhook(`c_${Date.now()}_${Math.random()}`, Date.UTC(2026, 0, 1));
        await store.putChannel({ id: webhook.channelId, ownerId: 'u1', archived: false });
        await store.insertWebhook(webhook);
        expect(await store.getWebhook(webhook.id)).toEqual(webhook);
        for (const key of ['k1', 'k1', null])
          await store.insertMessage(insertInput(webhook, makeMessage(webhook, Date.UTC(2026, 0, 1, 1)), key));
        expect(await store.listMessages(webhook.channelId)).toHaveLength(2);
      };

      const client = await connect();
      const unprepared = await connect();
      try {
        await post(createPostgresStore({ pool: client, tablePrefix }));
        const names = await prepared(client);
        expect(names).toEqual(
          expect.arrayContaining([
            expect.stringMatching(/^channel_webhooks_getWebhook_/),
            expect.stringMatching(/^channel_webhooks_insertMessage_/),
          ]),
        );
        expect(names.every((name) => name.length <= 63)).toBe(true);

        await post(createPostgresStore({ pool: client, tablePrefix: 'cwtest_app_' }));
        const both = await prepared(client);
        expect(both.filter((name) => name.startsWith('channel_webhooks_insertMessage_'))).toHaveLength(2);

        await post(createPostgresStore({ pool: unprepared, tablePrefix, preparedStatements: false }));
        expect(await prepared(unprepared)).toEqual([]);
      } finally {
        await Promise.all([client.end(), unprepared.end()]);
      }
    });

    // What a pooler in transaction mode does to prepared statements, made on one connection: the
    // server forgets them while node-postgres still thinks them parsed (26000), or already has one of
    // that name (42P05). Each refused call is sent again unnamed, stores once, and preparing stops.
    it('sends a statement again unnamed, once, when the server lost or already has its prepared statement', async () => {
      const client = new pg.Client({ connectionString: databaseUrl! });
      const stranger = new pg.Client({ connectionString: databaseUrl! });
      await Promise.all([client.connect(), stranger.connect()]);
      const prepared = async (on: pg.Client) =>
        (await on.query(`SELECT name FROM pg_prepared_statements WHERE name LIKE 'channel\\_webhooks\\_%'`)).rows.map(
          (row) => row.name as string,
        );
      try {
        const store = createPostgresStore({ pool: client, tablePrefix });
        const webhook = makeWebhook(`c_${Date.now()}_${Math.random()}`, Date.UTC(2026, 0, 1));
        await store.putChannel({ id: webhook.channelId, ownerId: 'u1', archived: false });
        await store.insertWebhook(webhook);
        await store.getWebhook(webhook.id);
        await store.insertMessage(insertInput(webhook, makeMessage(webhook, Date.UTC(2026, 0, 1, 1)), 'k1'));
        const names = await prepared(client);
        expect(names.length).toBeGreaterThanOrEqual(2);

        await client.query('DEALLOCATE ALL');
        expect(await store.getWebhook(webhook.id)).toMatchObject({ id: webhook.id });
        const second = makeMessage(webhook, Date.UTC(2026, 0, 1, 2));
        expect(await store.insertMessage(insertInput(webhook, second, 'k2'))).toEqual({
          outcome: 'created',
          message: second,
        });
        expect(await store.listMessages(webhook.channelId)).toHaveLength(2);
        expect(await prepared(client)).toEqual([]);

        // A fresh store on a connection where a statement of its name already exists.
        for (const name of names) await stranger.query(`PREPARE ${name} AS SELECT 1`);
        const other = createPostgresStore({ pool: stranger, tablePrefix });
        expect(await other.getWebhook(webhook.id)).toMatchObject({ id: webhook.id });
        const third = makeMessage(webhook, Date.UTC(2026, 0, 1, 3));
        expect(await other.insertMessage(insertInput(webhook, third, 'k3'))).toEqual({
          outcome: 'created',
          message: third,
        });
        expect(
          await other.insertMessage(insertInput(webhook, makeMessage(webhook, Date.UTC(2026, 0, 1, 4)), 'k3')),
        ).toEqual({
          outcome: 'duplicate',
          message: third,
        });
        expect(await store.listMessages(webhook.channelId)).toHaveLength(3);
      } finally {
        await Promise.all([client.end(), stranger.end()]);
      }
    });

    it('a query that never answers rejects with store_timeout at its deadline', async () => {
      const hung = { query: () => new Promise<{ rows: unknown[] }>(() => {}) };
      const store = createPostgresStore({ pool: hung, tablePrefix, timeoutMs: 200 });
      const started = Date.now();
      await expect(store.getWebhook('wh_x')).rejects.toMatchObject({
        name: 'ChannelWebhookError',
        code: 'store_timeout',
      });
      expect(Date.now() - started).toBeGreaterThanOrEqual(190);
      expect(Date.now() - started).toBeLessThan(1_000);
    });

    it('a failing query rejects with store_failed and the driver error as cause', async () => {
      const store = createPostgresStore({ pool, tablePrefix: 'cwtest_never_migrated_' });
      const error = await store.getWebhook('wh_x').catch((caught: unknown) => caught);
      expect(error).toMatchObject({ name: 'ChannelWebhookError', code: 'store_failed' });
      expect((error as Error).cause).toMatchObject({ code: '42P01' });
    });

    it('an insert blocked past its deadline times out, writes nothing, and a retry stores it once', async () => {
      // The server cancels the statement too (statement_timeout), so nothing lands after the 500.
      const strictPool = new pg.Pool({ connectionString: databaseUrl!, max: 2, statement_timeout: 300 });
      strictPool.on('error', () => {});
      const locker = await pool.connect();
      try {
        const store = createPostgresStore({ pool: strictPool, tablePrefix, timeoutMs: 300 });
        const webhook = makeWebhook(`c_${Date.now()}`, Date.UTC(2026, 0, 1));
        await store.putChannel({ id: webhook.channelId, ownerId: 'u1', archived: false });
        await store.insertWebhook(webhook);
        const message = makeMessage(webhook, Date.UTC(2026, 0, 1, 1));

        await locker.query('BEGIN');
        await locker.query(`LOCK TABLE ${tablePrefix}messages IN ACCESS EXCLUSIVE MODE`);
        const started = Date.now();
        await expect(store.insertMessage(insertInput(webhook, message, 'blocked'))).rejects.toMatchObject({
          code: expect.stringMatching(/^store_(timeout|failed)$/),
        });
        expect(Date.now() - started).toBeLessThan(2_000);
        // The server's statement_timeout started a moment after the store's deadline: let it fire
        // before the lock goes, or the statement could still run on a loaded machine.
        await new Promise((resolve) => setTimeout(resolve, 150));
        await locker.query('COMMIT');

        await new Promise((resolve) => setTimeout(resolve, 300));
        const reader = createPostgresStore({ pool, tablePrefix });
        expect(await reader.listMessages(webhook.channelId)).toEqual([]);
        expect(await reader.insertMessage(insertInput(webhook, message, 'blocked'))).toEqual({
          outcome: 'created',
          message,
        });
        expect(
          await reader.insertMessage(insertInput(webhook, makeMessage(webhook, Date.UTC(2026, 0, 1, 2)), 'blocked')),
        ).toEqual({
          outcome: 'duplicate',
          message,
        });
        expect(await reader.listMessages(webhook.channelId)).toEqual([message]);
      } finally {
        await locker.query('ROLLBACK').catch(() => {});
        locker.release();
        await strictPool.end();
      }
    });
  });
});
