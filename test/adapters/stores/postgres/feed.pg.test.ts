import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStore, type PostgresStore } from '../../../../adapters/stores/postgres/index.js';
import { followFeed, type FeedEntry, type Message } from '../../../../src/index.js';
import { insertInput, makeMessage, makeWebhook, randomId } from '../../../../src/testing/fixtures.js';
import type { WebhookRecord } from '../../../../src/ports.js';
import { backends } from '../../../support/backends.js';

const { databaseUrl, title } = backends();
const tablePrefix = 'cwtest_feed_';
const t0 = Date.UTC(2026, 0, 1, 12);

describe.skipIf(databaseUrl === null)(title('PostgreSQL feed', 'postgres'), () => {
  let pool: pg.Pool;
  let store: PostgresStore;

  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: databaseUrl!, max: 6 });
    store = createPostgresStore({ pool, tablePrefix });
    await store.migrate();
  });
  afterAll(async () => {
    await pool?.end();
  });

  const channel = async (): Promise<WebhookRecord> => {
    const webhook = makeWebhook(`c_${randomId()}`, t0);
    await store.putChannel({ id: webhook.channelId, ownerId: 'u1', archived: false });
    await store.insertWebhook(webhook);
    return webhook;
  };
  const post = async (through: PostgresStore, webhook: WebhookRecord, i: number): Promise<Message> => {
    const message = makeMessage(webhook, t0 + i, { body: `#${i}` });
    expect((await through.insertMessage(insertInput(webhook, message, null))).outcome).toBe('created');
    return message;
  };
  /** A client of its own, in a transaction left open until the test says. */
  const openTransaction = async () => {
    const client = new pg.Client({ connectionString: databaseUrl! });
    await client.connect();
    await client.query('BEGIN');
    return { store: createPostgresStore({ pool: client, tablePrefix, preparedStatements: false }), client };
  };
  const next = async (entries: AsyncIterator<FeedEntry>): Promise<FeedEntry> => {
    const result = await Promise.race([
      entries.next(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no entry within 10 s')), 10_000)),
    ]);
    if (result.done === true) throw new Error('the follower ended');
    return result.value;
  };

  // Message 2's seq is handed out before message 3's, but it commits after it: a reader that went
  // by seq alone would read 3, then never look below it again.
  it('a message whose transaction stays open between two others is held back, then read in its place, never skipped', async () => {
    const webhook = await channel();
    // Another webhook of the channel: posts of one webhook wait for each other on its row.
    const other = makeWebhook(webhook.channelId, t0);
    await store.insertWebhook(other);
    const first = await post(store, webhook, 1);
    const stop = new AbortController();
    const follower = followFeed(store, { channelId: webhook.channelId, signal: stop.signal });
    const held = await openTransaction();
    try {
      expect((await next(follower)).message).toEqual(first);
      const [before] = (await store.readFeed!({ channelId: webhook.channelId, limit: 10 })).entries;

      const second = await post(held.store, other, 2);
      const third = await post(store, webhook, 3);
      // The open transaction sees its own row; everyone sees the committed one.
      const seqOf = async (on: pg.Pool | pg.Client, message: Message) =>
        Number((await on.query(`SELECT seq FROM ${tablePrefix}messages WHERE id = $1`, [message.id])).rows[0].seq);
      expect(await seqOf(held.client, second)).toBeLessThan(await seqOf(pool, third));

      // The third is committed, but a write that began before it is still open: nothing is read past it.
      expect(await store.readFeed!({ channelId: webhook.channelId, after: before!.cursor, limit: 10 })).toEqual({
        entries: [],
        heldBack: true,
      });
      expect(await store.readFeed!({ after: before!.cursor, limit: 10 })).toEqual({ entries: [], heldBack: true });

      await held.client.query('COMMIT');
      const page = await store.readFeed!({ channelId: webhook.channelId, after: before!.cursor, limit: 10 });
      expect(page.heldBack).toBe(false);
      expect(page.entries.map((entry) => entry.message)).toEqual([second, third]);
      expect((await next(follower)).message).toEqual(second);
      expect((await next(follower)).message).toEqual(third);
    } finally {
      await held.client.end();
      stop.abort();
      await follower.return();
    }
  });

  it('a transaction that began first but stored its message last is read after the other, and not skipped', async () => {
    const webhook = await channel();
    const other = makeWebhook(webhook.channelId, t0);
    await store.insertWebhook(other);
    const [start] = (await store.readFeed!({ channelId: webhook.channelId, limit: 1 })).entries;
    const late = await openTransaction();
    try {
      // It holds a transaction id (from a first write) before the other stores anything.
      await late.client.query(`SELECT pg_current_xact_id()`);
      const early = await post(store, webhook, 1);
      const last = await post(late.store, other, 2);
      expect(await store.readFeed!({ channelId: webhook.channelId, after: start?.cursor, limit: 10 })).toEqual({
        entries: [],
        heldBack: true,
      });
      await late.client.query('COMMIT');
      const page = await store.readFeed!({ channelId: webhook.channelId, after: start?.cursor, limit: 10 });
      expect(page.entries.map((entry) => entry.message)).toEqual([last, early]);
      expect(page.entries[0]!.cursor < page.entries[1]!.cursor).toBe(true);
    } finally {
      await late.client.end();
    }
  });

  it("a channel's read is not held back by another channel's messages that wait on an open write", async () => {
    const mine = await channel();
    const theirs = await channel();
    const before = await post(store, mine, 1);
    const mineNow = () => store.readFeed!({ channelId: mine.channelId, limit: 10 });
    // Transactions that other tests left open when it was stored end first.
    await expect.poll(async () => (await mineNow()).heldBack, { timeout: 10_000 }).toBe(false);
    const open = await openTransaction();
    try {
      await open.client.query('SELECT pg_current_xact_id()');
      await post(store, theirs, 2);
      expect(await store.readFeed!({ channelId: theirs.channelId, limit: 10 })).toEqual({
        entries: [],
        heldBack: true,
      });
      expect(await mineNow()).toEqual({ entries: [expect.objectContaining({ message: before })], heldBack: false });
    } finally {
      await open.client.end();
    }
  });

  it('announces a stored message once, by its channel, only when its transaction commits', async () => {
    const listener = new pg.Client({ connectionString: databaseUrl! });
    await listener.connect();
    const heard: Array<string | undefined> = [];
    listener.on('notification', (message) => heard.push(message.payload));
    await listener.query(`LISTEN "${tablePrefix}feed"`);
    try {
      const webhook = await channel();
      const message = makeMessage(webhook, t0 + 1);
      await store.insertMessage(insertInput(webhook, message, 'k'));
      await store.insertMessage(insertInput(webhook, makeMessage(webhook, t0 + 2), 'k'));
      const rolledBack = await openTransaction();
      await rolledBack.store.insertMessage(insertInput(webhook, makeMessage(webhook, t0 + 3), null));
      await rolledBack.client.query('ROLLBACK');
      await rolledBack.client.end();
      const long = makeWebhook('c'.repeat(1_200), t0);
      await store.putChannel({ id: long.channelId, ownerId: 'u1', archived: false });
      await store.insertWebhook(long);
      await store.insertMessage(insertInput(long, makeMessage(long, t0 + 4), null));
      // A last one on this connection: its notification comes after the others'.
      await listener.query(`NOTIFY "${tablePrefix}feed", 'end'`);
      await expect.poll(() => heard.at(-1), { timeout: 5_000 }).toBe('end');
      expect(heard).toEqual([webhook.channelId, '', 'end']);
    } finally {
      await listener.end();
    }
  });

  it('listens on one connection for every watcher, gives it back when the last one ends, and takes another after it is cut', async () => {
    const own = new pg.Pool({ connectionString: databaseUrl!, max: 3 });
    const failures: unknown[] = [];
    const watched = createPostgresStore({ pool: own, tablePrefix, onError: (error) => failures.push(error) });
    const listening = async () =>
      (
        await pool.query(`SELECT pid FROM pg_stat_activity WHERE query = $1 AND datname = current_database()`, [
          `LISTEN "${tablePrefix}feed"`,
        ])
      ).rows.map((row) => row.pid as number);
    try {
      const webhook = await channel();
      const calls: Array<string | undefined> = [];
      const stops = Array.from({ length: 5 }, () => watched.watchFeed!((changed) => calls.push(changed)));
      // Every watcher is called once the LISTEN is in place.
      await expect.poll(() => calls.length, { timeout: 5_000 }).toBe(5);
      expect(calls).toEqual(Array(5).fill(undefined));
      const [pid] = await listening();
      expect(await listening()).toHaveLength(1);
      expect(own.totalCount - own.idleCount).toBe(1);

      calls.length = 0;
      await post(store, webhook, 1);
      await expect.poll(() => calls.length, { timeout: 5_000 }).toBe(5);
      expect(calls).toEqual(Array(5).fill(webhook.channelId));

      // The server cuts the connection: the store takes another, and says so to every watcher,
      // which then reads what was stored meanwhile.
      calls.length = 0;
      await pool.query('SELECT pg_terminate_backend($1)', [pid]);
      await expect.poll(() => calls.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(5);
      expect(calls.slice(0, 5)).toEqual(Array(5).fill(undefined));
      await expect
        .poll(async () => (await listening()).filter((other) => other !== pid), { timeout: 5_000 })
        .toHaveLength(1);
      expect(failures).toEqual([expect.objectContaining({ code: '57P01' })]);

      for (const stop of stops) stop();
      await expect.poll(() => own.totalCount - own.idleCount, { timeout: 5_000 }).toBe(0);
      await expect
        .poll(async () => (await own.query('SELECT 1 AS one')).rows, { timeout: 5_000 })
        .toEqual([{ one: 1 }]);
    } finally {
      await own.end();
    }
  });

  it('watch, unwatch and watch again in one turn leave one listening connection, and none after the last unwatch', async () => {
    const own = new pg.Pool({ connectionString: databaseUrl!, max: 3 });
    const checkedOut = new Set<pg.PoolClient>();
    own.on('acquire', (client) => checkedOut.add(client));
    own.on('release', (_error, client) => checkedOut.delete(client));
    const watched = createPostgresStore({ pool: own, tablePrefix });
    try {
      const calls: string[] = [];
      const first = watched.watchFeed!(() => calls.push('first'));
      first();
      const second = watched.watchFeed!(() => calls.push('second'));
      await expect.poll(() => calls.length, { timeout: 5_000 }).toBeGreaterThan(0);
      // Long enough for a second connection, had one been asked for, to be checked out and listening.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(calls).toEqual(['second']);
      expect(checkedOut.size).toBe(1);
      second();
      await expect.poll(() => checkedOut.size, { timeout: 5_000 }).toBe(0);
    } finally {
      // A connection the store lost track of would keep the pool from ending.
      for (const client of checkedOut) client.release(true);
      await own.end();
    }
  });

  it('has no feed over a pool that cannot check a connection out, unless given listen', async () => {
    const plain = createPostgresStore({ pool: { query: (query) => pool.query(query) }, tablePrefix });
    expect(plain.readFeed).toBeUndefined();
    expect(plain.watchFeed).toBeUndefined();
    const client = new pg.Client({ connectionString: databaseUrl! });
    await client.connect();
    try {
      const direct = createPostgresStore({ pool: client, tablePrefix, listen: () => pool.connect() });
      expect(typeof direct.readFeed).toBe('function');
      expect(typeof direct.watchFeed).toBe('function');
    } finally {
      await client.end();
    }
  });
});
