import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../../../adapters/stores/sqlite/index.js';
import { send } from '../../../support/http.js';
import { freePort } from '../../../support/servers.js';
import { freshFile, startApp } from './support.js';

// `npm start` (examples/express/server.js) on SQLite, on a file of its own (STORE_FILE), run as a
// process and restarted.
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

const startDemo = async (env: Record<string, string>) =>
  startApp('examples/express/server.js', { PORT: String(await freePort()), DEMO: 'off', ...env }, stops);

const postText = (url: string, text: string) => send(url, { body: { text } });

describe('npm start on SQLite', () => {
  it('says where its data is first, and keeps its channel, webhooks and messages across a restart', async () => {
    const file = freshFile();
    const before = Math.floor(Date.now() / 1_000) * 1_000;
    const first = await startDemo({ STORE_FILE: file });
    expect(first.stdout().split('\n')[0]).toBe(
      `Data: SQLite file ${file}, kept across restarts (STORE=memory keeps nothing).`,
    );
    expect((await postText(first.url, 'before the restart')).status).toBe(201);
    await first.stop();

    const second = await startDemo({ STORE_FILE: file });
    // The webhook made before the restart still posts into the same channel (on the new port).
    const oldHook = (demo: { url: string }) => new URL(new URL(first.url).pathname, demo.url).href;
    expect(new URL(second.url).pathname).not.toBe(new URL(first.url).pathname);
    expect((await postText(oldHook(second), 'after the restart')).status).toBe(201);
    await second.stop();

    const store = createSqliteStore({ database: new Database(file) });
    expect(store.listMessages('general').map((message) => message.body)).toEqual([
      'before the restart',
      'after the restart',
    ]);
    // Each start made one webhook, named by the time of that start, so that the two are told apart.
    const names = store.listWebhooks('general').map((webhook) => webhook.name);
    expect(names).toHaveLength(2);
    for (const name of names) {
      const started = /^Demo, started (\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d) UTC$/.exec(name);
      expect(started, name).not.toBeNull();
      const at = Date.parse(`${started![1]}T${started![2]}Z`);
      expect(at).toBeGreaterThanOrEqual(before);
      expect(at).toBeLessThanOrEqual(Date.now());
    }
    expect(first.stdout()).toContain(`URL of the webhook "${names[0]}" in #general`);
    expect(second.stdout()).toContain(`URL of the webhook "${names[1]}" in #general`);

    // The demo makes its channel active at each start (it creates a webhook there); what the file
    // holds stays.
    store.putChannel({ id: 'general', ownerId: 'u-demo', archived: true });
    const third = await startDemo({ STORE_FILE: file });
    expect((await postText(oldHook(third), 'third run')).status).toBe(201);
    expect(store.listMessages('general')).toHaveLength(3);
    expect(second.stderr()).toBe('');
  }, 60_000);

  it('with STORE=memory keeps nothing and writes no file', async () => {
    const file = freshFile();
    const demo = await startDemo({ STORE: 'memory', STORE_FILE: file });
    expect(demo.stdout().split('\n')[0]).toBe('Data: in memory (STORE=memory), gone when the process stops.');
    expect((await postText(demo.url, 'kept in memory')).status).toBe(201);
    await demo.stop();
    expect(existsSync(file)).toBe(false);
  }, 30_000);
});
