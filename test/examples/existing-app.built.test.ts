import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { send } from '../support/http.js';

// Plain JavaScript: imported through a path typed as a string, since it ships no declarations.
const script = '../../examples/existing-app/server.js';
const { start } = (await import(script)) as {
  start: (options: {
    port: number;
    file: string;
  }) => Promise<{ server: Server; origin: string; stop(): Promise<void> }>;
};

const folders: string[] = [];
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** The app on a fresh SQLite file, and a connection of the test's own to that file, as another process has. */
async function startApp() {
  const folder = mkdtempSync(join(tmpdir(), 'cw-existing-app-'));
  folders.push(folder);
  const file = join(folder, 'app.sqlite');
  const started = await start({ port: 0, file });
  const database = new Database(file);
  stops.push(async () => {
    database.close();
  }, started.stop);
  return { ...started, database, file };
}

const as = (token: string) => ({ authorization: `Bearer ${token}` });

/** The app's own messages table, as its own code reads it. */
const appRows = (database: Database.Database) =>
  database
    .prepare('SELECT external_id, channel_id, kind, author_id, author_name, text FROM messages ORDER BY seq')
    .all();

describe('examples/existing-app: webhooks in an app with its own users, channels and messages', () => {
  it("a webhook made through the management API posts into the app's messages table, once per key; an app UPDATE archiving the channel makes the next post 409", async () => {
    const { origin, database } = await startApp();
    const created = await send(`${origin}/api/manage/channels/general/webhooks`, {
      headers: as('ada-token'),
      body: { name: 'CI' },
    });
    expect(created.status).toBe(201);
    const { url } = created.json as { url: string };

    expect(
      (await send(`${origin}/channels/general/messages`, { headers: as('bob-token'), body: { text: 'Is it out?' } }))
        .status,
    ).toBe(201);
    const first = await send(url, { headers: { 'idempotency-key': 'deploy-1' }, body: { text: 'Deploy finished' } });
    expect(first.status).toBe(201);
    const again = await send(url, { headers: { 'idempotency-key': 'deploy-1' }, body: { text: 'Deploy finished' } });
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ duplicate: true });

    const id = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(appRows(database)).toEqual([
      {
        external_id: null,
        channel_id: 'general',
        kind: 'person',
        author_id: 'u-bob',
        author_name: null,
        text: 'Is it out?',
      },
      {
        external_id: id,
        channel_id: 'general',
        kind: 'webhook',
        author_id: 'u-webhooks',
        author_name: 'CI',
        text: 'Deploy finished',
      },
    ]);
    // The room's history the app serves, from its own table: people's and webhooks' posts in order.
    const history = await send(`${origin}/channels/general/messages`, { method: 'GET', headers: as('bob-token') });
    expect(
      (history.json as { messages: Array<{ author: string; text: string }> }).messages.map(
        (m) => `${m.author}: ${m.text}`,
      ),
    ).toEqual(['Bob: Is it out?', 'CI: Deploy finished']);

    database.prepare("UPDATE channels SET archived = 1 WHERE id = 'general'").run();
    const archived = await send(url, { body: { text: 'Deploy 2 finished' } });
    expect(archived.status).toBe(409);
    expect(appRows(database)).toHaveLength(2);
  });

  it('the settings page has the element for the channel owner and an admin, and a sentence for a member who may not manage', async () => {
    const { origin, database } = await startApp();
    database.prepare("INSERT INTO users VALUES ('u-cy', 'Cy', 'admin', 'cy-token')").run();
    const page = async (token: string) => {
      const answer = await send(`${origin}/channels/general/settings`, { method: 'GET', headers: as(token) });
      expect(answer.status).toBe(200);
      return answer.text;
    };
    for (const token of ['ada-token', 'cy-token'])
      expect(await page(token)).toContain('<channel-webhooks-settings api="/api/manage" channel-id="general">');
    const bob = await page('bob-token');
    expect(bob).not.toContain('<channel-webhooks-settings');
    expect(bob).toContain("<p>Only the owner of #general and the organization's admins manage its webhooks.</p>");

    // The app hands the channel to Bob with its own UPDATE: the next page follows it.
    database.prepare("UPDATE channels SET owner_id = 'u-bob' WHERE id = 'general'").run();
    expect(await page('bob-token')).toContain('<channel-webhooks-settings');
    expect(await page('ada-token')).not.toContain('<channel-webhooks-settings');
    const element = await send(`${origin}/element.js`, { method: 'GET' });
    expect(element.status).toBe(200);
    expect(element.text).toContain('channel-webhooks-settings');
  });

  it('webhook messages stay in the app table across a restart on the same file', async () => {
    const { origin, stop, file, database } = await startApp();
    const made = await send(`${origin}/api/manage/channels/general/webhooks`, {
      headers: as('ada-token'),
      body: { name: 'CI' },
    });
    const { url } = made.json as { url: string };
    expect((await send(url, { body: { text: 'before the restart' } })).status).toBe(201);
    await stop();
    stops.splice(stops.indexOf(stop), 1);

    const again = await start({ port: 0, file });
    stops.push(again.stop);
    expect(appRows(database)).toEqual([
      expect.objectContaining({ kind: 'webhook', author_name: 'CI', text: 'before the restart' }),
    ]);
    const history = await send(`${again.origin}/channels/general/messages`, {
      method: 'GET',
      headers: as('bob-token'),
    });
    expect((history.json as { messages: Array<{ text: string }> }).messages.map((m) => m.text)).toEqual([
      'before the restart',
    ]);
  });
});
