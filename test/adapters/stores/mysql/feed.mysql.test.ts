import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMysqlStore, type MysqlPool, type MysqlStore } from '../../../../adapters/stores/mysql/index.js';
import { followFeed, type FeedEntry, type Message } from '../../../../src/index.js';
import { insertInput, makeMessage, makeWebhook, randomId } from '../../../../src/testing/fixtures.js';
import type { WebhookRecord } from '../../../../src/ports.js';
import { backends } from '../../../support/backends.js';
import { recordingPool } from './recording-pool.js';

const { mysqlUrl, title } = backends();
const tablePrefix = 'cwtest_feed_';
const t0 = Date.UTC(2026, 0, 1, 12);

/**
 * A pool whose transactions hold their `COMMIT` until `release()`: a post through it has taken its
 * place in the feed and written its row, and its transaction stays open on the server meanwhile.
 */
function holdingPool(pool: mysql.Pool) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let reachedCommit!: () => void;
  const atCommit = new Promise<void>((resolve) => (reachedCommit = resolve));
  const holding: MysqlPool = {
    query: (query) => pool.query(query),
    async getConnection() {
      const connection = await pool.getConnection();
      return {
        async query(query) {
          if (query.sql === 'COMMIT') {
            reachedCommit();
            await released;
          }
          return connection.query(query);
        },
        release: () => connection.release(),
        destroy: () => connection.destroy(),
      };
    },
  };
  return { pool: holding, release, atCommit };
}

