import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStore, type PostgresStore } from '../../../../adapters/stores/postgres/index.js';
import { FOLD_AT } from '../../../../adapters/stores/postgres/post-history.js';
import { POST_HISTORY_LIMIT, type PostRecord } from '../../../../src/index.js';
import { backends } from '../../../support/backends.js';

// The PostgreSQL history is appended to a log in post order and folded into chunks per webhook
// before a read, or once an instance has appended FOLD_AT records: what a reader gets must not
// depend on where the records were when it read, and folds of two instances must take turns.

const { databaseUrl, title } = backends();
const MINUTE = 60_000;
const T0 = Date.UTC(2026, 11, 7, 9, 0, 0);

const stored = (webhookId: string, at: number, key = `k-${at}`): PostRecord => ({
  webhookId,
  at,
  status: 201,
  code: null,
  errors: [],
  idempotencyKey: key,
  messageId: randomUUID(),
  bodyBytes: 20,
  count: 1,
});

const limited = (webhookId: string, at: number, count = 1, status: 415 | 429 = 429): PostRecord => ({
  webhookId,
  at,
  status,
  code: status === 429 ? 'rate_limited' : 'unsupported_media_type',
  errors: [],
  idempotencyKey: null,
  messageId: null,
  bodyBytes: null,
  count,
});

const newWebhookId = () => `wh_${randomUUID().replaceAll('-', '').slice(0, 22)}`;

