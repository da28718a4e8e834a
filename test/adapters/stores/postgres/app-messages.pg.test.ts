import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPostgresStore,
  type MessageMapping,
  type PostgresStore,
} from '../../../../adapters/stores/postgres/index.js';
import { insertInput, makeMessage, makeWebhook, randomId } from '../../../../src/testing/fixtures.js';
import type { WebhookRecord } from '../../../../src/index.js';
import { backends } from '../../../support/backends.js';

const { databaseUrl, title } = backends();
const tablePrefix = 'cwtest_app_messages_';
const t0 = Date.UTC(2026, 0, 1, 12);

// The app's own messages table: people's posts and webhooks' side by side, its own column names
// and types, a constraint of its own, and a trigger that can hold a post mid-transaction.
const APP_SCHEMA = `
  DROP TABLE IF EXISTS cwtest_am_posts;
  CREATE TABLE cwtest_am_posts (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    message_id text UNIQUE,
    room_id text NOT NULL,
    kind text NOT NULL,
    user_id text,
    author_name text,
    text text NOT NULL CHECK (text <> 'refused by the app'),
    blocks jsonb,
    posted_at timestamptz NOT NULL,
    pinned boolean NOT NULL
  );
  CREATE OR REPLACE FUNCTION cwtest_am_hold() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF NEW.text = 'hold me' THEN PERFORM pg_advisory_xact_lock(4343); END IF;
    RETURN NEW;
  END $$;
  CREATE TRIGGER cwtest_am_hold BEFORE INSERT ON cwtest_am_posts FOR EACH ROW EXECUTE FUNCTION cwtest_am_hold();
`;

const messages: MessageMapping = {
  table: 'cwtest_am_posts',
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

describe.skipIf(databaseUrl === null)(
  title("PostgreSQL store writing messages to the app's own table", 'postgres'),
  () => {
    let pool: pg.Pool;
    let store: PostgresStore;

    beforeAll(async () => {
      pool = new pg.Pool({ connectionString: databaseUrl!, max: 10 });
      await pool.query(APP_SCHEMA);
      store = createPostgresStore({ pool, tablePrefix, messages });
      await store.migrate();
    });
    afterAll(async () => {
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
          `SELECT message_id, room_id, kind, user_id, author_name, text, blocks, posted_at, pinned FROM cwtest_am_posts WHERE room_id = $1 ORDER BY seq`,
          [roomId],
        )
      ).rows;
    const libraryCount = async (roomId: string) =>
      Number(
        (await pool.query(`SELECT count(*) FROM ${tablePrefix}messages WHERE channel_id = $1`, [roomId])).rows[0].count,
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
          posted_at: new Date(t0 + 1),
          pinned: false,
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

    it('group commit keeps its batches with the app rows in them, and a refused post fails alone', async () => {
      const webhook = await seeded();
      const texts = Array.from({ length: 12 }, (_, i) => (i === 7 ? 'refused by the app' : `post ${i}`));
      // Made in one synchronous run: the first goes alone and the rest together, as one statement.
      const posts = texts.map((text, i) =>
        insertInput(webhook, makeMessage(webhook, t0 + i, { body: text }), `key-${i % 10}`),
      );
      const results = await Promise.allSettled(posts.map((post) => store.insertMessage(post)));
      expect(results.map((result) => (result.status === 'fulfilled' ? result.value.outcome : 'failed'))).toEqual([
        'created',
        'created',
        'created',
        'created',
        'created',
        'created',
        'created',
        'failed',
        'created',
        'created',
        'duplicate',
        'duplicate',
      ]);
      const stored = (await appRows(webhook.channelId)).map((row) => row.text);
      expect(stored.sort()).toEqual(texts.filter((_text, i) => i !== 7 && i < 10).sort());
      expect(await libraryCount(webhook.channelId)).toBe(9);
    });

    it('a connection killed in the middle of the transaction leaves neither row', async () => {
      const webhook = await seeded();
      // The test holds the lock the app's trigger waits for, so the post stops inside its transaction.
      const holder = await pool.connect();
      await holder.query('SELECT pg_advisory_lock(4343)');
      // Its outcome is taken at once: the post fails while the test is still killing its connection.
      const held = store
        .insertMessage(insertInput(webhook, makeMessage(webhook, t0 + 1, { body: 'hold me' }), 'held'))
        .then(
          () => new Error('the held post was stored'),
          (error: unknown) => error,
        );
      let pid: number | undefined;
      for (let i = 0; i < 200 && pid === undefined; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        const { rows } = await pool.query(
          "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objid = 4343 AND NOT granted",
        );
        pid = rows[0]?.pid;
      }
      expect(pid).toBeTypeOf('number');
      await pool.query('SELECT pg_terminate_backend($1)', [pid]);
      expect(await held).toMatchObject({ code: 'store_failed' });
      await holder.query('SELECT pg_advisory_unlock(4343)');
      holder.release();
      expect(await appRows(webhook.channelId)).toEqual([]);
      expect(await libraryCount(webhook.channelId)).toBe(0);
    });

    it('refuses a mapping with an unknown field, a name that is no identifier, or a value that cannot be bound', () => {
      const refused = (mapping: unknown) => {
        try {
          createPostgresStore({ pool, messages: mapping as MessageMapping });
        } catch (error) {
          return { code: (error as { code?: string }).code, message: (error as Error).message };
        }
        throw new Error(`accepted ${JSON.stringify(mapping)}`);
      };
      expect(refused('posts')).toMatchObject({ code: 'invalid_argument' });
      expect(refused({ table: 'posts', columns: { bodyText: 'text' } }).message).toContain(
        'options.messages.columns has an unknown key `bodyText`',
      );
      expect(refused({ table: 'posts', columns: { body: 'text; DROP TABLE posts' } })).toMatchObject({
        code: 'invalid_argument',
      });
      expect(refused({ table: 'posts"; --', columns: { body: 'text' } })).toMatchObject({ code: 'invalid_argument' });
      expect(refused({ table: 'posts', columns: {} }).message).toContain('at least one message field');
      expect(refused({ table: 'posts', columns: { body: 'text' }, values: { 'kind = 1': 'x' } }).message).toContain(
        'not a lower-case column name',
      );
      expect(
        refused({ table: 'posts', columns: { body: 'text' }, values: { kind: { sql: 'now()' } } }).message,
      ).toContain('options.messages.values.kind');
      expect(refused({ table: 'posts', columns: { body: 'text' }, values: { text: 'x' } }).message).toContain(
        'names the column `text` twice',
      );
      expect(refused({ table: 'posts', columns: { body: 'text' }, value: {} }).message).toContain(
        'did you mean `values`',
      );
    });
  },
);