describe.skipIf(mysqlUrl === null)(title('MySQL feed', 'mysql'), () => {
  let pool: mysql.Pool;
  let peerPool: mysql.Pool;
  let store: MysqlStore;

  beforeAll(async () => {
    pool = mysql.createPool({ uri: mysqlUrl!, connectionLimit: 8 });
    peerPool = mysql.createPool({ uri: mysqlUrl!, connectionLimit: 8 });
    store = createMysqlStore({ pool, tablePrefix });
    await store.migrate();
  });
  afterAll(async () => {
    await Promise.all([pool?.end(), peerPool?.end()]);
  });

  const channel = async (): Promise<WebhookRecord> => {
    const webhook = makeWebhook(`c_${randomId()}`, t0);
    await store.putChannel({ id: webhook.channelId, ownerId: 'u1', archived: false });
    await store.insertWebhook(webhook);
    return webhook;
  };
  const post = async (through: MysqlStore, webhook: WebhookRecord, i: number): Promise<Message> => {
    const message = makeMessage(webhook, t0 + i, { body: `#${i}` });
    expect((await through.insertMessage(insertInput(webhook, message, null))).outcome).toBe('created');
    return message;
  };
  const next = async (entries: AsyncIterator<FeedEntry>): Promise<FeedEntry> => {
    const result = await Promise.race([
      entries.next(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no entry within 10 s')), 10_000)),
    ]);
    if (result.done === true) throw new Error('the follower ended');
    return result.value;
  };
  const messagesAfter = async (after: string, channelId?: string) =>
    (await store.readFeed({ channelId, after, limit: 10 })).entries.map((entry) => entry.message);

  // Message 2 takes its place first and commits last. With places handed out before the commit (an
  // AUTO_INCREMENT id), message 3 would commit first with the higher number, a reader would read
  // it, and then never look below it again: message 2 would be skipped.
  it('a message whose transaction stays open is read in its place once it commits, and a later one waits for it, never skipped', async () => {
    const webhook = await channel();
    const other = await channel();
    const first = await post(store, webhook, 1);
    const stop = new AbortController();
    const follower = followFeed(store, { signal: stop.signal, after: undefined });
    const held = holdingPool(pool);
    const heldStore = createMysqlStore({ pool: held.pool, tablePrefix });
    const peer = createMysqlStore({ pool: peerPool, tablePrefix });
    try {
      const [start] = (await store.readFeed({ channelId: webhook.channelId, limit: 1 })).entries;
      expect(start!.message).toEqual(first);
      const second = makeMessage(other, t0 + 2, { body: '#2' });
      const storing = heldStore.insertMessage(insertInput(other, second, null));
      await held.atCommit;
      // Another instance, another channel: it takes the next place only once the held one commits.
      const third = post(peer, webhook, 3);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await messagesAfter(start!.cursor)).toEqual([]);
      expect(await messagesAfter(start!.cursor, webhook.channelId)).toEqual([]);

      held.release();
      expect(await storing).toEqual({ outcome: 'created', message: second });
      const thirdMessage = await third;
      expect(await messagesAfter(start!.cursor)).toEqual([second, thirdMessage]);
      expect(await messagesAfter(start!.cursor, webhook.channelId)).toEqual([thirdMessage]);

      const delivered: Message[] = [];
      while (delivered.at(-1)?.id !== thirdMessage.id) delivered.push((await next(follower)).message);
      const ours = delivered.filter((message) => [first.id, second.id, thirdMessage.id].includes(message.id));
      expect(ours).toEqual([first, second, thirdMessage]);
    } finally {
      held.release();
      stop.abort();
      await follower.return();
    }
  });

  it("wakes a follower on another instance by its check of the feed's counter", async () => {
    const webhook = await channel();
    const follower = createMysqlStore({ pool: peerPool, tablePrefix, feedCheckMs: 50 });
    const heard: Array<string | undefined> = [];
    const stopWatching = follower.watchFeed((channelId) => heard.push(channelId));
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      heard.length = 0;
      await post(store, webhook, 1);
      await expect.poll(() => heard.length, { timeout: 5_000 }).toBeGreaterThan(0);
      // The peer did not store it: it can only say that something changed, not where.
      expect(heard.every((channelId) => channelId === undefined)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const calls = heard.length;
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(heard.length).toBe(calls);
    } finally {
      stopWatching();
    }
  });

  // A watch learns the counter with a read of its own, which a busy pool or server may answer only
  // after another instance's commit that came after the follower's first read.
  it("wakes a follower whose watch learnt the counter only after another instance's commit", async () => {
    const webhook = await channel();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let firstRead!: () => void;
    const hasRead = new Promise<void>((resolve) => (firstRead = resolve));
    let held = false;
    const late: MysqlPool = {
      async query(query) {
        if (!held && query.sql.startsWith('SELECT next_seq')) {
          held = true;
          await released;
        }
        const answer = await peerPool.query(query);
        if (query.sql.startsWith('SELECT epoch')) firstRead();
        return answer;
      },
      getConnection: () => peerPool.getConnection(),
    };
    // No check of the counter but the first, in the test's time.
    const instance = createMysqlStore({ pool: late, tablePrefix, feedCheckMs: 600_000 });
    const stop = new AbortController();
    const follower = followFeed(instance, { channelId: webhook.channelId, signal: stop.signal });
    try {
      const first = next(follower);
      await hasRead;
      const message = await post(store, webhook, 1);
      release();
      expect((await first).message).toEqual(message);
    } finally {
      release();
      stop.abort();
      await follower.return();
    }
  });

  it('a watch stopped and started again while its first check is out keeps one check of the counter going, not two', async () => {
    const sent: string[] = [];
    const watched = createMysqlStore({ pool: recordingPool(pool, sent), tablePrefix, feedCheckMs: 50 });
    const stopFirst = watched.watchFeed(() => {});
    stopFirst();
    const stopWatching = watched.watchFeed(() => {});
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    } finally {
      stopWatching();
    }
    // One check every 50 ms at the most, each after the last one answered: 20 in a second, and the
    // two first checks. Two chains of checks would send about twice as many.
    const checks = sent.filter((sql) => sql.includes('SELECT next_seq FROM')).length;
    expect(checks).toBeGreaterThan(5);
    expect(checks).toBeLessThanOrEqual(23);
  });

  it('reports a failing check to onError and wakes the followers, whose read then fails too', async () => {
    const errors: unknown[] = [];
    const broken = createMysqlStore({
      pool,
      tablePrefix: 'cwtest_never_migrated_',
      feedCheckMs: 20,
      onError: (error) => errors.push(error),
    });
    let calls = 0;
    const stopWatching = broken.watchFeed(() => calls++);
    try {
      await expect.poll(() => errors.length, { timeout: 5_000 }).toBeGreaterThan(1);
      expect(errors[0]).toMatchObject({ name: 'ChannelWebhookError', code: 'store_failed' });
      expect(calls).toBeGreaterThan(0);
      await expect(broken.readFeed({ limit: 1 })).rejects.toMatchObject({ code: 'store_failed' });
    } finally {
      stopWatching();
    }
  });
});
