import { spawn } from 'node:child_process';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../adapters/sqlite/index.js';
import { send } from '../support/http.js';
import { freePort } from '../support/servers.js';
import { freshFile } from './sqlite-support.js';

// examples/multi-process/server.js as its README runs it: a cluster of 2 workers on one file.
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

describe('examples/multi-process (cluster, one SQLite file)', () => {
  it('stores a key once and shares the 60-a-minute limit across its workers, which both store messages', async () => {
    const file = freshFile();
    const port = await freePort();
    const child = spawn(process.execPath, ['examples/multi-process/server.js'], {
      env: { PATH: process.env.PATH ?? '', DATABASE_FILE: file, PORT: String(port), WORKERS: '2' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    stops.push(async () => {
      child.kill('SIGTERM');
      await exited;
    });
    for (let i = 0; i < 400 && !/curl .* (\S+)\n/.test(stdout); i++) await new Promise((resolve) => setTimeout(resolve, 25));
    const url = /curl .* (\S+)\n/.exec(stdout)?.[1];
    expect(url, `${stdout}\n${stderr}`).toBeDefined();
    const post = (key: string | null) => send(url!, { body: { text: 'Deploy 42 finished' }, headers: key === null ? {} : { 'idempotency-key': key } });

    const sameKey = await Promise.all(Array.from({ length: 4 }, () => post('deploy-42')));
    expect(sameKey.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 201]);
    expect(new Set(sameKey.map((answer) => (answer.json as { message: { id: string } }).message.id)).size).toBe(1);

    const burst: number[] = [];
    for (let i = 0; i < 60; i++) burst.push((await post(null)).status);
    expect(burst.filter((status) => status === 201)).toHaveLength(56);
    expect(burst.filter((status) => status === 429)).toHaveLength(4);

    await new Promise((resolve) => setTimeout(resolve, 200));
    const storers = new Set([...stdout.matchAll(/^worker (\d+) stored /gm)].map((match) => match[1]));
    expect(storers.size).toBe(2);
    expect(createSqliteStore({ database: new Database(file) }).listMessages('general')).toHaveLength(57);
    expect(stderr).toBe('');
  }, 60_000);
});
