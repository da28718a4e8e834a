import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  createSqliteRateLimiter,
  createSqliteStore,
  SQLITE_SCHEMA_VERSION,
  sqliteSchema,
  type SqliteDatabase,
  type SqliteStatement,
} from '../../../../adapters/stores/sqlite/index.js';
import { followFeed } from '../../../../src/index.js';
import { insertInput, makeMessage, makeWebhook } from '../../../../src/testing/fixtures.js';
import { migrationsAfter } from '../../../../adapters/stores/sqlite/schema.js';
import { createWebhookHandler, freshFile, post, seed, spawnChild } from './support.js';

const t0 = Date.UTC(2026, 0, 1);
const failure = (code: string, message: RegExp) =>
  expect.objectContaining({ name: 'ChannelWebhookError', code, message: expect.stringMatching(message) });

/** A connection that runs `between` once, right after the first read (`get` or `all`) of a statement matching `sql`. */
function interrupted(database: SqliteDatabase, sql: RegExp, between: () => void): SqliteDatabase {
  let done = false;
  const once = <T>(read: T): T => {
    if (!done) {
      done = true;
      between();
    }
    return read;
  };
  return {
    exec: (text) => database.exec(text),
    prepare(text): SqliteStatement {
      const statement = database.prepare(text);
      if (!sql.test(text)) return statement;
      return {
        run: (...params) => statement.run(...params),
        all: (...params) => once(statement.all(...params)),
        get: (...params) => once(statement.get(...params)),
      };
    },
  };
}

/** Holds the file's write lock from another process for `ms`; resolves once it holds it. */
async function holdLock(file: string, ms: number) {
  const holder = spawnChild('hold', { SQLITE_FILE: file, HOLD_MS: String(ms) });
  await holder.waitFor((lines) => lines.some((line) => line.locked));
  return holder;
}

describe('SQLite store: one transaction per decision', () => {
  // Rule: a revocation that completes is never followed by a stored post. A revocation that tries
  // to land between the post's checks and its write waits for the post's transaction, and here
  // (same thread, so it cannot wait it out) fails busy: nothing is half-done either way.
  it('a revocation from another connection cannot land between the guarded insert’s checks and its write', () => {
    const file = freshFile();
    const other = createSqliteStore({ database: new Database(file), busyTimeoutMs: 50 });
    let revocation: unknown = null;
    const store = createSqliteStore({
      database: interrupted(new Database(file), /LEFT JOIN/, () => {
        try {
          revocation = other.revokeWebhook(webhook.id, t0 + 2);
        } catch (error) {
          revocation = error;
        }
      }),
    });
    const webhook = makeWebhook('general', t0);
    store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
    store.insertWebhook(webhook);
    const message = makeMessage(webhook, t0 + 1);

    expect(store.insertMessage(insertInput(webhook, message, 'k'))).toEqual({ outcome: 'created', message });
    expect(revocation).toEqual(failure('store_failed', /locked by another connection for busyTimeoutMs \(50 ms\)/));
    expect(other.getWebhook(webhook.id)?.revokedAt).toBeNull();
    expect(other.revokeWebhook(webhook.id, t0 + 3)?.revokedAt).toBe(t0 + 3);
    expect(store.insertMessage(insertInput(webhook, makeMessage(webhook, t0 + 4), null))).toEqual({
      outcome: 'webhook_inactive',
    });
    expect(other.listMessages('general')).toEqual([message]);
  });

  it('a decision of another limiter on the file cannot land between a decision’s read of the window and its write', () => {
    const file = freshFile();
    const other = createSqliteRateLimiter({ database: new Database(file), limit: 1, busyTimeoutMs: 50 });
    let between: unknown = null;
    const limiter = createSqliteRateLimiter({
      database: interrupted(new Database(file), /FROM channel_webhooks_rate_log WHERE/, () => {
        try {
          between = other.hit('k', t0);
        } catch (error) {
          between = error;
        }
      }),
      limit: 1,
    });
    expect(limiter.hit('k', t0)).toMatchObject({ allowed: true, remaining: 0 });
    expect(between).toEqual(failure('rate_limiter_failed', /locked by another connection/));
    expect(other.hit('k', t0 + 1)).toMatchObject({ allowed: false, resetMs: 59_999 });
  });
});

