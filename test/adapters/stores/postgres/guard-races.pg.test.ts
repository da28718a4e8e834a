import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStore, type PostgresStore } from '../../../../adapters/stores/postgres/index.js';
import { insertInput, makeMessage, makeWebhook, randomId } from '../../../../src/testing/fixtures.js';
import type { InsertMessageResult, WebhookRecord } from '../../../../src/index.js';
import { backends } from '../../../support/backends.js';

const { databaseUrl, title } = backends();
const tablePrefix = 'cwtest_guard_races_';
const t0 = Date.UTC(2026, 0, 1, 12);

// Real concurrent sessions: `pool` posts, `peerPool` is another instance, and `holder` is one
// connection that opens a transaction, writes through the store, and commits when the test says so.
describe.skipIf(databaseUrl === null)(title('PostgreSQL guarded insert under concurrency', 'postgres'), () => {
  let pool: pg.Pool;
  let peerPool: pg.Pool;
  let holderPool: pg.Pool;
  let store: PostgresStore;
  let peer: PostgresStore;

  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: databaseUrl!, max: 10 });
    peerPool = new pg.Pool({ connectionString: databaseUrl!, max: 10 });
    holderPool = new pg.Pool({ connectionString: databaseUrl!, max: 2 });
    store = createPostgresStore({ pool, tablePrefix });
    peer = createPostgresStore({ pool: peerPool, tablePrefix });
    await store.migrate();
  });
  afterAll(async () => {
    await Promise.all([pool?.end(), peerPool?.end(), holderPool?.end()]);
  });

  const seeded = async (): Promise<WebhookRecord> => {
    const webhook = makeWebhook(`c_${randomId()}`, t0);
    await store.putChannel({ id: webhook.channelId, ownerId: 'u1', archived: false });
    await store.insertWebhook(webhook);
    return webhook;
  };

  /** Runs `write` through a store in an open transaction; the caller commits or rolls back. */
  const holding = async (write: (held: PostgresStore, client: pg.PoolClient) => Promise<unknown>) => {
    const client = await holderPool.connect();
    await client.query('BEGIN');
    await write(createPostgresStore({ pool: client, tablePrefix }), client);
    const end = async (how: 'COMMIT' | 'ROLLBACK') => {
      try {
        await client.query(how);
      } finally {
        client.release();
      }
    };
    return { commit: () => end('COMMIT'), rollback: () => end('ROLLBACK') };
  };

  /** Whether `promise` is still pending after `ms`: it is blocked on a lock. */
  const pendingAfter = async (promise: Promise<unknown>, ms: number) => {
    const marker = Symbol('pending');
    const first = await Promise.race([
      promise.then(
        () => 'settled',
        () => 'settled',
      ),
      new Promise((resolve) => setTimeout(() => resolve(marker), ms)),
    ]);
    return first === marker;
  };

  const guardedCases: Array<
    [
      string,
      (held: PostgresStore, client: pg.PoolClient, webhook: WebhookRecord) => Promise<unknown>,
      InsertMessageResult['outcome'],
    ]
  > = [
    ['a revocation', (held, _client, webhook) => held.revokeWebhook(webhook.id, t0 + 5), 'webhook_inactive'],
    [
      'a rotation',
      (held, _client, webhook) => held.updateWebhookSecret(webhook.id, 'f'.repeat(64), t0 + 5),
      'webhook_inactive',
    ],
    [
      'an archival',
      (held, _client, webhook) => held.putChannel({ id: webhook.channelId, ownerId: 'u1', archived: true }),
      'channel_archived',
    ],
    [
      'a channel deletion',
      (_held, client, webhook) => client.query(`DELETE FROM ${tablePrefix}channels WHERE id = $1`, [webhook.channelId]),
      'channel_not_found',
    ],
  ];

  for (const [what, write, outcome] of guardedCases) {
    it(`an insert that starts while ${what} is uncommitted waits for it, then answers ${outcome} and stores nothing`, async () => {
      const webhook = await seeded();
      const held = await holding((store, client) => write(store, client, webhook));
      const insert = store.insertMessage(insertInput(webhook, makeMessage(webhook, t0 + 10), 'k'));
      try {
        expect(await pendingAfter(insert, 300)).toBe(true);
      } finally {
        await held.commit();
      }
      expect(await insert).toEqual({ outcome });
      expect(await peer.listMessages(webhook.channelId)).toEqual([]);
      expect((await peer.getWebhook(webhook.id))?.lastPostAt ?? null).toBeNull();
    });
  }

  it('an insert waiting on a revocation that rolls back stores its message', async () => {
    const webhook = await seeded();
    const held = await holding((store) => store.revokeWebhook(webhook.id, t0 + 5));
    const message = makeMessage(webhook, t0 + 10);
    const insert = store.insertMessage(insertInput(webhook, message, 'k'));
    expect(await pendingAfter(insert, 300)).toBe(true);
    await held.rollback();
    expect(await insert).toEqual({ outcome: 'created', message });
    expect((await peer.getWebhook(webhook.id))?.lastPostAt).toBe(t0 + 10);
  });

  for (const [what, write] of guardedCases.slice(0, 3)) {
    it(`${what} that starts while an insert is uncommitted waits for it: the message is stored before it`, async () => {
      const webhook = await seeded();
      const message = makeMessage(webhook, t0 + 10);
      const held = await holding(async (store) =>
        expect(await store.insertMessage(insertInput(webhook, message, 'k'))).toEqual({ outcome: 'created', message }),
      );
      const client = await pool.connect();
      const other = createPostgresStore({ pool: client, tablePrefix });
      try {
        const writing = write(other, client, webhook);
        expect(await pendingAfter(writing, 300)).toBe(true);
        await held.commit();
        await writing;
      } finally {
        client.release();
      }
      expect(await peer.listMessages(webhook.channelId)).toEqual([message]);
      expect((await peer.getWebhook(webhook.id))?.lastPostAt).toBe(t0 + 10);
    });
  }

  // Rule: once revokeWebhook has returned, the set of stored messages never grows, and every
  // insert was either created (and is in that set) or told webhook_inactive.
  it('a revocation racing 40 inserts on two instances: each is created before it or refused after, none lands later', async () => {
    for (let round = 0; round < 5; round++) {
      const webhook = await seeded();
      const messages = Array.from({ length: 40 }, (_, i) => makeMessage(webhook, t0 + i, { body: `#${i}` }));
      const inserts = messages.map((message, i) =>
        (i % 2 ? peer : store).insertMessage(insertInput(webhook, message, i % 3 ? `k${i}` : null)),
      );
      await new Promise((resolve) => setTimeout(resolve, round * 3));
      await peer.revokeWebhook(webhook.id, t0 + 100);
      const atRevoke = await store.listMessages(webhook.channelId);
      const results = await Promise.all(inserts);
      expect(await store.listMessages(webhook.channelId)).toEqual(atRevoke);
      const created = results.flatMap((result) => (result.outcome === 'created' ? [result.message] : []));
      for (const result of results) expect(['created', 'webhook_inactive']).toContain(result.outcome);
      expect(created.map((m) => m.id).sort()).toEqual(atRevoke.map((m) => m.id).sort());
    }
  });

  it("posts, rotations, revocations and archivals racing on a channel's webhooks never deadlock", async () => {
    for (let round = 0; round < 5; round++) {
      const webhook = await seeded();
      const sibling = makeWebhook(webhook.channelId, t0);
      await store.insertWebhook(sibling);
      let hash = webhook.secretHash;
      const work: Array<Promise<unknown>> = [];
      for (let i = 0; i < 30; i++) {
        const target = i % 2 ? store : peer;
        work.push(
          target.insertMessage({
            ...insertInput(webhook, makeMessage(webhook, t0 + i), `k${i % 5}`),
            secretHash: hash,
          }),
        );
        work.push(peer.insertMessage(insertInput(sibling, makeMessage(sibling, t0 + i), null)));
        if (i % 6 === 3) {
          hash = (i.toString(16) + 'a'.repeat(64)).slice(0, 64);
          work.push(peer.updateWebhookSecret(webhook.id, hash, t0 + i));
        }
        if (i % 10 === 5) work.push(store.putChannel({ id: webhook.channelId, ownerId: 'u1', archived: i % 20 === 5 }));
      }
      work.push(peer.revokeWebhook(webhook.id, t0 + 50), store.revokeWebhook(sibling.id, t0 + 50));
      const settled = await Promise.allSettled(work);
      expect(settled.filter((result) => result.status === 'rejected')).toEqual([]);
    }
  });

  it('channels read through a host app view: the guard reads and locks the rows beneath it', async () => {
    await pool.query(
      `CREATE TABLE IF NOT EXISTS cwtest_host_rooms (room_id text PRIMARY KEY, owner text NOT NULL, archived_at timestamptz)`,
    );
    await pool.query(
      `CREATE OR REPLACE VIEW cwtest_host_room_channels AS SELECT room_id AS id, owner AS owner_id, archived_at IS NOT NULL AS archived FROM cwtest_host_rooms`,
    );
    const viewStore = createPostgresStore({ pool, tablePrefix, channels: { table: 'cwtest_host_room_channels' } });
    const webhook = makeWebhook(`room_${randomId()}`, t0);
    await pool.query('INSERT INTO cwtest_host_rooms (room_id, owner) VALUES ($1, $2)', [webhook.channelId, 'u9']);
    await viewStore.insertWebhook(webhook);
    expect(await viewStore.getChannel(webhook.channelId)).toEqual({
      id: webhook.channelId,
      ownerId: 'u9',
      archived: false,
    });
    const message = makeMessage(webhook, t0 + 1);
    expect(await viewStore.insertMessage(insertInput(webhook, message, 'k'))).toEqual({ outcome: 'created', message });

    const held = await holding((_store, client) =>
      client.query('UPDATE cwtest_host_rooms SET archived_at = now() WHERE room_id = $1', [webhook.channelId]),
    );
    const insert = viewStore.insertMessage(insertInput(webhook, makeMessage(webhook, t0 + 2), null));
    try {
      expect(await pendingAfter(insert, 300)).toBe(true);
    } finally {
      await held.commit();
    }
    expect(await insert).toEqual({ outcome: 'channel_archived' });
    expect(await viewStore.getChannel(webhook.channelId)).toEqual({
      id: webhook.channelId,
      ownerId: 'u9',
      archived: true,
    });
    expect(await viewStore.listMessages(webhook.channelId)).toEqual([message]);
  });
});
