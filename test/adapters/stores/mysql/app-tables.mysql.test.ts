import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMysqlStore, type MessageMapping, type MysqlStore } from '../../../../adapters/stores/mysql/index.js';
import { createWebhookHandler, createWebhookManager, type WebhookRecord } from '../../../../src/index.js';
import { insertInput, makeMessage, makeWebhook, randomId } from '../../../../src/testing/fixtures.js';
import { backends } from '../../../support/backends.js';

const { mysqlUrl, title } = backends();
const tablePrefix = 'cwtest_app_tables_';
const t0 = Date.UTC(2026, 0, 1, 12);

// The app's own tables: rooms with their own column names and the collation of a database made with
// the server's defaults (not the store's utf8mb4_bin), and posts of people and webhooks side by
// side, with their own types and a constraint of their own.
const APP_SCHEMA = [
  'DROP TABLE IF EXISTS cwtest_at_posts',
  'DROP TABLE IF EXISTS cwtest_at_rooms',
  `CREATE TABLE cwtest_at_rooms (
    room_key VARCHAR(80) PRIMARY KEY, owner VARCHAR(80) NOT NULL, is_archived BOOLEAN, topic TEXT
  ) ENGINE=InnoDB CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
  `CREATE TABLE cwtest_at_posts (
    seq BIGINT AUTO_INCREMENT PRIMARY KEY,
    message_id VARCHAR(64) UNIQUE,
    room_id VARCHAR(80) NOT NULL,
    kind VARCHAR(16) NOT NULL,
    user_id VARCHAR(80),
    author_name VARCHAR(200),
    text TEXT NOT NULL,
    blocks JSON,
    posted_at DATETIME(3) NOT NULL,
    pinned BOOLEAN NOT NULL,
    CONSTRAINT cwtest_at_refused CHECK (text <> 'refused by the app')
  ) ENGINE=InnoDB CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
];

const channels = { table: 'cwtest_at_rooms', id: 'room_key', ownerId: 'owner', archived: 'is_archived' };
const messages: MessageMapping = {
  table: 'cwtest_at_posts',
  columns: {
    id: 'message_id',
    channelId: 'room_id',
    authorName: 'author_name',
    body: 'text',
    blocks: 'blocks',
    createdAt: 'posted_at',
  },
  values: { kind: 'webhook', user_id: 'bot-user', pinned: false },
};

