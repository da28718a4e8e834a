import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../../../adapters/stores/sqlite/index.js';
import { createWebhookHandler, createWebhookManager } from '../../../../src/index.js';
import { freshFile, post } from './support.js';

// The app's own schema: rooms with its own column names, an archival time rather than a flag, and
// a view that gives the store the shape it reads.
const APP_SCHEMA = `
  CREATE TABLE rooms (room_key TEXT PRIMARY KEY, owner TEXT NOT NULL, is_archived INTEGER, topic TEXT);
  CREATE TABLE spaces (id TEXT PRIMARY KEY, created_by TEXT NOT NULL, archived_at TEXT);
  CREATE VIEW space_channels AS SELECT id, created_by AS owner_id, archived_at IS NOT NULL AS archived FROM spaces;
`;

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

async function setUp(channels: Parameters<typeof createSqliteStore>[0]['channels']) {
  const database = appDatabase();
  const store = createSqliteStore({ database, channels });
  const manager = createWebhookManager({ store, baseUrl: 'http://127.0.0.1' });
  const handle = createWebhookHandler({ store });
  return { database, store, manager, handle };
}

describe("SQLite store with channels read through the app's own table", () => {
  it("an owner change and an archival by the app's own UPDATE hold at the next post and management call", async () => {
    const { database, store, manager, handle } = await setUp({
      table: 'rooms',
      id: 'room_key',
      ownerId: 'owner',
      archived: 'is_archived',
    });
    database
      .prepare("INSERT INTO rooms (room_key, owner, is_archived, topic) VALUES ('general', 'u1', NULL, 'hi')")
      .run();
    const alice = { userId: 'u1', role: 'member' as const };
    const bob = { userId: 'u2', role: 'member' as const };

    expect(store.getChannel('general')).toEqual({ id: 'general', ownerId: 'u1', archived: false });
    const { webhook, url } = await manager.create(alice, { channelId: 'general', name: 'CI' });
    const path = new URL(url).pathname;
    expect((await post(handle, path, 'first')).status).toBe(201);

    database.prepare("UPDATE rooms SET owner = 'u2' WHERE room_key = 'general'").run();
    await expect(manager.list(alice, 'general')).rejects.toMatchObject({ code: 'forbidden' });
    expect((await manager.list(bob, 'general')).map((info) => info.id)).toEqual([webhook.id]);

    database.prepare("UPDATE rooms SET is_archived = 1 WHERE room_key = 'general'").run();
    const archived = await post(handle, path, 'second');
    expect(archived.status).toBe(409);
    expect(archived.body).toMatchObject({ code: 'channel_archived' });
    await expect(manager.create(bob, { channelId: 'general', name: 'Other' })).rejects.toMatchObject({
      code: 'channel_archived',
    });

    database.prepare("UPDATE rooms SET is_archived = 0 WHERE room_key = 'general'").run();
    expect((await post(handle, path, 'third')).status).toBe(201);
    expect(store.listMessages('general').map((message) => message.body)).toEqual(['first', 'third']);

    database.prepare("DELETE FROM rooms WHERE room_key = 'general'").run();
    expect((await post(handle, path, 'fourth')).status).toBe(404);
    expect(store.getChannel('general')).toBeNull();
    // The store made no table of channels of its own use.
    expect(database.prepare('SELECT count(*) AS n FROM channel_webhooks_channels').get()).toEqual({ n: 0 });
  });

  it("reads a view over the app's table, and putChannel writes the app's table", async () => {
    const { database, store, manager, handle } = await setUp({ table: 'space_channels' });
    database.prepare("INSERT INTO spaces (id, created_by) VALUES ('ops', 'u1')").run();
    const { url } = await manager.create({ userId: 'u1', role: 'member' }, { channelId: 'ops', name: 'Alerts' });
    const path = new URL(url).pathname;
    expect((await post(handle, path, 'up')).status).toBe(201);
    database.prepare("UPDATE spaces SET archived_at = '2026-01-01' WHERE id = 'ops'").run();
    expect((await post(handle, path, 'down')).status).toBe(409);
    expect(store.getChannel('ops')).toEqual({ id: 'ops', ownerId: 'u1', archived: true });

    const rooms = await setUp({ table: 'rooms', id: 'room_key', ownerId: 'owner', archived: 'is_archived' });
    rooms.store.putChannel({ id: 'design', ownerId: 'u3', archived: false });
    expect(rooms.database.prepare('SELECT room_key, owner, is_archived FROM rooms').all()).toEqual([
      { room_key: 'design', owner: 'u3', is_archived: 0 },
    ]);
  });

  it('refuses names that are not identifiers, unknown keys, and a table or column that is not there', () => {
    const database = appDatabase();
    const refused = (channels: unknown) => {
      try {
        createSqliteStore({ database, channels } as never);
      } catch (error) {
        return { code: (error as { code?: string }).code, message: (error as Error).message };
      }
      throw new Error(`accepted ${JSON.stringify(channels)}`);
    };
    expect(refused('rooms')).toMatchObject({ code: 'invalid_argument' });
    expect(refused({ table: 'rooms; DROP TABLE rooms' })).toMatchObject({ code: 'invalid_argument' });
    expect(refused({ table: 'a.b.c' })).toMatchObject({ code: 'invalid_argument' });
    expect(refused({ table: 'rooms', id: 'Room Key' })).toMatchObject({ code: 'invalid_argument' });
    expect(refused({ table: 'rooms', owner: 'owner' }).message).toContain('did you mean `ownerId`');
    expect(refused({ table: 'chanels' }).message).toContain('`chanels`, which is no table or view');
    expect(refused({ table: 'rooms', id: 'room_key' }).message).toContain(
      '`owner_id`, `archived`, not a column of `rooms`',
    );
    expect(database.prepare("SELECT name FROM sqlite_master WHERE name = 'rooms'").get()).toEqual({ name: 'rooms' });
  });
});