describe('SQLite store: a file locked by another process', () => {
  it('a post waits busyTimeoutMs, then answers 500 store_failed; the retry with the same key stores it once', async () => {
    const file = freshFile();
    const { path, database } = await seed(file);
    const reported: unknown[] = [];
    const handle = createWebhookHandler({
      store: createSqliteStore({ database: new Database(file), busyTimeoutMs: 300 }),
      onError: (error) => reported.push(error),
    });
    const holder = await holdLock(file, 1_500);
    const started = performance.now();
    const refused = await post(handle, path, 'while locked', 'evt-1');
    const took = performance.now() - started;
    expect(refused.status).toBe(500);
    expect(refused.body).toMatchObject({ status: 500, code: 'store_failed' });
    expect(took).toBeGreaterThanOrEqual(280);
    expect(took).toBeLessThan(1_400);
    expect(reported).toEqual([failure('store_failed', /insertMessage failed: the database file stayed locked/)]);

    await holder.exited;
    const stored = await post(handle, path, 'after the lock', 'evt-1');
    expect(stored.status).toBe(201);
    const again = await post(handle, path, 'after the lock', 'evt-1');
    expect(again).toMatchObject({
      status: 200,
      body: { duplicate: true, message: (stored.body as { message: object }).message },
    });
    expect(
      createSqliteStore({ database })
        .listMessages('general')
        .map((message) => message.body),
    ).toEqual(['after the lock']);
    database.close();
  }, 30_000);

  it('a post waits for a lock released within busyTimeoutMs, and is stored', async () => {
    const file = freshFile();
    const { path, database } = await seed(file);
    const handle = createWebhookHandler({
      store: createSqliteStore({ database: new Database(file), busyTimeoutMs: 5_000 }),
    });
    const holder = await holdLock(file, 400);
    const started = performance.now();
    const answer = await post(handle, path, 'waited', 'evt-2');
    expect(answer.status).toBe(201);
    expect(performance.now() - started).toBeGreaterThanOrEqual(200);
    await holder.exited;
    database.close();
  }, 30_000);

  it('the limiter fails with rate_limiter_failed past busyTimeoutMs: 500 with onRateLimiterError reject', async () => {
    const file = freshFile();
    const { path, database } = await seed(file);
    const handle = createWebhookHandler({
      store: createSqliteStore({ database }),
      rateLimiter: createSqliteRateLimiter({ database: new Database(file), busyTimeoutMs: 200 }),
      onRateLimiterError: 'reject',
    });
    const holder = await holdLock(file, 1_200);
    const answer = await post(handle, path, 'while locked');
    expect(answer.status).toBe(500);
    await holder.exited;
    expect((await post(handle, path, 'after')).status).toBe(201);
    database.close();
  }, 30_000);

  it('a file locked at start-up is a clear error from the factory', async () => {
    const file = freshFile();
    createSqliteStore({ database: new Database(file) });
    const holder = await holdLock(file, 1_500);
    expect(() => createSqliteStore({ database: new Database(file), busyTimeoutMs: 100 })).toThrow(
      failure(
        'store_failed',
        /^SQLite store: migrate failed: the database file stayed locked by another connection for busyTimeoutMs \(100 ms\)/,
      ),
    );
    expect(() => createSqliteRateLimiter({ database: new Database(file), busyTimeoutMs: 100 })).toThrow(
      failure('rate_limiter_failed', /^SQLite rate limiter: migrate failed: the database file stayed locked/),
    );
    await holder.exited;
  }, 30_000);
});

describe('SQLite store: pruning and the feed', () => {
  it('a pruning past every message keeps the feed going: the next message is delivered, its number never reused', async () => {
    const store = createSqliteStore({ database: new Database(':memory:') });
    store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
    const webhook = makeWebhook('general', t0);
    store.insertWebhook(webhook);
    const stored = (at: number) => {
      const message = makeMessage(webhook, at);
      expect(store.insertMessage(insertInput(webhook, message, null)).outcome).toBe('created');
      return message;
    };
    const before = [stored(t0 + 1), stored(t0 + 2), stored(t0 + 3)];
    const stop = new AbortController();
    const follower = followFeed(store, { channelId: 'general', signal: stop.signal });
    const next = async () => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const result = await Promise.race([
        follower.next(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('no entry within 5 s')), 5_000);
        }),
      ]).finally(() => clearTimeout(timer));
      if (result.done === true) throw new Error('the follower ended');
      return result.value;
    };
    try {
      const seen = [await next(), await next(), await next()];
      expect(seen.map((entry) => entry.message)).toEqual(before);
      while (store.pruneMessages(t0 + 60_000) > 0);
      const after = stored(t0 + 120_000);
      const entry = await next();
      expect(entry.message).toEqual(after);
      expect(entry.cursor > seen[2]!.cursor).toBe(true);
    } finally {
      stop.abort();
      await follower.return();
    }
  });
});

