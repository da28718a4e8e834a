import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { createWebhookHandler, createWebhookManager, type WebhookHandler } from '../../../../src/index.js';
import { createSqliteStore, type SqliteStore } from '../../../../adapters/stores/sqlite/index.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const CHILD = 'test/adapters/stores/sqlite/child.mjs';

/** A fresh database file in its own directory. */
export function freshFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'cw-sqlite-')), 'webhooks.sqlite');
}

/** Seeds `file` with an active channel and one webhook; returns the webhook's URL path and a store on it. */
export async function seed(
  file: string,
): Promise<{ path: string; webhookId: string; store: SqliteStore; database: Database.Database }> {
  const database = new Database(file);
  const store = createSqliteStore({ database });
  store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
  const manager = createWebhookManager({ store, baseUrl: 'http://127.0.0.1' });
  const { webhook, url } = await manager.create({ userId: 'u1', role: 'member' }, { channelId: 'general', name: 'CI' });
  return { path: new URL(url).pathname, webhookId: webhook.id, store, database };
}

/** A JSON post through `handle`, with an optional idempotency key. */
export function post(handle: WebhookHandler, path: string, text: string, key: string | null = null) {
  return handle({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/json', ...(key === null ? {} : { 'idempotency-key': key }) },
    body: JSON.stringify({ text }),
  });
}

export { createWebhookHandler };

/**
 * Runs an example app (`script`) as a process with `env` until it prints its curl line; answers the
 * webhook URL it printed, its output so far, and `stop`, also called after the test.
 */
export async function startApp(script: string, env: Record<string, string>, stops: Array<() => Promise<void>>) {
  const child = spawn(process.execPath, [script], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
    await exited;
  };
  stops.push(stop);
  for (let i = 0; i < 400 && !/curl .* (\S+)\n/.test(stdout); i++)
    await new Promise((resolve) => setTimeout(resolve, 25));
  const url = /curl .* (\S+)\n/.exec(stdout)?.[1];
  if (url === undefined) throw new Error(`${script} did not start:\n${stdout}\n${stderr}`);
  return { url, stdout: () => stdout, stderr: () => stderr, stop };
}

/** One line a child wrote (see child.mjs). */
export interface ChildLine {
  ready?: true;
  locked?: true;
  released?: true;
  i?: number;
  key?: string | null;
  status?: number;
  id?: string | null;
  code?: string | null;
}

export interface Child {
  pid: number;
  lines: ChildLine[];
  stderr(): string;
  /** Resolves once a line satisfies `test` (rejects when the child exits first or after 20 s). */
  waitFor(test: (lines: ChildLine[]) => boolean): Promise<void>;
  exited: Promise<number | null>;
  kill(signal: NodeJS.Signals): void;
}

/** Spawns child.mjs (on the built package) in `mode`, under nice, on `file`. */
export function spawnChild(mode: 'race' | 'limit' | 'load' | 'hold' | 'stay', env: Record<string, string>): Child {
  if (!existsSync(join(root, 'dist/sqlite.js')))
    throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
  const child = spawn('nice', ['-n', '5', process.execPath, CHILD], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', MODE: mode, START_AT: '0', COUNT: '0', HOLD_MS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: ChildLine[] = [];
  let partial = '';
  let stderr = '';
  const listeners = new Set<() => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    const text = partial + chunk.toString();
    const complete = text.split('\n');
    partial = complete.pop()!;
    for (const line of complete) lines.push(JSON.parse(line) as ChildLine);
    for (const listener of listeners) listener();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    pid: child.pid!,
    lines,
    stderr: () => stderr,
    exited,
    kill: (signal) => child.kill(signal),
    waitFor: (test) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!test(lines)) return;
          done();
          resolve();
        };
        const timer = setTimeout(() => (done(), reject(new Error(`child ${mode} timed out:\n${stderr}`))), 20_000);
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        void exited.then(() => {
          if (test(lines)) return;
          done();
          reject(new Error(`child ${mode} exited:\n${stderr}`));
        });
        listeners.add(check);
        check();
      }),
  };
}