describe.skipIf(databaseUrl === null)(title('PostgreSQL post history: the log and its fold', 'postgres'), () => {
  const prefix = `cwtest_post_log_${Date.now().toString(36)}_`;
  let pool: pg.Pool;
  let peerPool: pg.Pool;
  let store: PostgresStore;
  let peer: PostgresStore;

  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: databaseUrl!, max: 4 });
    peerPool = new pg.Pool({ connectionString: databaseUrl!, max: 4 });
    store = createPostgresStore({ pool, tablePrefix: prefix });
    peer = createPostgresStore({ pool: peerPool, tablePrefix: prefix });
    await store.migrate();
  });
  afterAll(async () => {
    await Promise.all([pool?.end(), peerPool?.end()]);
  });

  /** Records the log holds, of one webhook or of all. */
  const logged = async (webhookId?: string): Promise<number> => {
    const { rows } = await pool.query(
      `SELECT count(*)::int AS n FROM ${prefix}post_log, unnest(webhook_ids) AS id WHERE $1::text IS NULL OR id = $1`,
      [webhookId ?? null],
    );
    return rows[0].n;
  };

  /** A webhook's chunks: how many, and the records they hold. */
  const chunked = async (webhookId: string): Promise<{ chunks: number; records: number }> => {
    const { rows } = await pool.query(
      `SELECT count(*)::int AS chunks, coalesce(sum(length), 0)::int AS records FROM ${prefix}post_chunks WHERE webhook_id = $1`,
      [webhookId],
    );
    return rows[0];
  };

  it('a read folds the log first: records appended by one instance and not yet folded are read by another, and the log is left empty', async () => {
    const webhookId = newWebhookId();
    const records = [stored(webhookId, T0), limited(webhookId, T0 + 1), stored(webhookId, T0 + 2)];
    await store.recordPosts(records.slice(0, 2));
    await store.recordPosts(records.slice(2));
    expect(await logged(webhookId)).toBe(3);

    expect(await peer.listPosts(webhookId, POST_HISTORY_LIMIT)).toEqual([...records].reverse());
    expect(await logged()).toBe(0);
    expect(await chunked(webhookId)).toEqual({ chunks: 1, records: 3 });
  });

  it(`an instance that has appended ${FOLD_AT} records folds the log itself, so a history nobody reads stays bounded`, async () => {
    const busy = newWebhookId();
    const quiet = newWebhookId();
    // An instance of its own: its count starts afresh, whatever the other tests appended.
    const writer = createPostgresStore({ pool: peerPool, tablePrefix: prefix });
    const batch = 500;
    const busyRecords: PostRecord[] = [];
    let at = T0;
    let most = 0;
    for (let i = 0; i < 3 * FOLD_AT; i += batch) {
      const records = Array.from({ length: batch }, () => stored(busy, at++));
      busyRecords.push(...records);
      if (i % (4 * batch) === 0) records.push(stored(quiet, at++));
      await writer.recordPosts(records);
      most = Math.max(most, await logged());
    }
    // The log never held more than a fold's worth and a batch, and the busy webhook's chunks no
    // more than its last 100 records (the chunk it was folded into last).
    expect(most).toBeLessThanOrEqual(FOLD_AT + batch + 1);
    expect(await chunked(busy)).toEqual({ chunks: 1, records: POST_HISTORY_LIMIT });
    expect((await chunked(quiet)).records).toBeGreaterThan(0);
    expect(await store.listPosts(busy, POST_HISTORY_LIMIT)).toEqual(busyRecords.slice(-POST_HISTORY_LIMIT).reverse());
  });

  it("a minute's 429s and 415s are added to their records across folds: from the chunks, from several batches of the log, at their earliest", async () => {
    const webhookId = newWebhookId();
    const minute = T0 + 10 * MINUTE;
    const first = stored(webhookId, minute);
    const second = stored(webhookId, minute + 2_000);
    await store.recordPosts([
      first,
      limited(webhookId, minute + 1_000, 2),
      limited(webhookId, minute + 1_500, 1, 415),
      second,
    ]);
    expect(await store.listPosts(webhookId, POST_HISTORY_LIMIT)).toHaveLength(4);

    const third = stored(webhookId, minute + 3_000);
    await store.recordPosts([limited(webhookId, minute + 500, 3), third, limited(webhookId, minute + 4_000, 1, 415)]);
    const next = limited(webhookId, minute + MINUTE);
    await peer.recordPosts([limited(webhookId, minute + 5_000, 4), limited(webhookId, minute + 5_000, 2, 415), next]);

    expect(await peer.listPosts(webhookId, POST_HISTORY_LIMIT)).toEqual([
      next,
      third,
      second,
      limited(webhookId, minute + 1_500, 4, 415),
      limited(webhookId, minute + 500, 9),
      first,
    ]);
  });

  it("a minute's record that has left the last 100 takes no more: the minute's next 429 takes a place of its own", async () => {
    const webhookId = newWebhookId();
    const minute = T0 + 20 * MINUTE;
    const gone = limited(webhookId, minute, 5);
    const older = Array.from({ length: 50 }, (_, i) => stored(webhookId, minute + 1 + i));
    const newer = Array.from({ length: 50 }, (_, i) => stored(webhookId, minute + 100 + i));
    // Folded apart, so the 429 ends up first in a chunk that still holds records of the last 100.
    await store.recordPosts([gone, ...older]);
    await store.listPosts(webhookId, 1);
    await store.recordPosts(newer);
    expect(await store.listPosts(webhookId, POST_HISTORY_LIMIT)).toEqual([...older, ...newer].reverse());

    const again = limited(webhookId, minute + 30_000, 2);
    await store.recordPosts([again]);
    expect(await store.listPosts(webhookId, POST_HISTORY_LIMIT)).toEqual(
      [...older.slice(1), ...newer, again].reverse(),
    );
  });

  it("two instances appending and folding at once take turns: no deadlock, no record lost, each writer's records in its order", async () => {
    const webhooks = Array.from({ length: 8 }, newWebhookId);
    const rounds = 20;
    const writers = { a: store, b: peer };
    let writing = true;
    const write = async (name: 'a' | 'b') => {
      for (let round = 0; round < rounds; round++)
        await writers[name].recordPosts(webhooks.map((webhookId) => stored(webhookId, T0 + round, `${name}-${round}`)));
    };
    // Readers on both instances fold all the while, several at once.
    const read = async (reader: PostgresStore) => {
      let reads = 0;
      while (writing || reads === 0) {
        await Promise.all(webhooks.slice(0, 4).map((webhookId) => reader.listPosts(webhookId, POST_HISTORY_LIMIT)));
        reads++;
      }
    };
    const readers = [read(store), read(peer), read(store)];
    await Promise.all([write('a'), write('b')]);
    writing = false;
    await Promise.all(readers);

    for (const webhookId of webhooks) {
      const keys = (await peer.listPosts(webhookId, POST_HISTORY_LIMIT)).map((record) => record.idempotencyKey!);
      expect(keys).toHaveLength(2 * rounds);
      for (const name of ['a', 'b'])
        expect(keys.filter((key) => key.startsWith(name))).toEqual(
          Array.from({ length: rounds }, (_, round) => `${name}-${rounds - 1 - round}`),
        );
    }
  });

  it('a fold that fails keeps the log as it was: the next fold moves every record, and recordPosts says its records were kept', async () => {
    const webhookId = newWebhookId();
    const writer = createPostgresStore({ pool: peerPool, tablePrefix: prefix });
    const records = Array.from({ length: FOLD_AT }, (_, i) => stored(webhookId, T0 + i));
    await pool.query(`CREATE FUNCTION ${prefix}refuse() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'chunks refused for the test'; END $$;
      CREATE TRIGGER ${prefix}refuse BEFORE INSERT ON ${prefix}post_chunks FOR EACH ROW EXECUTE FUNCTION ${prefix}refuse()`);
    try {
      await expect(writer.recordPosts(records)).rejects.toMatchObject({
        code: 'store_failed',
        message:
          'PostgreSQL store: recordPosts appended its records to the post log, but folding the log failed; the log keeps them for the next fold',
        cause: { code: 'store_failed', cause: { message: 'chunks refused for the test' } },
      });
      await expect(store.listPosts(webhookId, POST_HISTORY_LIMIT)).rejects.toMatchObject({
        code: 'store_failed',
        message: 'PostgreSQL store: listPosts failed: chunks refused for the test',
      });
      expect(await logged(webhookId)).toBe(FOLD_AT);
    } finally {
      await pool.query(`DROP TRIGGER ${prefix}refuse ON ${prefix}post_chunks; DROP FUNCTION ${prefix}refuse()`);
    }
    expect(await store.listPosts(webhookId, POST_HISTORY_LIMIT)).toEqual(records.slice(-POST_HISTORY_LIMIT).reverse());
    expect(await logged()).toBe(0);
  });
});