describe('SQLite store: start-up and schema', () => {
  it('a read-only database is a clear error at start-up, also when the schema is already there', () => {
    const file = freshFile();
    new Database(file).close();
    expect(() => createSqliteStore({ database: new Database(file, { readonly: true }) })).toThrow(
      failure('store_failed', /read-only/),
    );
    createSqliteStore({ database: new Database(file) });
    expect(() => createSqliteStore({ database: new Database(file, { readonly: true }) })).toThrow(
      failure('store_failed', /^SQLite store: migrate failed: the database is read-only/),
    );
    expect(() => createSqliteRateLimiter({ database: new Database(file, { readonly: true }) })).toThrow(
      failure('rate_limiter_failed', /read-only/),
    );
  });

  it('sets WAL, the chosen synchronous and busy_timeout on the connection', () => {
    const database = new Database(freshFile());
    createSqliteStore({ database, busyTimeoutMs: 750 });
    expect([
      database.pragma('journal_mode', { simple: true }),
      database.pragma('synchronous', { simple: true }),
      database.pragma('busy_timeout', { simple: true }),
    ]).toEqual(['wal', 1, 750]);
    createSqliteStore({ database, synchronous: 'full' });
    expect(database.pragma('synchronous', { simple: true })).toBe(2);
  });

  it('records its schema version per table prefix, migrates once, and refuses a newer schema', () => {
    const database = new Database(freshFile());
    const store = createSqliteStore({ database, tablePrefix: 'hooks_' });
    store.migrate();
    createSqliteRateLimiter({ database, tablePrefix: 'hooks_' });
    // Each step applied is recorded once, in order, up to this release's version.
    const steps = migrationsAfter(0, 'hooks_').map(({ version }) => ({ version }));
    expect(steps.at(-1)).toEqual({ version: SQLITE_SCHEMA_VERSION });
    expect(database.prepare('SELECT version FROM hooks_migrations ORDER BY version').all()).toEqual(steps);
    expect(database.pragma('user_version', { simple: true })).toBe(0);
    const tables = database.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").all();
    expect(tables).toEqual(
      [
        'hooks_channels',
        'hooks_feed',
        'hooks_messages',
        'hooks_migrations',
        'hooks_post_heads',
        'hooks_post_log',
        'hooks_post_times',
        'hooks_posts',
        'hooks_rate_log',
        'hooks_webhooks',
      ].map((name) => ({
        name,
      })),
    );

    database.prepare('INSERT INTO hooks_migrations (version) VALUES (?)').run(SQLITE_SCHEMA_VERSION + 1);
    expect(() => createSqliteStore({ database, tablePrefix: 'hooks_' })).toThrow(
      failure(
        'schema_too_new',
        new RegExp(`schema version ${SQLITE_SCHEMA_VERSION + 1}, newer than this release's ${SQLITE_SCHEMA_VERSION}`),
      ),
    );
    expect(() => createSqliteStore({ database })).not.toThrow();
  });

  it('a file at schema version 1 is upgraded in place: its webhooks stay, with no profile until one is set', () => {
    const database = new Database(freshFile());
    const [first] = migrationsAfter(0, 'channel_webhooks_');
    database.exec(first!.sql);
    database.exec(
      'CREATE TABLE channel_webhooks_migrations (version INTEGER PRIMARY KEY); INSERT INTO channel_webhooks_migrations VALUES (1);',
    );
    const webhook = makeWebhook('general', t0);
    database
      .prepare(
        `INSERT INTO channel_webhooks_webhooks (id, channel_id, name, secret_hash, created_by, created_at, rotated_at, revoked_at, last_post_at)
         VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, NULL)`,
      )
      .run(webhook.id, webhook.channelId, webhook.name, webhook.secretHash, webhook.createdBy, webhook.createdAt);

    const store = createSqliteStore({ database });
    expect(database.prepare('SELECT version FROM channel_webhooks_migrations ORDER BY version').all()).toEqual(
      migrationsAfter(0, 'channel_webhooks_').map(({ version }) => ({ version })),
    );
    expect(store.getWebhook(webhook.id)).toEqual({ ...webhook, description: null, avatarUrl: null });
    expect(store.updateWebhookProfile(webhook.id, { description: 'Deploys' })).toEqual({
      ...webhook,
      description: 'Deploys',
      avatarUrl: null,
    });
  });

  it('with migrate: false creates nothing until migrate() runs', () => {
    const database = new Database(':memory:');
    const store = createSqliteStore({ database, migrate: false });
    expect(database.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table'").get()).toEqual({ n: 0 });
    expect(() => store.getChannel('general')).toThrow(
      failure('store_failed', /^SQLite store: getChannel failed: no such table/),
    );
    store.migrate();
    store.putChannel({ id: 'general', ownerId: 'u1', archived: true });
    expect(store.getChannel('general')).toEqual({ id: 'general', ownerId: 'u1', archived: true });
  });

  it('sqliteSchema() is what migrate() creates', () => {
    const migrated = new Database(':memory:');
    createSqliteStore({ database: migrated, tablePrefix: 'x_' });
    const fromText = new Database(':memory:');
    fromText.exec(sqliteSchema({ tablePrefix: 'x_' }));
    const objects = (database: Database.Database) =>
      database
        .prepare("SELECT type, name, sql FROM sqlite_schema WHERE name NOT LIKE 'x_migrations%' ORDER BY name")
        .all();
    expect(objects(fromText)).toEqual(objects(migrated));
    expect(() => sqliteSchema({ tablePrefix: 'x; DROP' })).toThrow(failure('invalid_argument', /tablePrefix/));
  });

  it('answers synchronously: values, never promises', () => {
    const store = createSqliteStore({ database: new Database(':memory:') });
    store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
    const webhook = makeWebhook('general', t0);
    store.insertWebhook(webhook);
    const message = makeMessage(webhook, t0 + 1);
    for (const answer of [
      store.getWebhook(webhook.id),
      store.insertMessage(insertInput(webhook, message, 'k')),
      store.listMessages('general'),
    ]) {
      expect(answer).not.toBeInstanceOf(Promise);
    }
    expect(createSqliteRateLimiter({ database: new Database(':memory:') }).hit('k', t0)).toEqual({
      allowed: true,
      limit: 60,
      windowMs: 60_000,
      remaining: 59,
      resetMs: 60_000,
    });
  });

  it('refuses bad options with invalid_argument', () => {
    const database = new Database(':memory:');
    const bad: Array<Record<string, unknown> | undefined> = [
      undefined,
      {},
      { database: {} },
      { database: { prepare() {} } },
      { database, tablePrefix: 'Bad-' },
      { database, busyTimeoutMs: -1 },
      { database, busyTimeoutMs: 1.5 },
      { database, busyTimeoutMs: '100' },
      { database, synchronous: 'off' },
      { database, migrate: 'yes' },
    ];
    for (const [i, options] of bad.entries()) {
      expect(() => createSqliteStore(options as never), `store options #${i}`).toThrow(
        failure('invalid_argument', /./),
      );
      expect(() => createSqliteRateLimiter(options as never), `limiter options #${i}`).toThrow(
        failure('invalid_argument', /./),
      );
    }
    for (const options of [{ limit: 0 }, { limit: 1.5 }, { windowMs: 0 }, { windowMs: Number.NaN }]) {
      expect(() => createSqliteRateLimiter({ database, ...options })).toThrow(failure('invalid_argument', /./));
    }
    expect(() => createSqliteStore({ database: {} as never })).toThrow(
      /better-sqlite3 Database, a bun:sqlite Database or a node:sqlite DatabaseSync/,
    );
    expect(() => createSqliteRateLimiter({ database }).hit('k', Number.NaN)).toThrow(
      failure('invalid_argument', /now/),
    );
  });
});
