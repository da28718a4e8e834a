import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStore } from '../../../../adapters/stores/postgres/index.js';
import {
  createFakeClock,
  createMemoryRateLimiter,
  createWebhookHandler,
  createWebhookManager,
} from '../../../../src/index.js';
import { backends } from '../../../support/backends.js';
import { retentionRecipes } from './recipes.js';

const { databaseUrl, title } = backends();
const prefix = 'cwtest_retention_';
const DAY = 86_400_000;

describe.skipIf(databaseUrl === null)(
  title('message retention: the hot table and a partitioned archive (docs/scaling.md)', 'postgres'),
  () => {
    let pool: pg.Pool;
    const recipe = retentionRecipes(prefix);
    const count = async (table: string, where = 'true') =>
      (await pool.query(`SELECT count(*)::int AS n FROM ${prefix}${table} WHERE ${where}`)).rows[0].n as number;
    // Batches of 7 until one moves nothing; a statement that never reports 0 rows fails, not hangs.
    const move = async (cutoff: number) => {
      let moved = 0;
      for (let batch = 0; batch < 100; batch++) {
        const { rowCount } = await pool.query(recipe.move!, [new Date(cutoff).toISOString(), 7]);
        if (rowCount === 0) return moved;
        moved += rowCount!;
      }
      throw new Error(`the move statement still reported rows after 100 batches (${moved} rows)`);
    };
    const partition = (month: string, from: string, to: string) =>
      pool.query(
        recipe
          .partition!.replaceAll('2026_01', month)
          .replace(/FROM \('[^']+'\) TO \('[^']+'\)/, `FROM ('${from}') TO ('${to}')`),
      );

    beforeAll(async () => {
      pool = new pg.Pool({ connectionString: databaseUrl!, max: 4 });
      for (const table of ['messages_archive', 'messages', 'webhooks', 'channels', 'feed', 'migrations'])
        await pool.query(`DROP TABLE IF EXISTS ${prefix}${table}`);
      await createPostgresStore({ pool, tablePrefix: prefix }).migrate();
      await pool.query(recipe.archive!);
    });
    afterAll(async () => {
      await pool?.end();
    });

    it('the page gives the four statements, written for the default prefix', () => {
      expect(Object.keys(recipe).sort()).toEqual(['archive', 'drop', 'move', 'partition']);
    });

    it("a message table partitioned by time cannot keep the store's idempotency key, and the store's insert fails on one that drops it", async () => {
      const direct = 'cwtest_retention_direct_';
      await pool.query(`DROP TABLE IF EXISTS ${direct}messages`);
      const table = (unique: string) => `CREATE TABLE ${direct}messages (
      seq bigint GENERATED ALWAYS AS IDENTITY, id text NOT NULL, channel_id text NOT NULL, webhook_id text NOT NULL,
      author_name text NOT NULL, body json NOT NULL, blocks json NOT NULL, created_at timestamptz NOT NULL,
      idempotency_key text, ${unique}) PARTITION BY RANGE (created_at)`;
      // PostgreSQL: a unique constraint on a partitioned table must include the partition key.
      await expect(pool.query(table('UNIQUE (webhook_id, idempotency_key)'))).rejects.toMatchObject({ code: '0A000' });
      await pool.query(table('UNIQUE (webhook_id, idempotency_key, created_at)'));
      await pool.query(`CREATE TABLE ${direct}messages_all PARTITION OF ${direct}messages DEFAULT`);
      // The store's ON CONFLICT (webhook_id, idempotency_key) then has no constraint to act on.
      await expect(
        pool.query(
          `INSERT INTO ${direct}messages (id, channel_id, webhook_id, author_name, body, blocks, created_at, idempotency_key)
         VALUES ('m1', 'c', 'w', 'n', '"x"', '[]', now(), '"k"') ON CONFLICT (webhook_id, idempotency_key) DO NOTHING`,
        ),
      ).rejects.toMatchObject({ code: '42P10' });
      await pool.query(`DROP TABLE ${direct}messages`);
    });

    it('over six days the store posts, deduplicates and lists on the hot table while older messages move to their month and a dropped month is gone', async () => {
      const clock = createFakeClock(Date.UTC(2026, 0, 29, 12));
      const store = createPostgresStore({ pool, tablePrefix: prefix });
      await store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
      const { url } = await createWebhookManager({ store, baseUrl: 'https://chat.example.com', clock }).create(
        { userId: 'u1', role: 'owner' },
        { channelId: 'general', name: 'Deploys' },
      );
      const path = new URL(url).pathname;
      const handle = createWebhookHandler({ store, clock, rateLimiter: createMemoryRateLimiter({ limit: 1_000 }) });
      const post = async (text: string, key?: string) => {
        const body = new TextEncoder().encode(JSON.stringify({ text }));
        const headers: Record<string, string> = {
          'content-type': 'application/json',
          'content-length': String(body.byteLength),
        };
        if (key !== undefined) headers['idempotency-key'] = key;
        const answer = await handle({ method: 'POST', url: path, headers, body: async () => body });
        return { status: answer.status, id: (answer.body as { message: { id: string } }).message.id };
      };
      await partition('2026_01', '2026-01-01 00:00:00+00', '2026-02-01 00:00:00+00');
      await partition('2026_02', '2026-02-01 00:00:00+00', '2026-03-01 00:00:00+00');

      const perDay = 12;
      const hotWindow = 2 * DAY;
      const firstOfDay: Array<{ key: string; id: string }> = [];
      for (let day = 0; day < 6; day++) {
        for (let i = 0; i < perDay; i++) {
          const answer = await post(`day ${day} message ${i}`, i % 4 === 0 ? `day-${day}-${i}` : undefined);
          expect(answer.status).toBe(201);
          if (i === 0) firstOfDay.push({ key: `day-${day}-0`, id: answer.id });
          clock.advance(60_000);
        }
        // A retry within the hot window answers with the first message.
        expect(await post('again', `day-${day}-0`)).toEqual({ status: 200, id: firstOfDay[day]!.id });
        await move(clock.now() - hotWindow);
        // Bounded: the hot table holds at most the window's messages, whatever the days before.
        expect(await count('messages')).toBeLessThanOrEqual(3 * perDay);
        expect(await count('messages', `created_at < '${new Date(clock.now() - hotWindow).toISOString()}'`)).toBe(0);
        clock.advance(DAY - perDay * 60_000);
      }
      // Nothing lost, nothing stored twice: every message is in exactly one of the two tables.
      expect((await count('messages')) + (await count('messages_archive'))).toBe(6 * perDay);
      expect(await count('messages_archive', 'id IN (SELECT id FROM cwtest_retention_messages)')).toBe(0);
      // Each moved message sits in the partition of its month (the days run from 29 January).
      expect(await count('messages_2026_01')).toBe(3 * perDay);
      expect(await count('messages_2026_02')).toBe(await count('messages_archive', `created_at >= '2026-02-01'`));
      // listMessages reads the hot table: the window's messages, oldest first.
      const listed = await store.listMessages('general');
      expect(listed.length).toBe(await count('messages'));
      expect(listed.map((message) => message.createdAt)).toEqual(listed.map((message) => message.createdAt).sort());
      // The documented cost: a key whose message was archived is free again.
      expect((await post('late retry', 'day-0-0')).status).toBe(201);

      // Retention: dropping January removes its messages at once and leaves the rest.
      const before = await count('messages_archive');
      await pool.query(recipe.drop!);
      expect(await count('messages_archive')).toBe(before - 3 * perDay);
      expect(await count('messages_archive', `created_at < '2026-02-01'`)).toBe(0);
    });

    it('a batch whose month has no partition fails whole and leaves every row in the hot table', async () => {
      const store = createPostgresStore({ pool, tablePrefix: prefix });
      await store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
      // A message from December 2025, for which no partition exists, next to an archivable one.
      await pool.query(
        `INSERT INTO ${prefix}messages (id, channel_id, webhook_id, author_name, body, blocks, created_at)
       VALUES ('dec-1', 'general', 'wh_x', 'n', '"old"', '[]', '2025-12-30T00:00:00Z'), ('feb-1', 'general', 'wh_x', 'n', '"newer"', '[]', '2026-02-02T00:00:00Z')`,
      );
      await expect(pool.query(recipe.move!, ['2026-02-10T00:00:00Z', 10_000])).rejects.toMatchObject({ code: '23514' });
      expect(await count('messages', `id IN ('dec-1', 'feb-1')`)).toBe(2);
      expect(await count('messages_archive', `id IN ('dec-1', 'feb-1')`)).toBe(0);
    });
  },
);
