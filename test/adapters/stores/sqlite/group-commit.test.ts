import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  createSqliteRateLimiter,
  createSqliteStore,
  type SqliteDatabase,
  type SqliteStatement,
} from '../../../../adapters/stores/sqlite/index.js';
import { MAX_BATCH } from '../../../../adapters/stores/sqlite/sqlite-writer.js';
import { createWebhookHandler, createWebhookManager } from '../../../../src/index.js';
import { insertInput, makeMessage, makeWebhook } from '../../../../src/testing/fixtures.js';
import type { InsertMessageResult, PostRecord, WebhookRecord } from '../../../../src/ports.js';
import { freshFile, post } from './support.js';

const t0 = Date.UTC(2026, 0, 1);

/**
 * A real connection that counts the transactions begun on it, and whose statements matching
 * `failing` throw while `failing` says so (what a failing disk or a bad row would do).
 */
function counted(database: SqliteDatabase, fail: (sql: string, params: unknown[]) => boolean = () => false) {
  const counts = { begun: 0 };
  const wrapped: SqliteDatabase = {
    exec: (text) => database.exec(text),
    prepare(text): SqliteStatement {
      const statement = database.prepare(text);
      const check = (params: unknown[]) => {
        if (fail(text, params))
          throw Object.assign(new Error(`disk I/O error in ${text.slice(0, 20)}`), { code: 'SQLITE_IOERR' });
      };
      return {
        run: (...params) => {
          if (text === 'BEGIN IMMEDIATE') counts.begun++;
          check(params);
          return statement.run(...params);
        },
        get: (...params) => (check(params), statement.get(...params)),
        all: (...params) => (check(params), statement.all(...params)),
      };
    },
  };
  return { database: wrapped, counts };
}

function setUp(fail?: (sql: string, params: unknown[]) => boolean) {
  const file = freshFile();
  const { database, counts } = counted(new Database(file), fail);
  const store = createSqliteStore({ database, groupCommit: true });
  const rateLimiter = createSqliteRateLimiter({ database, groupCommit: true, limit: 2 });
  const handlerLimiter = createSqliteRateLimiter({ database, groupCommit: true });
  store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
  const webhooks = [0, 1, 2].map((i) => makeWebhook('general', t0 + i));
  for (const webhook of webhooks) store.insertWebhook(webhook);
  // Another connection on the file, as another process reads it.
  const reader = createSqliteStore({ database: new Database(file) });
  return { store, rateLimiter, handlerLimiter, webhooks, counts, reader };
}

const insertOf = (webhook: WebhookRecord, at: number, key: string | null, text = `at ${at}`) =>
  insertInput(webhook, makeMessage(webhook, at, { body: text }), key);

