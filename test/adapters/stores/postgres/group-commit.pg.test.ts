import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPostgresStore,
  type PostgresQuery,
  type PostgresStore,
} from '../../../../adapters/stores/postgres/index.js';
import { insertInput, makeMessage, makeWebhook, randomHex, randomId } from '../../../../src/testing/fixtures.js';
import type { InsertMessageInput, InsertMessageResult, WebhookRecord } from '../../../../src/index.js';
import { backends } from '../../../support/backends.js';

const { databaseUrl, title } = backends();
const tablePrefix = 'cwtest_group_commit_';
const t0 = Date.UTC(2026, 0, 1, 12);

// Calls made in one synchronous run go out as: the first alone, and every later one together in a
// second statement, once the first returns (or, when it waits on a lock, after 25 ms).
describe.skipIf(databaseUrl === null)(title('PostgreSQL group commit against a real server', 'postgres'), () => {
  let pool: pg.Pool;
  let peerPool: pg.Pool;
  let holderPool: pg.Pool;
  let store: PostgresStore;
  // The texts of the statements `store` sent, in order.
  const sent: string[] = [];

  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: databaseUrl!, max: 10 });
    peerPool = new pg.Pool({ connectionString: databaseUrl!, max: 10 });
    holderPool = new pg.Pool({ connectionString: databaseUrl!, max: 2 });
    const recording = {
      query: (query: PostgresQuery) => {
        sent.push(query.text);
        return pool.query(query as pg.QueryConfig);
      },
    };
    store = createPostgresStore({ pool: recording, tablePrefix });
    await store.migrate();
  });
  afterAll(async () => {
    await Promise.all([pool?.end(), peerPool?.end(), holderPool?.end()]);
  });

  const seeded = async (fields: Partial<WebhookRecord> = {}, archived = false): Promise<WebhookRecord> => {
    const webhook = makeWebhook(`c_${randomId()}`, t0, fields);
    await store.putChannel({ id: webhook.channelId, ownerId: 'u1', archived });
    await store.insertWebhook(webhook);
    return webhook;
  };
  const batchesSince = (from: number) => sent.slice(from).filter((text) => text.includes('unnest(')).length;
  const post = (webhook: WebhookRecord, key: string | null, at = t0 + 1, fields = {}) =>
    insertInput(webhook, makeMessage(webhook, at, fields), key);
  const warmUp = async (webhook: WebhookRecord) => {
    // One statement out, held on a row lock, so that everything after it gathers into one batch.
    const holder = await holderPool.connect();
    await holder.query('BEGIN');
    await holder.query(`SELECT 1 FROM ${tablePrefix}webhooks WHERE id = $1 FOR UPDATE`, [webhook.id]);
    const first = [store.insertMessage(post(webhook, null))];
    return {
      release: async () => {
        await holder.query('COMMIT');
        holder.release();
        return Promise.all(first);
      },
    };
  };

  it('answers each post of one statement with its own outcome, in order', async () => {
    const live = await seeded();
    const other = await seeded();
    const revoked = await seeded({ revokedAt: t0 });
    const rotated = await seeded();
    await store.updateWebhookSecret(rotated.id, randomHex(), t0 + 1);
    const archived = await seeded({}, true);
    const orphan = makeWebhook(`c_${randomId()}`, t0);
    await store.insertWebhook(orphan);
    const earlier = post(live, 'known');
    const stored = await store.insertMessage(earlier);
    const blocker = await seeded();

    const gate = await warmUp(blocker);
    const from = sent.length;
    const posts: InsertMessageInput[] = [
      post(live, null),
      post(revoked, null),
      post(other, 'k1', t0 + 2),
      post(rotated, null),
      post(archived, null),
      post(orphan, null),
      post(live, 'known'),
      post(other, 'k2', t0 + 3),
    ];
    const answers = posts.map((input) => store.insertMessage(input));
    await gate.release();
    const results = await Promise.all(answers);
    expect(batchesSince(from)).toBe(1);
    expect(results).toEqual<InsertMessageResult[]>([
      { outcome: 'created', message: posts[0]!.message },
      { outcome: 'webhook_inactive' },
      { outcome: 'created', message: posts[2]!.message },
      { outcome: 'webhook_inactive' },
      { outcome: 'channel_archived' },
      { outcome: 'channel_not_found' },
      { outcome: 'duplicate', message: stored.outcome === 'created' ? stored.message : null! },
      { outcome: 'created', message: posts[7]!.message },
    ]);
    expect(await store.listMessages(other.channelId)).toEqual([posts[2]!.message, posts[7]!.message]);
    expect(await store.listMessages(revoked.channelId)).toEqual([]);
    expect(await store.listMessages(archived.channelId)).toEqual([]);
    expect((await store.getWebhook(other.id))!.lastPostAt).toBe(t0 + 3);
    expect((await store.getWebhook(revoked.id))!.lastPostAt).toBeNull();
  });

  it('stores one message for posts of one key in one batch, and answers them all with it', async () => {
    const webhook = await seeded();
    const gate = await warmUp(await seeded());
    const from = sent.length;
    const posts = Array.from({ length: 5 }, (_, i) => post(webhook, 'same', t0 + 10 + i));
    const answers = posts.map((input) => store.insertMessage(input));
    await gate.release();
    const results = await Promise.all(answers);
    expect(batchesSince(from)).toBe(1);
    expect(results).toEqual([
      { outcome: 'created', message: posts[0]!.message },
      ...posts.slice(1).map(() => ({ outcome: 'duplicate', message: posts[0]!.message })),
    ]);
    expect(await store.listMessages(webhook.channelId)).toEqual([posts[0]!.message]);
  });

  it('a revocation committed while the batch waited on its webhook refuses that webhook only', async () => {
    const revoked = await seeded();
    const live = await seeded();
    const holder = await holderPool.connect();
    await holder.query('BEGIN');
    await createPostgresStore({ pool: holder, tablePrefix }).revokeWebhook(revoked.id, t0 + 5);
    const from = sent.length;
    const posts = [post(live, null), post(live, null), post(revoked, null), post(live, 'a'), post(revoked, 'b')];
    // The first goes alone, the rest together, and wait on the revocation's lock.
    const answers = posts.map((input) => store.insertMessage(input));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await holder.query('COMMIT');
    holder.release();
    const results = await Promise.all(answers);
    expect(batchesSince(from)).toBe(1);
    expect(results).toEqual([
      { outcome: 'created', message: posts[0]!.message },
      { outcome: 'created', message: posts[1]!.message },
      { outcome: 'webhook_inactive' },
      { outcome: 'created', message: posts[3]!.message },
      { outcome: 'webhook_inactive' },
    ]);
    expect(await store.listMessages(revoked.channelId)).toEqual([]);
  });

  it('a batch the server refuses for one post is sent again post by post: that post fails alone', async () => {
    const webhook = await seeded();
    const taken = post(webhook, null);
    await store.insertMessage(taken);
    const gate = await warmUp(await seeded());
    const from = sent.length;
    // A message id already stored breaks the statement's unique index: the whole batch rolls back,
    // and its posts go again, each in its own statement.
    const posts = [post(webhook, 'x'), post(webhook, null, t0 + 1, { id: taken.message.id }), post(webhook, null)];
    const answers = posts.map((input) => store.insertMessage(input).then(undefined, (error: unknown) => error));
    const [before] = await gate.release();
    expect(before).toMatchObject({ outcome: 'created' });
    const results = await Promise.all(answers);
    expect(batchesSince(from)).toBe(1);
    expect(results[0]).toEqual({ outcome: 'created', message: posts[0]!.message });
    expect(results[1]).toMatchObject({ name: 'ChannelWebhookError', code: 'store_failed' });
    expect(results[2]).toEqual({ outcome: 'created', message: posts[2]!.message });
    expect((await store.listMessages(webhook.channelId)).map((message) => message.id).sort()).toEqual(
      [taken.message.id, posts[0]!.message.id, posts[2]!.message.id].sort(),
    );
    const again = post(webhook, 'x');
    await expect(store.insertMessage(again)).resolves.toMatchObject({ outcome: 'duplicate' });
  });

  it('a batch waiting on a row lock does not hold up the posts of other webhooks', async () => {
    const held = await seeded();
    const free = await seeded();
    const gate = await warmUp(held);
    const waiting = store.insertMessage(post(held, null));
    const other = post(free, null);
    // Both queued posts go together once the first batch stalls: the held webhook's row is skipped,
    // and its post waits for it alone while the other is answered.
    await expect(store.insertMessage(other)).resolves.toEqual({ outcome: 'created', message: other.message });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const alone = post(free, 'later');
    await expect(store.insertMessage(alone)).resolves.toEqual({ outcome: 'created', message: alone.message });
    const [first] = await gate.release();
    expect(first).toMatchObject({ outcome: 'created' });
    await expect(waiting).resolves.toMatchObject({ outcome: 'created' });
  });

  it('through a host app view, a channel whose row an archival holds holds up only its own posts, which then see it', async () => {
    await pool.query(
      `CREATE TABLE IF NOT EXISTS cwtest_gc_rooms (room_id text PRIMARY KEY, owner text NOT NULL, archived_at timestamptz)`,
    );
    await pool.query(
      `CREATE OR REPLACE VIEW cwtest_gc_room_channels AS SELECT room_id AS id, owner AS owner_id, archived_at IS NOT NULL AS archived FROM cwtest_gc_rooms`,
    );
    const viewStore = createPostgresStore({ pool, tablePrefix, channels: { table: 'cwtest_gc_room_channels' } });
    const [archived, open] = [makeWebhook(`room_${randomId()}`, t0), makeWebhook(`room_${randomId()}`, t0)];
    for (const webhook of [archived, open]) {
      await pool.query('INSERT INTO cwtest_gc_rooms (room_id, owner) VALUES ($1, $2)', [webhook.channelId, 'u9']);
      await viewStore.insertWebhook(webhook);
    }
    const holder = await holderPool.connect();
    await holder.query('BEGIN');
    await holder.query('UPDATE cwtest_gc_rooms SET archived_at = now() WHERE room_id = $1', [archived.channelId]);
    const posts = [post(archived, null), post(archived, 'k'), post(open, null), post(open, 'k')];
    const answers = posts.map((input) => viewStore.insertMessage(input));
    // The first waits on the held row alone; the others go together once it has waited 25 ms.
    await expect(Promise.all(answers.slice(2))).resolves.toEqual([
      { outcome: 'created', message: posts[2]!.message },
      { outcome: 'created', message: posts[3]!.message },
    ]);
    await holder.query('COMMIT');
    holder.release();
    await expect(Promise.all(answers.slice(0, 2))).resolves.toEqual([
      { outcome: 'channel_archived' },
      { outcome: 'channel_archived' },
    ]);
    expect(await viewStore.listMessages(archived.channelId)).toEqual([]);
  });

  it('looks up the webhooks of a batch in one query, each caller getting its own', async () => {
    const webhooks = await Promise.all([seeded(), seeded(), seeded()]);
    const from = sent.length;
    const ids = [webhooks[0]!.id, 'wh_unknown', webhooks[1]!.id, webhooks[2]!.id, webhooks[0]!.id, `wh_${randomId()}`];
    const found = await Promise.all(ids.map((id) => store.getWebhook(id)));
    expect(found.map((webhook) => webhook?.id ?? null)).toEqual([ids[0], null, ids[2], ids[3], ids[4], null]);
    expect(found[3]).toMatchObject({ secretHash: webhooks[2]!.secretHash });
    const lookups = sent.slice(from);
    expect(lookups.length).toBeLessThan(ids.length);
    expect(lookups.some((text) => text.includes('= ANY('))).toBe(true);
  });

  it('two instances batching over the same webhooks and keys store each key once, without deadlock', async () => {
    const peer = createPostgresStore({ pool: peerPool, tablePrefix });
    const webhooks = await Promise.all(Array.from({ length: 4 }, () => seeded()));
    const keys = Array.from({ length: 12 }, (_, i) => `k${i}`);
    // Each instance posts every key of every webhook, in opposite orders.
    const plan = webhooks.flatMap((webhook) => keys.map((key) => [webhook, key] as const));
    const posting = (instance: PostgresStore, order: typeof plan) =>
      Promise.all(
        order.map(([webhook, key]) =>
          instance.insertMessage(post(webhook, key)).then((result) => ({ webhook, key, result })),
        ),
      );
    const [mine, theirs] = await Promise.all([posting(store, plan), posting(peer, [...plan].reverse())]);
    const byKey = new Map<string, string[]>();
    for (const { webhook, key, result } of [...mine, ...theirs]) {
      expect(['created', 'duplicate']).toContain(result.outcome);
      const id = (result as { message: { id: string } }).message.id;
      byKey.set(`${webhook.id}/${key}`, [...(byKey.get(`${webhook.id}/${key}`) ?? []), id]);
    }
    for (const ids of byKey.values()) expect(new Set(ids).size).toBe(1);
    for (const webhook of webhooks) {
      const stored = await store.listMessages(webhook.channelId);
      expect(stored).toHaveLength(keys.length);
      expect(new Set(stored.map((message) => message.id))).toEqual(
        new Set(keys.map((key) => byKey.get(`${webhook.id}/${key}`)![0])),
      );
    }
    const created = [...mine, ...theirs].filter(({ result }) => result.outcome === 'created');
    expect(created).toHaveLength(webhooks.length * keys.length);
  });

  it('announces a batch once per channel that got a message, at its commit', async () => {
    const listener = new pg.Client({ connectionString: databaseUrl! });
    await listener.connect();
    const heard: Array<string | undefined> = [];
    listener.on('notification', (message) => heard.push(message.payload));
    await listener.query(`LISTEN "${tablePrefix}feed"`);
    try {
      const a = await seeded();
      const b = await seeded();
      const archived = await seeded({}, true);
      const gate = await warmUp(await seeded());
      const from = sent.length;
      const answers = [
        post(a, null),
        post(b, null),
        post(a, null),
        post(archived, null),
        post(b, 'once'),
        post(b, 'once'),
      ].map((input) => store.insertMessage(input));
      await gate.release();
      await Promise.all(answers);
      expect(batchesSince(from)).toBe(1);
      await listener.query(`NOTIFY "${tablePrefix}feed", 'end'`);
      await expect.poll(() => heard.at(-1), { timeout: 5_000 }).toBe('end');
      // The warm-up's post (its own channel), then the batch's.
      expect(heard.slice(-3, -1).sort()).toEqual([a.channelId, b.channelId].sort());
      expect(heard.filter((channel) => channel === a.channelId || channel === b.channelId)).toHaveLength(2);
    } finally {
      await listener.end();
    }
  });

  it('announces nothing for a channel whose posts in a batch only repeat a key already stored', async () => {
    const repeated = await seeded();
    const fresh = await seeded();
    const first = await store.insertMessage(post(repeated, 'known'));
    expect(first.outcome).toBe('created');
    const listener = new pg.Client({ connectionString: databaseUrl! });
    await listener.connect();
    const heard: Array<string | undefined> = [];
    listener.on('notification', (message) => heard.push(message.payload));
    await listener.query(`LISTEN "${tablePrefix}feed"`);
    try {
      const gate = await warmUp(await seeded());
      const from = sent.length;
      const answers = [post(repeated, 'known'), post(fresh, null), post(repeated, 'known')].map((input) =>
        store.insertMessage(input),
      );
      await gate.release();
      expect((await Promise.all(answers)).map((result) => result.outcome)).toEqual([
        'duplicate',
        'created',
        'duplicate',
      ]);
      expect(batchesSince(from)).toBe(1);
      await listener.query(`NOTIFY "${tablePrefix}feed", 'end'`);
      await expect.poll(() => heard.at(-1), { timeout: 5_000 }).toBe('end');
      expect(heard).toContain(fresh.channelId);
      expect(heard).not.toContain(repeated.channelId);
    } finally {
      await listener.end();
    }
  });
});