describe.skipIf(mysqlUrl === null)(title("MySQL store on the app's own channels and messages tables", 'mysql'), () => {
  let pool: mysql.Pool;
  let store: MysqlStore;

  beforeAll(async () => {
    pool = mysql.createPool({ uri: mysqlUrl!, connectionLimit: 10, dateStrings: true });
    for (const statement of APP_SCHEMA) await pool.query(statement);
    store = createMysqlStore({ pool, tablePrefix, channels, messages });
    await store.migrate();
  });
  afterAll(async () => {
    // The handler records each answer in the history on a later tick.
    await new Promise((resolve) => setTimeout(resolve, 100));
    await pool?.end();
  });

  const seeded = async (): Promise<WebhookRecord> => {
    const webhook = makeWebhook(`room_${randomId()}`, t0);
    await store.putChannel({ id: webhook.channelId, ownerId: 'u1', archived: false });
    await store.insertWebhook(webhook);
    return webhook;
  };
  const appRows = async (roomId: string) =>
    (
      await pool.query(
        'SELECT message_id, room_id, kind, user_id, author_name, text, blocks, posted_at, pinned FROM cwtest_at_posts WHERE room_id = ? ORDER BY seq',
        [roomId],
      )
    )[0] as Array<Record<string, unknown>>;
  const libraryCount = async (roomId: string) =>
    Number(
      (
        (await pool.query(`SELECT count(*) AS n FROM ${tablePrefix}messages WHERE channel_id = ?`, [roomId]))[0] as [
          { n: number },
        ]
      )[0].n,
    );

  it("a 201 has the app's row, in the app's types with its fixed values; a duplicate adds nothing", async () => {
    const webhook = await seeded();
    const blocks = [{ type: 'section', text: 'Deploy **finished**' }];
    const message = makeMessage(webhook, t0 + 1, { body: 'Deploy finished', blocks } as never);
    expect(await store.insertMessage(insertInput(webhook, message, 'deploy-1'))).toEqual({
      outcome: 'created',
      message,
    });
    const again = makeMessage(webhook, t0 + 2);
    expect(await store.insertMessage(insertInput(webhook, again, 'deploy-1'))).toMatchObject({
      outcome: 'duplicate',
    });
    expect(await appRows(webhook.channelId)).toEqual([
      {
        message_id: message.id,
        room_id: webhook.channelId,
        kind: 'webhook',
        user_id: 'bot-user',
        author_name: webhook.name,
        text: 'Deploy finished',
        blocks,
        posted_at: '2026-01-01 12:00:00.001',
        pinned: 0,
      },
    ]);
    // The feed and the history of the store's own table go on as before.
    expect((await store.listMessages(webhook.channelId)).map((stored) => stored.id)).toEqual([message.id]);
    const page = await store.readFeed!({ channelId: webhook.channelId, limit: 10 });
    expect(page.entries.map((entry) => entry.message.id)).toEqual([message.id]);
  });

  it("a constraint of the app's table refused: the post fails and neither table has a row", async () => {
    const webhook = await seeded();
    const refused = makeMessage(webhook, t0 + 1, { body: 'refused by the app' });
    await expect(store.insertMessage(insertInput(webhook, refused, 'k'))).rejects.toMatchObject({
      code: 'store_failed',
    });
    expect(await appRows(webhook.channelId)).toEqual([]);
    expect(await libraryCount(webhook.channelId)).toBe(0);
    // The key was not used up: a retry with a good body stores it.
    const retried = makeMessage(webhook, t0 + 2);
    expect(await store.insertMessage(insertInput(webhook, retried, 'k'))).toMatchObject({ outcome: 'created' });
    expect((await appRows(webhook.channelId)).map((row) => row.message_id)).toEqual([retried.id]);
  });

  it('a connection killed in the middle of the transaction leaves neither row', async () => {
    const webhook = await seeded();
    const message = makeMessage(webhook, t0 + 1);
    // The test's own transaction holds the app row's unique id, so the post waits on it inside its transaction.
    const holder = await pool.getConnection();
    await holder.query('START TRANSACTION');
    await holder.query(
      "INSERT INTO cwtest_at_posts (message_id, room_id, kind, text, posted_at, pinned) VALUES (?, 'elsewhere', 'person', 'x', NOW(3), 0)",
      [message.id],
    );
    // Its outcome is taken at once: the post fails while the test is still killing its connection.
    const held = store.insertMessage(insertInput(webhook, message, 'held')).then(
      () => new Error('the held post was stored'),
      (error: unknown) => error,
    );
    let id: number | undefined;
    for (let i = 0; i < 200 && id === undefined; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      const [rows] = await pool.query(
        "SELECT ID AS id FROM information_schema.PROCESSLIST WHERE INFO LIKE 'INSERT INTO cwtest_at_posts (message_id, room_id, author_name%'",
      );
      id = (rows as Array<{ id: number }>)[0]?.id;
    }
    expect(id).toBeTypeOf('number');
    await pool.query(`KILL ${Number(id)}`);
    expect(await held).toMatchObject({ code: 'store_failed' });
    await holder.query('ROLLBACK');
    holder.release();
    expect(await appRows(webhook.channelId)).toEqual([]);
    expect(await libraryCount(webhook.channelId)).toBe(0);
  });

  it("an owner change and an archival by the app's own UPDATE hold at the next post and management call; putChannel writes the app's table", async () => {
    const room = `room_${randomId()}`;
    await pool.query("INSERT INTO cwtest_at_rooms (room_key, owner, is_archived, topic) VALUES (?, 'u1', NULL, 'hi')", [
      room,
    ]);
    const manager = createWebhookManager({ store, baseUrl: 'http://127.0.0.1' });
    const handle = createWebhookHandler({ store });
    const post = (path: string, text: string) =>
      handle({
        method: 'POST',
        url: path,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text }),
      });
    const alice = { userId: 'u1', role: 'member' as const };
    const bob = { userId: 'u2', role: 'member' as const };

    expect(await store.getChannel(room)).toEqual({ id: room, ownerId: 'u1', archived: false });
    const { webhook, url } = await manager.create(alice, { channelId: room, name: 'CI' });
    const path = new URL(url).pathname;
    expect((await post(path, 'first')).status).toBe(201);

    await pool.query("UPDATE cwtest_at_rooms SET owner = 'u2' WHERE room_key = ?", [room]);
    await expect(manager.list(alice, room)).rejects.toMatchObject({ code: 'forbidden' });
    expect((await manager.list(bob, room)).map((info) => info.id)).toEqual([webhook.id]);

    await pool.query('UPDATE cwtest_at_rooms SET is_archived = TRUE WHERE room_key = ?', [room]);
    const archived = await post(path, 'second');
    expect([archived.status, (archived.body as { code?: string }).code]).toEqual([409, 'channel_archived']);
    await pool.query('UPDATE cwtest_at_rooms SET is_archived = FALSE WHERE room_key = ?', [room]);
    expect((await post(path, 'third')).status).toBe(201);
    expect((await store.listMessages(room)).map((message) => message.body)).toEqual(['first', 'third']);
    expect((await appRows(room)).map((row) => row.text)).toEqual(['first', 'third']);

    await pool.query('DELETE FROM cwtest_at_rooms WHERE room_key = ?', [room]);
    expect((await post(path, 'fourth')).status).toBe(404);
    expect(await store.getChannel(room)).toBeNull();

    await store.putChannel({ id: room, ownerId: 'u3', archived: true });
    const [rows] = await pool.query('SELECT owner, is_archived FROM cwtest_at_rooms WHERE room_key = ?', [room]);
    expect(rows).toEqual([{ owner: 'u3', is_archived: 1 }]);
    // The store made no channel of its own.
    const [own] = await pool.query(`SELECT count(*) AS n FROM ${tablePrefix}channels WHERE id = ?`, [room]);
    expect(own).toEqual([{ n: 0 }]);
  });

  it('refuses names that are not identifiers, unknown keys, and values that cannot be bound', () => {
    const refused = (options: object) => {
      try {
        createMysqlStore({ pool, ...options } as never);
      } catch (error) {
        return { code: (error as { code?: string }).code, message: (error as Error).message };
      }
      throw new Error(`accepted ${JSON.stringify(options)}`);
    };
    expect(refused({ channels: 'rooms' })).toMatchObject({ code: 'invalid_argument' });
    expect(refused({ channels: { table: 'rooms; DROP TABLE rooms' } })).toMatchObject({ code: 'invalid_argument' });
    expect(refused({ channels: { table: 'rooms', id: 'Room Key' } })).toMatchObject({ code: 'invalid_argument' });
    expect(refused({ channels: { table: 'rooms', owner: 'owner' } }).message).toContain('did you mean `ownerId`');
    expect(refused({ messages: { table: 'posts', columns: { bodyText: 'text' } } }).message).toContain(
      'options.messages.columns has an unknown key `bodyText`',
    );
    expect(refused({ messages: { table: 'posts', columns: { body: 'text; DROP TABLE posts' } } })).toMatchObject({
      code: 'invalid_argument',
    });
    expect(refused({ messages: { table: 'posts`; --', columns: { body: 'text' } } })).toMatchObject({
      code: 'invalid_argument',
    });
    expect(refused({ messages: { table: 'posts', columns: {} } }).message).toContain('at least one message field');
    expect(
      refused({ messages: { table: 'posts', columns: { body: 'text' }, values: { 'kind = 1': 'x' } } }).message,
    ).toContain('not a lower-case column name');
    expect(
      refused({ messages: { table: 'posts', columns: { body: 'text' }, values: { kind: { sql: 'NOW()' } } } }).message,
    ).toContain('options.messages.values.kind');
    expect(
      refused({ messages: { table: 'posts', columns: { body: 'text' }, values: { text: 'x' } } }).message,
    ).toContain('names the column `text` twice');
  });
});
