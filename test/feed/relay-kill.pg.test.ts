import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStore, type PostgresStore } from '../../adapters/stores/postgres/index.js';
import { insertInput, makeMessage, makeWebhook } from '../../src/testing/fixtures.js';
import { backends } from '../support/backends.js';

// The relay's promise to an app with a store of its own: messages stored in PostgreSQL reach the
// app's SQLite file exactly once and in order, while the app's process is killed (SIGKILL, no
// chance to clean up) again and again in the middle of the stream and started anew.
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const child = join(root, 'test', 'feed', 'fixtures', 'relay-into-sqlite.ts');
const { databaseUrl, title } = backends();
const TABLE_PREFIX = 'cwtest_relay_kill_';
const MESSAGES = 300;
const KILLS = 3;

describe.skipIf(databaseUrl === null)(title('relayMessages into a SQLite file across kill -9', 'postgres'), () => {
  let pool: pg.Pool;
  let store: PostgresStore;
  let directory: string;
  let app: ChildProcess | undefined;

  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: databaseUrl!, max: 4 });
    store = createPostgresStore({ pool, tablePrefix: TABLE_PREFIX });
    await store.migrate();
    directory = mkdtempSync(join(tmpdir(), 'cw-relay-kill-'));
  });
  afterAll(async () => {
    app?.kill('SIGKILL');
    await pool?.query(
      `DO $$ DECLARE t text; BEGIN FOR t IN SELECT tablename FROM pg_tables WHERE tablename LIKE '${TABLE_PREFIX}%' LOOP EXECUTE format('DROP TABLE %I CASCADE', t); END LOOP; END $$`,
    );
    await pool?.end();
    rmSync(directory, { recursive: true, force: true });
  });

  it('puts every message into the app database once and in order, with the app killed mid-stream', async () => {
    const file = join(directory, 'app.sqlite');
    let output = '';
    const start = async () => {
      const started = spawn(process.execPath, ['--import', 'tsx', child], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: databaseUrl!, TABLE_PREFIX, APP_DATABASE: file },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let said = '';
      started.stdout!.on('data', (chunk: Buffer) => (said += chunk.toString()));
      started.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      await expect.poll(() => said, { timeout: 15_000, interval: 20 }).toContain('relaying');
      return started;
    };
    const rows = () => {
      const reader = new Database(file, { readonly: true, fileMustExist: true });
      try {
        return reader.prepare('SELECT message_id FROM chat_messages ORDER BY seq').pluck().all() as string[];
      } finally {
        reader.close();
      }
    };

    const channelId = `relay-${Date.now()}`;
    const webhook = makeWebhook(channelId, Date.parse('2026-01-01T00:00:00Z'));
    await store.putChannel({ id: channelId, ownerId: 'u1', archived: false });
    await store.insertWebhook(webhook);
    const posted: string[] = [];
    const post = async (count: number) => {
      for (let i = 0; i < count && posted.length < MESSAGES; i++) {
        const message = makeMessage(webhook, Date.parse('2026-01-01T00:00:01Z') + posted.length, {
          body: `message ${posted.length}`,
        });
        await store.insertMessage(insertInput(webhook, message, null));
        posted.push(message.id);
      }
    };

    const relayedAtKill: number[] = [];
    app = await start();
    for (let kill = 0; kill < KILLS; kill++) {
      await post(MESSAGES / (KILLS + 1));
      // A random moment while the app works through the backlog.
      await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 150));
      const exited = new Promise((resolve) => app!.once('exit', resolve));
      app.kill('SIGKILL');
      await exited;
      relayedAtKill.push(rows().length);
      app = await start();
    }
    await post(MESSAGES);
    await expect.poll(() => rows().length, { timeout: 15_000, interval: 50 }).toBeGreaterThanOrEqual(MESSAGES);
    app.kill('SIGKILL');

    expect(output).toBe('');
    expect(rows()).toEqual(posted);
    // The kills landed in the middle of the stream, not between bursts.
    expect(relayedAtKill.some((count, kill) => count > 0 && count < ((kill + 1) * MESSAGES) / (KILLS + 1))).toBe(true);
  }, 60_000);
});
