import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SQLITE_SCHEMA_VERSION } from '../../../../adapters/stores/sqlite/index.js';
import { freshFile } from './support.js';

// Processes that start together on one file of an old version all migrate it: they take turns on
// the file's write lock (BEGIN IMMEDIATE), so each step runs once and none of them fails, where a
// transaction that read before it wrote would find the file changed under it (SQLITE_BUSY_SNAPSHOT).
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const run = promisify(execFile);

describe('SQLite migration from several processes at once', () => {
  it('4 processes opening a version-1 file at once all succeed, and each step is applied once', async () => {
    const file = freshFile();
    const database = new Database(file);
    database.exec(readFileSync(new URL('../../../fixtures/schemas/sqlite/v1.sql', import.meta.url), 'utf8'));
    database.pragma('journal_mode = WAL');
    // The test holds the write lock while the processes start, so that all of them are migrating
    // when it lets go, whatever the machine's speed.
    database.exec('BEGIN IMMEDIATE');
    const startAt = String(Date.now() + 1_000);
    setTimeout(() => database.exec('COMMIT'), 1_500);
    const outputs = await Promise.all(
      Array.from({ length: 4 }, () =>
        run(process.execPath, ['test/adapters/stores/sqlite/migrate-child.mjs'], {
          cwd: root,
          env: { PATH: process.env.PATH ?? '', SQLITE_FILE: file, START_AT: startAt },
          timeout: 20_000,
        }).then(
          ({ stdout }) => JSON.parse(stdout) as unknown,
          (error: { stdout?: string }) => JSON.parse(error.stdout ?? 'null') as unknown,
        ),
      ),
    );
    expect(outputs).toEqual(Array.from({ length: 4 }, () => ({ migrated: true })));
    const versions = database.prepare('SELECT version FROM channel_webhooks_migrations ORDER BY version').pluck().all();
    expect(versions).toEqual(Array.from({ length: SQLITE_SCHEMA_VERSION }, (_, i) => i + 1));
    database.close();
  });
});
