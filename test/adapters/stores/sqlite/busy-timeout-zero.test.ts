import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteRateLimiter, createSqliteStore } from '../../../../adapters/stores/sqlite/index.js';
import { problem, problemHeaders } from '../../../support/setup.js';
import { createWebhookHandler, freshFile, post, seed } from './support.js';

const failure = (code: string, message: RegExp) =>
  expect.objectContaining({ name: 'ChannelWebhookError', code, message: expect.stringMatching(message) });

const opened: Database.Database[] = [];
/** A connection to `file`, closed after the test. */
function connect(file: string): Database.Database {
  const database = new Database(file);
  opened.push(database);
  return database;
}
afterEach(() => {
  for (const database of opened.splice(0)) database.close();
});

/** Another connection on `file` that holds its write lock until `release`. */
function holdWriteLock(file: string) {
  const holder = connect(file);
  holder.exec('BEGIN IMMEDIATE');
  return { release: () => holder.exec('COMMIT') };
}

/** The answer to one post, and how long it took in ms. */
async function timed<T>(work: () => Promise<T>): Promise<{ answer: T; ms: number }> {
  const started = performance.now();
  const answer = await work();
  return { answer, ms: performance.now() - started };
}

const storeFailed = {
  status: 500,
  headers: problemHeaders({ remaining: 59, seconds: 60 }),
  body: problem(500, 'store_failed'),
};

// Rule: `busyTimeoutMs: 0` is SQLite's own "fail at once when locked", not "the default": a write
// that meets another connection's write lock fails at once with a 500, while the default waits
// 2 s for the lock first. The time bounds are loose: they tell "at once" from "after 2 s".
describe('SQLite busyTimeoutMs: 0 fails at once on a locked file', () => {
  it('a post to a store with busyTimeoutMs 0 is answered 500 at once; the default store waits first', async () => {
    const file = freshFile();
    const { path } = await seed(file);
    const reported: unknown[] = [];
    const atOnce = createWebhookHandler({
      store: createSqliteStore({ database: connect(file), busyTimeoutMs: 0 }),
      onError: (error) => reported.push(error),
    });
    const waiting = createWebhookHandler({
      store: createSqliteStore({ database: connect(file) }),
      onError: () => undefined,
    });
    const lock = holdWriteLock(file);

    const zero = await timed(() => post(atOnce, path, 'while locked', 'evt-1'));
    expect(zero.answer).toEqual(storeFailed);
    expect(zero.ms).toBeLessThan(1_000);
    expect(reported).toEqual([failure('store_failed', /locked by another connection for busyTimeoutMs \(0 ms\)/)]);

    const byDefault = await timed(() => post(waiting, path, 'while locked', 'evt-2'));
    expect(byDefault.answer).toEqual(storeFailed);
    expect(byDefault.ms).toBeGreaterThanOrEqual(1_500);

    lock.release();
    const stored = await post(atOnce, path, 'while locked', 'evt-1');
    expect(stored.status).toBe(201);
    expect(
      createSqliteStore({ database: connect(file) })
        .listMessages('general')
        .map((message) => message.body),
    ).toEqual(['while locked']);
  }, 30_000);

  it('a limiter with busyTimeoutMs 0 fails at once: 500 under onRateLimiterError reject', async () => {
    const file = freshFile();
    const { path } = await seed(file);
    const reported: unknown[] = [];
    const handle = createWebhookHandler({
      store: createSqliteStore({ database: connect(file) }),
      rateLimiter: createSqliteRateLimiter({ database: connect(file), busyTimeoutMs: 0 }),
      onRateLimiterError: 'reject',
      onError: (error) => reported.push(error),
    });
    const lock = holdWriteLock(file);

    const zero = await timed(() => post(handle, path, 'while locked'));
    expect(zero.answer).toEqual({ status: 500, headers: problemHeaders(), body: problem(500, 'rate_limiter_failed') });
    expect(zero.ms).toBeLessThan(1_000);
    expect(reported).toEqual([
      failure('rate_limiter_failed', /locked by another connection for busyTimeoutMs \(0 ms\)/),
    ]);
    lock.release();
  }, 30_000);
});
