import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMysqlStore,
  type MessageMapping,
  type MysqlPool,
  type MysqlStore,
} from '../../../../adapters/stores/mysql/index.js';
import {
  followFeed,
  type FeedEntry,
  type InsertMessageInput,
  type InsertMessageResult,
  type Message,
  type WebhookRecord,
} from '../../../../src/index.js';
import { insertInput, makeMessage, makeWebhook, randomHex, randomId } from '../../../../src/testing/fixtures.js';
import { backends } from '../../../support/backends.js';
import { recordingPool } from './recording-pool.js';

const { mysqlUrl, title } = backends();
const tablePrefix = 'cwtest_group_commit_';
const t0 = Date.UTC(2026, 0, 1, 12);

// The host app's tables: rooms in its own collation, and posts with constraints of their own.
const APP_SCHEMA = [
  'DROP TABLE IF EXISTS cwtest_gc_posts',
  'DROP TABLE IF EXISTS cwtest_gc_rooms',
  `CREATE TABLE cwtest_gc_rooms (
    room_key VARCHAR(80) PRIMARY KEY, owner VARCHAR(80) NOT NULL, is_archived BOOLEAN, topic TEXT
  ) ENGINE=InnoDB CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
  `CREATE TABLE cwtest_gc_posts (
    seq BIGINT AUTO_INCREMENT PRIMARY KEY,
    message_id VARCHAR(64) UNIQUE,
    room_id VARCHAR(80) NOT NULL,
    text TEXT NOT NULL,
    CONSTRAINT cwtest_gc_refused CHECK (text <> 'refused by the app')
  ) ENGINE=InnoDB CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
];
const channels = { table: 'cwtest_gc_rooms', id: 'room_key', ownerId: 'owner', archived: 'is_archived' };
const messages: MessageMapping = {
  table: 'cwtest_gc_posts',
  columns: { id: 'message_id', channelId: 'room_id', body: 'text' },
};

/**
 * A pool whose transactions hold their `COMMIT` until `release()` when `holds` says so of the
 * statements they ran: such a transaction keeps its row locks (and the feed's counter, once it took
 * places) meanwhile.
 */
function holdingPool(pool: mysql.Pool, holds: (statements: string[]) => boolean) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let reachedCommit!: () => void;
  const atCommit = new Promise<void>((resolve) => (reachedCommit = resolve));
  const holding: MysqlPool = {
    query: (query) => pool.query(query),
    async getConnection() {
      const connection = await pool.getConnection();
      let statements: string[] = [];
      return {
        async query(query) {
          if (query.sql === 'START TRANSACTION') statements = [];
          if (query.sql === 'COMMIT' && holds(statements)) {
            reachedCommit();
            await released;
          }
          statements.push(query.sql);
          return connection.query(query);
        },
        release: () => connection.release(),
        destroy: () => connection.destroy(),
      };
    },
  };
  return { pool: holding, release, atCommit };
}

const isBatch = (sql: string) => sql.includes('FOR UPDATE SKIP LOCKED');

