import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteStore, type MessageMapping } from '../../../../adapters/stores/sqlite/index.js';
import { insertInput, makeMessage, makeWebhook, randomId } from '../../../../src/testing/fixtures.js';
import { createWebhookHandler, createWebhookManager } from '../../../../src/index.js';
import { freshFile, post } from './support.js';

const t0 = Date.UTC(2026, 0, 1, 12);

// The app's own messages table: people's posts and webhooks' side by side, with its own names and
// a constraint of its own.
const APP_SCHEMA = `
  CREATE TABLE posts (
    seq INTEGER PRIMARY KEY,
    message_id TEXT UNIQUE,
    room_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    user_id TEXT,
    author_name TEXT,
    text TEXT NOT NULL CHECK (text <> 'refused by the app'),
    blocks TEXT,
    posted_at TEXT NOT NULL,
    pinned INTEGER NOT NULL
  );
`;

const messages: MessageMapping = {
  table: 'posts',
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

const open: Database.Database[] = [];
afterEach(async () => {
  // The handler records each answer in the history on a later tick.
  await new Promise((resolve) => setTimeout(resolve, 50));
  for (const database of open.splice(0)) database.close();
});

function appDatabase() {
  const database = new Database(freshFile());
  open.push(database);
  database.exec(APP_SCHEMA);
  return database;
}

const rows = (database: Database.Database) =>
  database
    .prepare(
      'SELECT message_id, room_id, kind, user_id, author_name, text, blocks, posted_at, pinned FROM posts ORDER BY seq',
    )
    .all();
const libraryCount = (database: Database.Database) =>
  (database.prepare('SELECT count(*) AS n FROM channel_webhooks_messages').get() as { n: number }).n;

describe("SQLite store writing messages to the app's own table", () => {
  it("a 201 has the app's row with its fixed values; a duplicate adds nothing; a refused one leaves neither", async () => {
    const database = appDatabase();
    const store = createSqliteStore({ database, messages });
    store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
    const manager = createWebhookManager({ store, baseUrl: 'http://127.0.0.1' });
    const { webhook, url } = await manager.create(
      { userId: 'u1', role: 'member' },
      { channelId: 'general', name: 'CI' },
    );
    const handle = createWebhookHandler({ store, onError: () => {} });
    const path = new URL(url).pathname;

    const created = await post(handle, path, 'Deploy finished', 'deploy-1');
    expect(created.status).toBe(201);
    expect((await post(handle, path, 'Deploy finished again', 'deploy-1')).status).toBe(200);
    const [stored] = store.listMessages('general');
    expect(rows(database)).toEqual([
      {
        message_id: stored!.id,
        room_id: 'general',
        kind: 'webhook',
        user_id: 'bot-user',
        author_name: 'CI',
        text: 'Deploy finished',
        blocks: '[]',
        posted_at: stored!.createdAt,
        pinned: 0,
      },
    ]);
    expect(stored!.author.id).toBe(webhook.id);

    const refused = await post(handle, path, 'refused by the app', 'deploy-2');
    expect(refused.status).toBe(500);
    expect(rows(database)).toHaveLength(1);
    expect(libraryCount(database)).toBe(1);
    // The key was not used up: the retry with a body the app takes is stored.
    expect((await post(handle, path, 'fixed', 'deploy-2')).status).toBe(201);
    expect(rows(database).map((row) => (row as { text: string }).text)).toEqual(['Deploy finished', 'fixed']);
  });

  it('with group commit, posts of one turn keep their own outcomes and a refused post fails alone', async () => {
    const database = appDatabase();
    const store = createSqliteStore({ database, messages, groupCommit: true });
    const webhook = makeWebhook(`room_${randomId()}`, t0);
    store.putChannel({ id: webhook.channelId, ownerId: 'u1', archived: false });
    store.insertWebhook(webhook);
    const texts = Array.from({ length: 10 }, (_, i) => (i === 4 ? 'refused by the app' : `post ${i}`));
    const inputs = texts.map((text, i) =>
      insertInput(webhook, makeMessage(webhook, t0 + i, { body: text }), `k${i % 8}`),
    );
    const results = await Promise.allSettled(inputs.map((input) => store.insertMessage(input)));
    expect(results.map((result) => (result.status === 'fulfilled' ? result.value.outcome : 'failed'))).toEqual([
      'created',
      'created',
      'created',
      'created',
      'failed',
      'created',
      'created',
      'created',
      'duplicate',
      'duplicate',
    ]);
    expect(rows(database).map((row) => (row as { text: string }).text)).toEqual(
      texts.filter((_text, i) => i !== 4 && i < 8),
    );
    expect(libraryCount(database)).toBe(7);
  });

  it('refuses at creation a table or a column the database does not have', () => {
    const database = appDatabase();
    const refused = (mapping: MessageMapping) => {
      try {
        createSqliteStore({ database, messages: mapping });
      } catch (error) {
        return { code: (error as { code?: string }).code, message: (error as Error).message };
      }
      throw new Error(`accepted ${JSON.stringify(mapping)}`);
    };
    expect(refused({ table: 'post', columns: { body: 'text' } })).toMatchObject({
      code: 'invalid_argument',
      message: expect.stringContaining('`post`, which is no table or view'),
    });
    expect(refused({ table: 'posts', columns: { body: 'body' }, values: { type: 'webhook' } })).toMatchObject({
      code: 'invalid_argument',
      message: expect.stringContaining('`body`, `type`, not a column of `posts`'),
    });
    expect(refused({ table: 'posts', columns: { bodyText: 'text' } } as never).message).toContain(
      'options.messages.columns has an unknown key `bodyText`',
    );
  });
});
