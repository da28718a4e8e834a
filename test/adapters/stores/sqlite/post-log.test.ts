import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../../../adapters/stores/sqlite/index.js';
import { POST_HISTORY_LIMIT, type PostRecord } from '../../../../src/store-kit/index.js';
import { freshFile } from './support.js';

// A post's history record is appended to the post log, and the log is folded into each webhook's
// ring of its last 100 records when it fills and before each read.

const t0 = Date.UTC(2026, 0, 1);
const FOLD_AT = 2_048;

function record(webhookId: string, n: number, status = 201): PostRecord {
  return {
    webhookId,
    at: t0 + n,
    status,
    code: status === 201 ? null : 'invalid_payload',
    errors: status === 201 ? [] : [{ pointer: '/text', message: `post ${n}` }],
    idempotencyKey: n % 3 === 0 ? `key-${n}` : null,
    messageId: status === 201 ? `m-${n}` : null,
    bodyBytes: 20 + n,
    count: 1,
  };
}

const countOf = (database: Database.Database, table: string) =>
  Number(database.prepare(`SELECT count(*) FROM channel_webhooks_${table}`).pluck().get());

describe('SQLite post log', () => {
  it('a batch of records is appended to the log in post order and reaches the rings only when read', () => {
    const database = new Database(':memory:');
    const store = createSqliteStore({ database });
    const batch = [record('wh_a', 1), record('wh_b', 2, 400), record('wh_a', 3)];
    store.recordPosts(batch);
    expect(database.prepare('SELECT webhook_id FROM channel_webhooks_post_log ORDER BY seq').pluck().all()).toEqual([
      'wh_a',
      'wh_b',
      'wh_a',
    ]);
    expect([countOf(database, 'post_heads'), countOf(database, 'posts')]).toEqual([0, 0]);

    expect(store.listPosts('wh_a', 100)).toEqual([batch[2], batch[0]]);
    expect(countOf(database, 'post_log')).toBe(0);
    expect(store.listPosts('wh_b', 100)).toEqual([batch[1]]);
  });

  it('the log never reaches 2,048 records, and each ring keeps the last 100 of its webhook in order', async () => {
    const database = new Database(':memory:');
    const store = createSqliteStore({ database, groupCommit: true });
    const webhooks = Array.from({ length: 7 }, (_, i) => `wh_${i}`);
    const written = new Map<string, PostRecord[]>(webhooks.map((id) => [id, []]));
    let most = 0;
    for (let n = 0; n < 3 * FOLD_AT; n += 64) {
      const batch = Array.from({ length: 64 }, (_, i) =>
        record(webhooks[(n + i) % 7]!, n + i, i % 5 === 0 ? 400 : 201),
      );
      for (const one of batch) written.get(one.webhookId)!.push(one);
      await store.recordPosts(batch);
      most = Math.max(most, countOf(database, 'post_log'));
    }
    expect(most).toBe(FOLD_AT - 64);
    for (const id of webhooks) {
      const rows = Number(
        database.prepare('SELECT count(*) FROM channel_webhooks_posts WHERE webhook_id = ?').pluck().get(id),
      );
      expect(rows).toBe(POST_HISTORY_LIMIT);
      expect(store.listPosts(id, 100)).toEqual(written.get(id)!.slice(-100).reverse());
    }
  });

  it('what one connection logs, another reads, and a 415 of the same minute adds to the one in the ring', () => {
    const file = freshFile();
    const writer = createSqliteStore({ database: new Database(file) });
    const reader = createSqliteStore({ database: new Database(file) });
    const unsupported = (n: number): PostRecord => ({
      ...record('wh_a', n, 415),
      code: 'unsupported_media_type',
      errors: [],
      bodyBytes: null,
    });
    writer.recordPosts([unsupported(1), record('wh_a', 2)]);
    expect(reader.listPosts('wh_a', 100).map((one) => [one.status, one.count])).toEqual([
      [201, 1],
      [415, 1],
    ]);
    writer.recordPosts([unsupported(3)]);
    writer.recordPosts([unsupported(4)]);
    expect(reader.listPosts('wh_a', 100).map((one) => [one.status, one.count])).toEqual([
      [201, 1],
      [415, 3],
    ]);
  });
});
