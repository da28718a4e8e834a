import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  createSqliteRateLimiter,
  type SqliteDatabase,
  type SqliteStatement,
} from '../../../../adapters/stores/sqlite/index.js';
import { freshFile } from './support.js';

// The limiter appends each allowed request to a log and keeps the windows in memory, read again
// from the log before each decision: what it counts is what the file holds.

const t0 = Date.UTC(2026, 0, 1);

/** A connection whose next COMMIT fails (as a full disk would) when `failNext.commit` is set. */
function failingCommit(database: SqliteDatabase) {
  const failNext = { commit: false };
  const wrapped: SqliteDatabase = {
    exec: (text) => database.exec(text),
    prepare(text): SqliteStatement {
      const statement = database.prepare(text);
      if (text !== 'COMMIT') return statement;
      return {
        run: (...params) => {
          if (failNext.commit) {
            failNext.commit = false;
            throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
          }
          return statement.run(...params);
        },
        get: (...params) => statement.get(...params),
        all: (...params) => statement.all(...params),
      };
    },
  };
  return { database: wrapped, failNext };
}

const rows = (database: Database.Database) =>
  Number(database.prepare('SELECT count(*) FROM channel_webhooks_rate_log').pluck().get());

describe('SQLite limiter on its log', () => {
  it('a decision whose commit failed is not counted: the limiter reads the window again', () => {
    const { database, failNext } = failingCommit(new Database(':memory:'));
    const limiter = createSqliteRateLimiter({ database, limit: 2 });
    expect(limiter.hit('k', t0)).toMatchObject({ allowed: true, remaining: 1 });
    failNext.commit = true;
    expect(() => limiter.hit('k', t0 + 1)).toThrow(expect.objectContaining({ code: 'rate_limiter_failed' }));
    expect(limiter.hit('k', t0 + 2)).toMatchObject({ allowed: true, remaining: 0 });
    expect(limiter.hit('k', t0 + 3)).toMatchObject({ allowed: false, remaining: 0, resetMs: 59_997 });
  });

  it('limiters on two connections to one file count each other’s requests, in any order of turns', () => {
    const file = freshFile();
    const one = createSqliteRateLimiter({ database: new Database(file), limit: 3 });
    const two = createSqliteRateLimiter({ database: new Database(file), limit: 3 });
    expect(one.hit('k', t0).allowed).toBe(true);
    expect(two.hit('k', t0 + 1).allowed).toBe(true);
    expect(one.hit('k', t0 + 2)).toMatchObject({ allowed: true, remaining: 0 });
    expect(two.hit('k', t0 + 3)).toMatchObject({ allowed: false, resetMs: 59_997 });
    expect(one.hit('other', t0 + 3)).toMatchObject({ allowed: true, remaining: 2 });
    // The first request leaves the window at t0 + 60 s, for both.
    expect(two.hit('k', t0 + 60_000)).toMatchObject({ allowed: true, remaining: 0 });
    expect(one.hit('k', t0 + 60_001)).toMatchObject({ allowed: true, remaining: 0 });
    expect(two.hit('k', t0 + 60_001)).toMatchObject({ allowed: false, resetMs: 1 });
  });

  it('a sweep once a window has passed leaves the log only the newest row and the window', () => {
    const database = new Database(':memory:');
    const limiter = createSqliteRateLimiter({ database, limit: 1_000, windowMs: 1_000 });
    for (let i = 0; i < 500; i++) limiter.hit(`k${i % 50}`, t0 + i);
    expect(rows(database)).toBe(500);
    limiter.hit('k0', t0 + 1_600);
    // Every earlier request left the window at t0 + 1.5 s at the latest; the newest of them stays,
    // as the mark the limiter reads the log after.
    expect(rows(database)).toBe(2);
    expect(limiter.hit('k1', t0 + 1_601)).toMatchObject({ allowed: true, remaining: 999 });
    expect(limiter.hit('k0', t0 + 1_602)).toMatchObject({ allowed: true, remaining: 998, resetMs: 998 });
  });
});
