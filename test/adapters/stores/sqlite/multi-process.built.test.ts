import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../../../adapters/stores/sqlite/index.js';
import { send } from '../../../support/http.js';
import { freePort } from '../../../support/servers.js';
import { freshFile, startApp } from './support.js';

// examples/multi-process/server.js as its README runs it: a cluster of 2 workers on one file.
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

describe('examples/multi-process (cluster, one SQLite file)', () => {
  it('stores a key once and shares the 60-a-minute limit across its workers, which both store messages', async () => {
    const file = freshFile();
    const app = await startApp(
      'examples/multi-process/server.js',
      { DATABASE_FILE: file, PORT: String(await freePort()), WORKERS: '2' },
      stops,
    );
    const { url } = app;
    const post = (key: string | null) =>
      send(url, { body: { text: 'Deploy 42 finished' }, headers: key === null ? {} : { 'idempotency-key': key } });

    const sameKey = await Promise.all(Array.from({ length: 4 }, () => post('deploy-42')));
    expect(sameKey.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 201]);
    expect(new Set(sameKey.map((answer) => (answer.json as { message: { id: string } }).message.id)).size).toBe(1);

    const burst: number[] = [];
    for (let i = 0; i < 60; i++) burst.push((await post(null)).status);
    expect(burst.filter((status) => status === 201)).toHaveLength(56);
    expect(burst.filter((status) => status === 429)).toHaveLength(4);

    await new Promise((resolve) => setTimeout(resolve, 200));
    const storers = new Set([...app.stdout().matchAll(/^worker (\d+) stored /gm)].map((match) => match[1]));
    expect(storers.size).toBe(2);
    expect(createSqliteStore({ database: new Database(file) }).listMessages('general')).toHaveLength(57);
    expect(app.stderr()).toBe('');
  }, 60_000);
});
