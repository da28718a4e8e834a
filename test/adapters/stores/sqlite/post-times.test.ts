import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../../../adapters/stores/sqlite/index.js';
import type { InsertMessageInput, PostRecord, WebhookRecord } from '../../../../src/store-kit/index.js';
import { freshFile } from './support.js';

// A post's time goes to post_times, not to the webhook's row, and the fold of the post log moves it
// into the webhook's history head: every read of a webhook sees it as soon as its insert committed,
// on every connection to the file.

const t0 = Date.UTC(2026, 0, 1);
const hash = 'c'.repeat(64);

function webhook(id: string): WebhookRecord {
  return {
    id,
    channelId: 'general',
    name: id,
    secretHash: hash,
    createdBy: 'u1',
    createdAt: t0,
    rotatedAt: null,
    revokedAt: null,
    lastPostAt: null,
    description: null,
    avatarUrl: null,
  };
}

function post(webhookId: string, at: number): InsertMessageInput {
  return {
    message: {
      id: `m-${webhookId}-${at}`,
      channelId: 'general',
      body: 'deployed',
      blocks: [],
      author: { type: 'webhook', id: webhookId, name: webhookId },
      createdAt: new Date(at).toISOString(),
    },
    idempotencyKey: null,
    secretHash: hash,
    postedAt: at,
  };
}

function created(webhookId: string, at: number): PostRecord {
  return {
    webhookId,
    at,
    status: 201,
    code: null,
    errors: [],
    idempotencyKey: null,
    messageId: `m-${webhookId}-${at}`,
    bodyBytes: 20,
    count: 1,
  };
}

function world() {
  const file = freshFile();
  const writer = createSqliteStore({ database: new Database(file) });
  const reader = createSqliteStore({ database: new Database(file) });
  const database = new Database(file);
  writer.putChannel({ id: 'general', ownerId: 'u1', archived: false });
  for (const id of ['wh_a', 'wh_b']) writer.insertWebhook(webhook(id));
  const column = (sql: string, ...bindings: unknown[]) =>
    database
      .prepare(sql)
      .pluck()
      .get(...bindings);
  return { writer, reader, database, column };
}

describe('SQLite lastPostAt in post_times and the history heads', () => {
  it('a post writes its time to post_times, not the row, and every read on another connection sees it', () => {
    const { writer, reader, column } = world();
    expect(writer.insertMessage(post('wh_a', t0 + 1_000)).outcome).toBe('created');
    expect(column('SELECT last_post_at FROM channel_webhooks_webhooks WHERE id = ?', 'wh_a')).toBeNull();
    expect(column('SELECT at FROM channel_webhooks_post_times WHERE webhook_id = ?', 'wh_a')).toBe(t0 + 1_000);

    const seen = { ...webhook('wh_a'), lastPostAt: t0 + 1_000 };
    expect(reader.getWebhook('wh_a')).toEqual(seen);
    expect(reader.listWebhooks('general')).toEqual([seen, webhook('wh_b')]);
    expect(reader.updateWebhookProfile('wh_a', { description: 'Deploys' })).toEqual({
      ...seen,
      description: 'Deploys',
    });
    expect(reader.updateWebhookSecret('wh_a', 'd'.repeat(64), t0 + 2_000)).toEqual({
      ...seen,
      description: 'Deploys',
      secretHash: 'd'.repeat(64),
      rotatedAt: t0 + 2_000,
    });
    expect(reader.revokeWebhook('wh_a', t0 + 3_000)).toEqual({
      ...seen,
      description: 'Deploys',
      secretHash: 'd'.repeat(64),
      rotatedAt: t0 + 2_000,
      revokedAt: t0 + 3_000,
    });
  });

  it('the fold of the post log moves the times into the heads; a later post is read before them', () => {
    const { writer, reader, column } = world();
    writer.insertMessage(post('wh_a', t0 + 1_000));
    writer.insertMessage(post('wh_b', t0 + 2_000));
    writer.recordPosts([created('wh_a', t0 + 1_000), created('wh_b', t0 + 2_000)]);
    expect(reader.listPosts('wh_b', 100)).toEqual([created('wh_b', t0 + 2_000)]);
    expect(column('SELECT count(*) FROM channel_webhooks_post_times')).toBe(0);
    expect(column('SELECT last_post_at FROM channel_webhooks_post_heads WHERE webhook_id = ?', 'wh_a')).toBe(
      t0 + 1_000,
    );
    expect(reader.getWebhook('wh_a')?.lastPostAt).toBe(t0 + 1_000);

    // A clock that stepped back: the last post's time is the one written last, not the largest.
    writer.insertMessage(post('wh_a', t0 + 500));
    expect(reader.getWebhook('wh_a')?.lastPostAt).toBe(t0 + 500);
    writer.recordPosts([created('wh_a', t0 + 500)]);
    expect(reader.listPosts('wh_a', 100).map((one) => one.at)).toEqual([t0 + 500, t0 + 1_000]);
    expect(reader.listWebhooks('general').map((one) => one.lastPostAt)).toEqual([t0 + 500, t0 + 2_000]);
  });

  it('the fold writes a head for a webhook whose time came without a history record', () => {
    const { writer, reader, column } = world();
    writer.insertMessage(post('wh_b', t0 + 7_000));
    writer.recordPosts([created('wh_a', t0 + 1_000)]);
    expect(reader.listPosts('wh_a', 1)).toHaveLength(1);
    expect(column('SELECT next FROM channel_webhooks_post_heads WHERE webhook_id = ?', 'wh_b')).toBe(0);
    expect(reader.listPosts('wh_b', 100)).toEqual([]);
    expect(reader.getWebhook('wh_b')?.lastPostAt).toBe(t0 + 7_000);
    writer.recordPosts([created('wh_b', t0 + 8_000)]);
    expect(reader.listPosts('wh_b', 100)).toEqual([created('wh_b', t0 + 8_000)]);
  });
});