describe('SQLite group commit: many operations, one transaction, each its own answer', () => {
  it('posts handed over in one turn go in one transaction, in order, each with its outcome', async () => {
    const { store, webhooks, counts, reader } = setUp();
    const inputs = [
      insertOf(webhooks[0]!, t0 + 10, null),
      insertOf(webhooks[1]!, t0 + 11, 'k'),
      insertOf(webhooks[2]!, t0 + 12, null),
    ];
    const begunBefore = counts.begun;
    const results = await Promise.all(inputs.map((input) => store.insertMessage(input)));
    expect(counts.begun - begunBefore).toBe(1);
    expect(results).toEqual(inputs.map((input) => ({ outcome: 'created', message: input.message })));
    expect(reader.listMessages('general').map((message) => message.id)).toEqual(
      inputs.map((input) => input.message.id),
    );
    expect(reader.getWebhook(webhooks[1]!.id)?.lastPostAt).toBe(t0 + 11);
  });

  it('two posts with one key in one batch store one message, and both answer it', async () => {
    const { store, webhooks, counts, reader } = setUp();
    const first = insertOf(webhooks[0]!, t0 + 10, 'deploy-42', 'first');
    const second = insertOf(webhooks[0]!, t0 + 11, 'deploy-42', 'second');
    const begunBefore = counts.begun;
    const results = await Promise.all([store.insertMessage(first), store.insertMessage(second)]);
    expect(counts.begun - begunBefore).toBe(1);
    expect(results).toEqual([
      { outcome: 'created', message: first.message },
      { outcome: 'duplicate', message: first.message },
    ]);
    expect(reader.listMessages('general')).toEqual([first.message]);
  });

  it('a webhook revoked before the batch ran fails only its own post; one archived channel only its posts', async () => {
    const { store, webhooks, reader } = setUp();
    store.putChannel({ id: 'old', ownerId: 'u1', archived: false });
    const archivedHook = makeWebhook('old', t0);
    store.insertWebhook(archivedHook);
    const pending = [
      store.insertMessage(insertOf(webhooks[0]!, t0 + 10, null)),
      store.insertMessage(insertOf(webhooks[1]!, t0 + 11, null)),
      store.insertMessage(insertOf(archivedHook, t0 + 12, null)),
      store.insertMessage(insertOf(webhooks[2]!, t0 + 13, null)),
    ];
    // Both complete in this turn, after the posts were handed over and before their transaction.
    store.revokeWebhook(webhooks[1]!.id, t0 + 5);
    store.putChannel({ id: 'old', ownerId: 'u1', archived: true });
    const outcomes = (await Promise.all(pending)).map((result) => result.outcome);
    expect(outcomes).toEqual(['created', 'webhook_inactive', 'channel_archived', 'created']);
    expect(reader.listMessages('general').map((message) => message.author.id)).toEqual([
      webhooks[0]!.id,
      webhooks[2]!.id,
    ]);
    expect(reader.listMessages('old')).toEqual([]);
  });

  it('an operation that fails fails alone: the batch is rolled back and each of its operations runs again alone', async () => {
    const bad = 'poison';
    const { store, webhooks, counts, reader } = setUp(
      (sql, params) => sql.startsWith('INSERT INTO channel_webhooks_messages') && params[4] === JSON.stringify(bad),
    );
    const good = [insertOf(webhooks[0]!, t0 + 10, 'a'), insertOf(webhooks[2]!, t0 + 12, null)];
    const begunBefore = counts.begun;
    const settled = await Promise.allSettled([
      store.insertMessage(good[0]!),
      store.insertMessage(insertOf(webhooks[1]!, t0 + 11, null, bad)),
      store.insertMessage(good[1]!),
    ]);
    // One group transaction rolled back, then three alone.
    expect(counts.begun - begunBefore).toBe(4);
    expect(settled[0]).toEqual({ status: 'fulfilled', value: { outcome: 'created', message: good[0]!.message } });
    expect(settled[1]).toEqual({
      status: 'rejected',
      reason: expect.objectContaining({
        name: 'ChannelWebhookError',
        code: 'store_failed',
        message: expect.stringMatching(/insertMessage failed: disk I\/O error/),
      }),
    });
    expect(settled[2]).toEqual({ status: 'fulfilled', value: { outcome: 'created', message: good[1]!.message } });
    expect(reader.listMessages('general')).toEqual(good.map((input) => input.message));
    expect(reader.getWebhook(webhooks[1]!.id)?.lastPostAt).toBeNull();
  });

  it('a commit that fails fails every operation of its batch, nothing of it is written, and the next batch goes on', async () => {
    let failCommit = false;
    const { store, rateLimiter, webhooks, reader } = setUp((sql) => sql === 'COMMIT' && failCommit);
    failCommit = true;
    const settled = await Promise.allSettled([
      store.insertMessage(insertOf(webhooks[0]!, t0 + 10, 'a')),
      rateLimiter.hit('k', t0 + 10),
    ]);
    expect(settled).toEqual([
      {
        status: 'rejected',
        reason: expect.objectContaining({
          code: 'store_failed',
          message: expect.stringMatching(/insertMessage failed/),
        }),
      },
      {
        status: 'rejected',
        reason: expect.objectContaining({ code: 'rate_limiter_failed', message: expect.stringMatching(/hit failed/) }),
      },
    ]);
    expect(reader.listMessages('general')).toEqual([]);
    failCommit = false;
    const again = insertOf(webhooks[0]!, t0 + 20, 'a');
    expect(await store.insertMessage(again)).toEqual({ outcome: 'created', message: again.message });
    // The failed batch's decision was not counted: two more are allowed, then none.
    const decisions = await Promise.all([
      rateLimiter.hit('k', t0 + 20),
      rateLimiter.hit('k', t0 + 21),
      rateLimiter.hit('k', t0 + 22),
    ]);
    expect(decisions.map((decision) => [decision.allowed, decision.remaining])).toEqual([
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(reader.listMessages('general')).toEqual([again.message]);
  });

  it('the limiter’s decisions and the store’s writes of one turn share one transaction, decided in the order asked', async () => {
    const { store, rateLimiter, webhooks, counts } = setUp();
    const begunBefore = counts.begun;
    const answers = await Promise.all([
      rateLimiter.hit('k', t0),
      store.insertMessage(insertOf(webhooks[0]!, t0, null)),
      rateLimiter.hit('k', t0 + 1),
      rateLimiter.hit('k', t0 + 2),
    ]);
    expect(counts.begun - begunBefore).toBe(1);
    expect(answers).toEqual([
      { allowed: true, limit: 2, windowMs: 60_000, remaining: 1, resetMs: 60_000 },
      expect.objectContaining({ outcome: 'created' }),
      { allowed: true, limit: 2, windowMs: 60_000, remaining: 0, resetMs: 59_999 },
      { allowed: false, limit: 2, windowMs: 60_000, remaining: 0, resetMs: 59_998 },
    ]);
  });

  it(`a batch holds at most ${MAX_BATCH} operations; the rest go in the next`, async () => {
    const { store, webhooks, counts, reader } = setUp();
    const inputs = Array.from({ length: 2 * MAX_BATCH + 1 }, (_, i) => insertOf(webhooks[i % 3]!, t0 + i, `key-${i}`));
    const begunBefore = counts.begun;
    const results = await Promise.all(inputs.map((input) => store.insertMessage(input)));
    expect(counts.begun - begunBefore).toBe(3);
    expect(results.every((result: InsertMessageResult) => result.outcome === 'created')).toBe(true);
    expect(reader.listMessages('general').map((message) => message.id)).toEqual(
      inputs.map((input) => input.message.id),
    );
  });

  it('history records ride the batch of the posts, and the feed hears each channel once per batch, after its commit', async () => {
    const { store, webhooks, counts, reader } = setUp();
    const heard: Array<[string | undefined, number]> = [];
    const stop = store.watchFeed((channelId) => heard.push([channelId, reader.listMessages('general').length]));
    const record: PostRecord = {
      webhookId: webhooks[0]!.id,
      at: t0 + 10,
      status: 201,
      code: null,
      errors: [],
      idempotencyKey: null,
      messageId: 'm1',
      bodyBytes: 20,
      count: 1,
    };
    const begunBefore = counts.begun;
    await Promise.all([
      store.insertMessage(insertOf(webhooks[0]!, t0 + 10, null)),
      store.insertMessage(insertOf(webhooks[1]!, t0 + 11, null)),
      store.recordPosts([record]),
    ]);
    await Promise.resolve();
    stop();
    expect(counts.begun - begunBefore).toBe(1);
    expect(heard).toEqual([['general', 2]]);
    expect(reader.listPosts?.(webhooks[0]!.id, 10)).toEqual([record]);
  });

  it('through the handler: a lone post is answered, and concurrent posts with one key store one message', async () => {
    const { store, handlerLimiter, reader } = setUp();
    const handle = createWebhookHandler({ store, rateLimiter: handlerLimiter });
    const { url } = await createWebhookManager({ store, baseUrl: 'http://127.0.0.1' }).create(
      { userId: 'u1', role: 'member' },
      { channelId: 'general', name: 'CI' },
    );
    const path = new URL(url).pathname;
    const lone = await post(handle, path, 'alone');
    expect(lone.status).toBe(201);
    const answers = await Promise.all(Array.from({ length: 8 }, () => post(handle, path, 'same', 'one-key')));
    expect(answers.map((answer) => answer.status)).toEqual([201, 200, 200, 200, 200, 200, 200, 200]);
    expect(new Set(answers.map((answer) => (answer.body as { message: { id: string } }).message.id)).size).toBe(1);
    expect(reader.listMessages('general').map((message) => message.body)).toEqual(['alone', 'same']);
  });
});