// Calls made in one synchronous run go out as: the first alone, and every later one together in one
// transaction, once the first returns (or, when it waits on a lock, after 25 ms).
describe.skipIf(mysqlUrl === null)(title('MySQL group commit on MariaDB', 'mysql'), () => {
  let pool: mysql.Pool;
  let peerPool: mysql.Pool;
  let holderPool: mysql.Pool;
  let store: MysqlStore;
  let appStore: MysqlStore;
  // The statements `store` and `appStore` sent, in order.
  const sent: string[] = [];

  beforeAll(async () => {
    pool = mysql.createPool({ uri: mysqlUrl!, connectionLimit: 10 });
    peerPool = mysql.createPool({ uri: mysqlUrl!, connectionLimit: 10 });
    holderPool = mysql.createPool({ uri: mysqlUrl!, connectionLimit: 4 });
    for (const statement of APP_SCHEMA) await pool.query(statement);
    store = createMysqlStore({ pool: recordingPool(pool, sent), tablePrefix });
    await store.migrate();
    appStore = createMysqlStore({ pool: recordingPool(pool, sent), tablePrefix, channels, messages });
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
  const room = async (): Promise<WebhookRecord> => {
    const webhook = makeWebhook(`room_${randomId()}`, t0);
    await appStore.putChannel({ id: webhook.channelId, ownerId: 'u1', archived: false });
    await appStore.insertWebhook(webhook);
    return webhook;
  };
  const since = (from: number, which: (sql: string) => boolean) => sent.slice(from).filter(which).length;
  const post = (webhook: WebhookRecord, key: string | null, at = t0 + 1, fields: Partial<Message> = {}) =>
    insertInput(webhook, makeMessage(webhook, at, fields), key);
  const created = (input: InsertMessageInput): InsertMessageResult => ({ outcome: 'created', message: input.message });
  const appRows = async (roomId: string) =>
    (
      (
        await pool.query('SELECT message_id, text FROM cwtest_gc_posts WHERE room_id = ? ORDER BY seq', [roomId])
      )[0] as Array<{
        message_id: string;
        text: string;
      }>
    ).map((row) => row.message_id);

  it('posts in flight share one transaction: the first goes alone, the next twenty together', async () => {
    const webhooks = await Promise.all(Array.from({ length: 21 }, () => seeded()));
    const from = sent.length;
    const posts = webhooks.map((webhook) => post(webhook, null));
    expect(await Promise.all(posts.map((input) => store.insertMessage(input)))).toEqual(posts.map(created));
    expect(since(from, (sql) => sql === 'START TRANSACTION')).toBe(2);
    expect(since(from, (sql) => sql === 'COMMIT')).toBe(2);
    expect(since(from, isBatch)).toBe(1);
    for (const [i, webhook] of webhooks.entries()) {
      expect(await store.listMessages(webhook.channelId)).toEqual([posts[i]!.message]);
      expect((await store.getWebhook(webhook.id))!.lastPostAt).toBe(t0 + 1);
    }
  });

  it('answers each post of one batch with its own outcome, in order', async () => {
    const live = await seeded();
    const other = await seeded();
    const revoked = await seeded({ revokedAt: t0 });
    const rotated = await seeded();
    await store.updateWebhookSecret(rotated.id, randomHex(), t0 + 1);
    const archived = await seeded({}, true);
    const orphan = makeWebhook(`c_${randomId()}`, t0);
    await store.insertWebhook(orphan);
    const stored = post(live, 'known');
    await store.insertMessage(stored);
    const first = post(await seeded(), null);

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
    const answers = [first, ...posts].map((input) => store.insertMessage(input));
    const results = await Promise.all(answers);
    expect(since(from, isBatch)).toBe(1);
    expect(results).toEqual<InsertMessageResult[]>([
      created(first),
      created(posts[0]!),
      { outcome: 'webhook_inactive' },
      created(posts[2]!),
      { outcome: 'webhook_inactive' },
      { outcome: 'channel_archived' },
      { outcome: 'channel_not_found' },
      { outcome: 'duplicate', message: stored.message },
      created(posts[7]!),
    ]);
    expect(await store.listMessages(other.channelId)).toEqual([posts[2]!.message, posts[7]!.message]);
    expect(await store.listMessages(live.channelId)).toEqual([stored.message, posts[0]!.message]);
    expect(await store.listMessages(revoked.channelId)).toEqual([]);
    expect(await store.listMessages(archived.channelId)).toEqual([]);
    expect((await store.getWebhook(other.id))!.lastPostAt).toBe(t0 + 3);
    expect((await store.getWebhook(revoked.id))!.lastPostAt).toBeNull();
  });

  it('stores one message for posts of one key in one batch, and answers them all with it, in that one transaction', async () => {
    const webhook = await seeded();
    const first = post(await seeded(), null);
    const from = sent.length;
    const posts = Array.from({ length: 5 }, (_, i) => post(webhook, 'same', t0 + 10 + i));
    const results = await Promise.all([first, ...posts].map((input) => store.insertMessage(input)));
    expect(results).toEqual([
      created(first),
      created(posts[0]!),
      ...posts.slice(1).map(() => ({ outcome: 'duplicate', message: posts[0]!.message })),
    ]);
    // The batch was neither rolled back nor sent again post by post.
    expect(since(from, (sql) => sql === 'START TRANSACTION')).toBe(2);
    expect(since(from, (sql) => sql === 'COMMIT')).toBe(2);
    expect(await store.listMessages(webhook.channelId)).toEqual([posts[0]!.message]);
    expect((await store.getWebhook(webhook.id))!.lastPostAt).toBe(t0 + 10);
  });

  it("a revocation holding a webhook's row holds up only that webhook's posts, which then see it", async () => {
    const revoked = await seeded();
    const live = await seeded();
    const held = holdingPool(holderPool, () => true);
    const revoking = createMysqlStore({ pool: held.pool, tablePrefix }).revokeWebhook(revoked.id, t0 + 5);
    try {
      await held.atCommit;
      const from = sent.length;
      const posts = [post(live, null), post(live, null), post(revoked, null), post(live, 'a'), post(revoked, 'b')];
      const answers = posts.map((input) => store.insertMessage(input));
      // The first goes alone; the batch of the rest skips the held row and stores the live
      // webhook's posts while the revocation is still open.
      await expect(Promise.all([answers[0], answers[1], answers[3]])).resolves.toEqual([
        created(posts[0]!),
        created(posts[1]!),
        created(posts[3]!),
      ]);
      expect(since(from, isBatch)).toBe(1);
      held.release();
      expect(await revoking).toMatchObject({ id: revoked.id, revokedAt: t0 + 5 });
      await expect(Promise.all([answers[2], answers[4]])).resolves.toEqual([
        { outcome: 'webhook_inactive' },
        { outcome: 'webhook_inactive' },
      ]);
      expect(await store.listMessages(revoked.channelId)).toEqual([]);
    } finally {
      held.release();
    }
  });

  it("a channel row the app's own open transaction holds holds up only its posts, which complete once it commits", async () => {
    const busy = await room();
    const quiet = await room();
    const holder = await holderPool.getConnection();
    try {
      await holder.query('START TRANSACTION');
      await holder.query('UPDATE cwtest_gc_rooms SET topic = ? WHERE room_key = ?', ['deploy freeze', busy.channelId]);
      const posts = [post(quiet, null), post(busy, null), post(quiet, 'k'), post(busy, 'k'), post(quiet, 'k')];
      const answers = posts.map((input) => appStore.insertMessage(input));
      await expect(Promise.all([answers[0], answers[2], answers[4]])).resolves.toEqual([
        created(posts[0]!),
        created(posts[2]!),
        { outcome: 'duplicate', message: posts[2]!.message },
      ]);
      // The busy room's posts wait for the row alone, while the app's transaction goes on.
      await holder.query('UPDATE cwtest_gc_rooms SET owner = ? WHERE room_key = ?', ['u2', busy.channelId]);
      await holder.query('COMMIT');
      await expect(Promise.all([answers[1], answers[3]])).resolves.toEqual([created(posts[1]!), created(posts[3]!)]);
      expect(await appRows(busy.channelId)).toEqual([posts[1]!.message.id, posts[3]!.message.id]);
      expect(await appRows(quiet.channelId)).toEqual([posts[0]!.message.id, posts[2]!.message.id]);
    } finally {
      await holder.query('ROLLBACK').catch(() => {});
      holder.release();
    }
  });

  it("a row the app's table refuses fails only its own post; the batch's others are stored", async () => {
    const webhook = await room();
    const first = post(await room(), null);
    const from = sent.length;
    const posts = [
      post(webhook, 'x'),
      post(webhook, 'y', t0 + 1, { body: 'refused by the app' }),
      post(webhook, null),
      post(webhook, 'x'),
    ];
    const results = await Promise.all(
      [first, ...posts].map((input) => appStore.insertMessage(input).then(undefined, (error: unknown) => error)),
    );
    expect(since(from, isBatch)).toBe(1);
    expect(results[0]).toEqual(created(first));
    expect(results[1]).toEqual(created(posts[0]!));
    expect(results[2]).toMatchObject({ name: 'ChannelWebhookError', code: 'store_failed' });
    expect(results[3]).toEqual(created(posts[2]!));
    expect(results[4]).toEqual({ outcome: 'duplicate', message: posts[0]!.message });
    expect(await appRows(webhook.channelId)).toEqual([posts[0]!.message.id, posts[2]!.message.id]);
    expect(await appStore.listMessages(webhook.channelId)).toEqual([posts[0]!.message, posts[2]!.message]);
    // The refused post's key was not used up.
    const again = post(webhook, 'y');
    await expect(appStore.insertMessage(again)).resolves.toEqual(created(again));
  });

  it("a post whose app row waits past innodb_lock_wait_timeout fails alone; the batch's others are stored", async () => {
    const webhook = await room();
    const impatient = createMysqlStore({
      pool: recordingPool(pool, sent, 'SET SESSION innodb_lock_wait_timeout = 1'),
      tablePrefix,
      channels,
      messages,
    });
    const posts = [post(webhook, null), post(webhook, 'a'), post(webhook, 'b'), post(webhook, 'c')];
    const holder = await holderPool.getConnection();
    try {
      // The test's transaction holds the app row's unique id of the third post.
      await holder.query('START TRANSACTION');
      await holder.query("INSERT INTO cwtest_gc_posts (message_id, room_id, text) VALUES (?, 'elsewhere', 'x')", [
        posts[2]!.message.id,
      ]);
      const from = sent.length;
      const results = await Promise.all(
        posts.map((input) => impatient.insertMessage(input).then(undefined, (error: unknown) => error)),
      );
      expect(since(from, isBatch)).toBe(1);
      expect(results[0]).toEqual(created(posts[0]!));
      expect(results[1]).toEqual(created(posts[1]!));
      expect(results[2]).toMatchObject({ name: 'ChannelWebhookError', code: 'store_failed' });
      expect((results[2] as Error).cause).toMatchObject({ errno: 1205 });
      expect(results[3]).toEqual(created(posts[3]!));
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
    expect(await appRows(webhook.channelId)).toEqual([posts[0], posts[1], posts[3]].map((input) => input!.message.id));
  });

  // The errors a batch of posts can meet for want of a lock, or for a snapshot a row is newer than
  // (`innodb_snapshot_isolation`), each made to happen at the batch's insert of its messages, after
  // it wrote its webhooks' rows and took its places.
  for (const [errno, sqlState] of [
    [1020, 'HY000'],
    [1213, '40001'],
    [1205, 'HY000'],
  ] as const)
    it(`a batch that fails with ${errno} rolls back, and its posts go again alone: each stored once, none lost`, async () => {
      const webhooks = await Promise.all([seeded(), seeded()]);
      const first = post(await seeded(), null);
      const earlier = post(webhooks[0]!, 'earlier');
      await store.insertMessage(earlier);
      let failed = false;
      const failing: MysqlPool = {
        query: (query) => pool.query(query),
        async getConnection() {
          const connection = await pool.getConnection();
          let batch = false;
          return {
            query(query) {
              batch ||= isBatch(query.sql);
              if (batch && !failed && query.sql.includes(`INSERT INTO ${tablePrefix}messages`)) {
                failed = true;
                return Promise.reject(Object.assign(new Error(`injected ${errno}`), { errno, sqlState }));
              }
              return connection.query(query);
            },
            release: () => connection.release(),
            destroy: () => connection.destroy(),
          };
        },
      };
      const instance = createMysqlStore({ pool: failing, tablePrefix });
      const posts = [
        post(webhooks[0]!, null),
        post(webhooks[1]!, 'k'),
        post(webhooks[0]!, 'earlier'),
        post(webhooks[1]!, 'k'),
        post(webhooks[0]!, 'new'),
      ];
      const results = await Promise.all([first, ...posts].map((input) => instance.insertMessage(input)));
      expect(failed).toBe(true);
      expect(results.slice(1)).toEqual([
        created(posts[0]!),
        created(posts[1]!),
        { outcome: 'duplicate', message: earlier.message },
        { outcome: 'duplicate', message: posts[1]!.message },
        created(posts[4]!),
      ]);
      const stored = [
        ...(await store.listMessages(webhooks[0]!.channelId)),
        ...(await store.listMessages(webhooks[1]!.channelId)),
      ];
      expect(stored.map((message) => message.id).sort()).toEqual(
        [earlier, posts[0]!, posts[1]!, posts[4]!].map((input) => input.message.id).sort(),
      );
    });

  it('looks up the webhooks of a batch in one query, each caller getting its own', async () => {
    const webhooks = await Promise.all([seeded(), seeded(), seeded()]);
    const from = sent.length;
    const ids = [webhooks[0]!.id, 'wh_unknown', webhooks[1]!.id, webhooks[2]!.id, webhooks[0]!.id, `wh_${randomId()}`];
    const found = await Promise.all(ids.map((id) => store.getWebhook(id)));
    expect(found.map((webhook) => webhook?.id ?? null)).toEqual([ids[0], null, ids[2], ids[3], ids[4], null]);
    expect(found[3]).toMatchObject({ secretHash: webhooks[2]!.secretHash });
    expect(sent.slice(from)).toHaveLength(2);
    expect(sent.at(-1)).toContain('WHERE id IN (?, ?, ?, ?, ?)');
  });

  it('two instances batching over the same webhooks and keys store each key once, no statement failing', async () => {
    const peerSent: string[] = [];
    const peer = createMysqlStore({ pool: recordingPool(peerPool, peerSent), tablePrefix });
    const webhooks = await Promise.all(Array.from({ length: 4 }, () => seeded()));
    const keys = Array.from({ length: 12 }, (_, i) => `k${i}`);
    // Each instance posts every key of every webhook, in opposite orders.
    const plan = webhooks.flatMap((webhook) => keys.map((key) => [webhook, key] as const));
    const posting = (instance: MysqlStore, order: typeof plan) =>
      Promise.all(
        order.map(([webhook, key]) =>
          instance.insertMessage(post(webhook, key)).then((result) => ({ webhook, key, result })),
        ),
      );
    const from = sent.length;
    const [mine, theirs] = await Promise.all([posting(store, plan), posting(peer, [...plan].reverse())]);
    // Neither a deadlock nor a duplicate entry: each batch locks its webhooks before it reads their keys.
    expect([...sent.slice(from), ...peerSent].filter((sql) => sql.startsWith('failed'))).toEqual([]);
    const byKey = new Map<string, string[]>();
    for (const { webhook, key, result } of [...mine, ...theirs]) {
      expect(['created', 'duplicate']).toContain(result.outcome);
      const id = (result as { message: Message }).message.id;
      byKey.set(`${webhook.id}/${key}`, [...(byKey.get(`${webhook.id}/${key}`) ?? []), id]);
    }
    for (const ids of byKey.values()) expect(new Set(ids).size).toBe(1);
    for (const webhook of webhooks) {
      const stored = await store.listMessages(webhook.channelId);
      expect(stored.map((message) => message.id).sort()).toEqual(
        keys.map((key) => byKey.get(`${webhook.id}/${key}`)![0]).sort(),
      );
    }
    const made = [...mine, ...theirs].filter(({ result }) => result.outcome === 'created');
    expect(made).toHaveLength(webhooks.length * keys.length);
  });

  // The batch takes its block of places first and commits last. A place handed out before the
  // commit and not held to it would let the other instance's message commit first with a higher
  // number: a reader would read it, and never look below it again.
  it('a batch whose commit is held keeps its places: a later message waits for it, and the feed reads both in order', async () => {
    const webhooks = await Promise.all([seeded(), seeded(), seeded(), seeded()]);
    const start = post(webhooks[0]!, null);
    await store.insertMessage(start);
    const [cursor] = (await store.readFeed({ channelId: webhooks[0]!.channelId, limit: 1 })).entries;
    const held = holdingPool(holderPool, (statements) => statements.some(isBatch));
    const heldStore = createMysqlStore({ pool: held.pool, tablePrefix });
    const peer = createMysqlStore({ pool: peerPool, tablePrefix });
    const stop = new AbortController();
    const follower = followFeed(store, { signal: stop.signal, after: cursor!.cursor });
    try {
      const posts = [
        post(webhooks[0]!, null),
        post(webhooks[1]!, 'a'),
        post(webhooks[2]!, null),
        post(webhooks[0]!, 'b'),
      ];
      const storing = posts.map((input) => heldStore.insertMessage(input));
      expect(await storing[0]).toEqual(created(posts[0]!));
      await held.atCommit;
      const later = post(webhooks[3]!, null);
      const storingLater = peer.insertMessage(later);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const read = async () =>
        (await store.readFeed({ after: cursor!.cursor, limit: 20 })).entries.map((entry) => entry.message);
      expect(await read()).toEqual([posts[0]!.message]);

      held.release();
      expect(await Promise.all(storing.slice(1))).toEqual(posts.slice(1).map(created));
      expect(await storingLater).toEqual(created(later));
      const inOrder = [...posts, later].map((input) => input.message);
      expect(await read()).toEqual(inOrder);
      const delivered: Message[] = [];
      while (delivered.length < inOrder.length) delivered.push((await next(follower)).message);
      expect(delivered).toEqual(inOrder);
    } finally {
      held.release();
      stop.abort();
      await follower.return();
    }
  });
});

async function next(entries: AsyncIterator<FeedEntry>): Promise<FeedEntry> {
  const result = await Promise.race([
    entries.next(),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no entry within 10 s')), 10_000)),
  ]);
  if (result.done === true) throw new Error('the follower ended');
  return result.value;
}
