import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createPostgresStore,
  POSTGRES_SCHEMA_VERSION,
  postgresMigrations,
  postgresSchema,
} from '../../../../adapters/stores/postgres/index.js';
import {
  createFakeClock,
  createMemoryRateLimiter,
  createWebhookHandler,
  type Message,
  type PostRecord,
} from '../../../../src/index.js';
import { generateSecret, generateWebhookId, hashSecret } from '../../../../src/secret/secret.js';
import { backends } from '../../../support/backends.js';

// A database made and filled by each schema version the package shipped, then upgraded in place by
// today's migrate(): what its senders and readers had must still work. The fixtures are those
// versions' DDL, copied from the package's history (test/fixtures/schemas/postgres/).

const { databaseUrl, title } = backends();
// 6 is the tables of the last release before versions were recorded; later versions are recorded.
const OLD_VERSIONS = [1, 2, 3, 4, 5, 6] as const;
const DAY = Date.UTC(2026, 10, 20);

const fixture = (version: number, prefix: string) =>
  readFileSync(new URL(`../../../fixtures/schemas/postgres/v${version}.sql`, import.meta.url), 'utf8').replaceAll(
    'channel_webhooks_',
    prefix,
  );

const uniquePrefix = (what: string) => `cwup_${what}_${randomUUID().slice(0, 8)}_`;

interface Credential {
  id: string;
  secret: string;
}

/** What an old version's code wrote, and what it must still give back. */
interface OldWorld {
  channelId: string;
  active: Credential;
  rotated: { id: string; oldSecret: string; newSecret: string };
  revoked: Credential;
  messages: Message[];
  keys: Map<string, Message>;
  history: PostRecord[];
}

describe.skipIf(databaseUrl === null)(
  title('PostgreSQL upgrades from every shipped schema version', 'postgres'),
  () => {
    let pool: pg.Pool;
    let peerPool: pg.Pool;

    beforeAll(() => {
      pool = new pg.Pool({ connectionString: databaseUrl!, max: 4 });
      peerPool = new pg.Pool({ connectionString: databaseUrl!, max: 2 });
    });
    afterAll(async () => {
      await Promise.all([pool?.end(), peerPool?.end()]);
    });

    /** Rows as the code of `version` wrote them: its columns only, keys and bodies as JSON text. */
    async function fillAsVersion(version: number, p: string): Promise<OldWorld> {
      const channelId = `c-${randomUUID()}`;
      await pool.query(`INSERT INTO ${p}channels (id, owner_id, archived) VALUES ($1, 'u-owner', false)`, [channelId]);
      const active = { id: generateWebhookId(), secret: generateSecret() };
      const rotated = { id: generateWebhookId(), oldSecret: generateSecret(), newSecret: generateSecret() };
      const revoked = { id: generateWebhookId(), secret: generateSecret() };
      const webhooks = [
        { id: active.id, name: 'Deploys', hash: hashSecret(active.secret), rotatedAt: null, revokedAt: null },
        {
          id: rotated.id,
          name: 'Alerts',
          hash: hashSecret(rotated.newSecret),
          rotatedAt: DAY + 5_000,
          revokedAt: null,
        },
        { id: revoked.id, name: 'Old CI', hash: hashSecret(revoked.secret), rotatedAt: null, revokedAt: DAY + 6_000 },
      ];
      for (const [i, webhook] of webhooks.entries()) {
        const columns = [
          'id',
          'channel_id',
          'name',
          'secret_hash',
          'created_by',
          'created_at',
          'rotated_at',
          'revoked_at',
        ];
        const values: unknown[] = [
          webhook.id,
          channelId,
          webhook.name,
          webhook.hash,
          'u-owner',
          DAY + i,
          webhook.rotatedAt,
          webhook.revokedAt,
        ];
        if (version >= 2) columns.push('last_post_at'), values.push(webhook.id === revoked.id ? null : DAY + 4_000);
        if (version >= 4 && webhook.id === active.id) columns.push('description'), values.push('Deploys of the API');
        await pool.query(
          `INSERT INTO ${p}webhooks (${columns.join(', ')}) VALUES (${values.map((_, n) => `$${n + 1}`).join(', ')})`,
          values,
        );
      }
      const sent = [
        { webhook: active.id, name: 'Deploys', text: 'deploy #1', key: 'deploy-1' },
        { webhook: active.id, name: 'Deploys', text: 'deploy #2', key: null },
        { webhook: rotated.id, name: 'Alerts', text: 'disk at 91%', key: 'alert-1' },
        { webhook: active.id, name: 'Deploys', text: 'deploy #3', key: 'deploy-3' },
        { webhook: revoked.id, name: 'Old CI', text: 'build green', key: 'build-7' },
      ];
      const messages: Message[] = [];
      const keys = new Map<string, Message>();
      for (const [i, one] of sent.entries()) {
        const message: Message = {
          id: randomUUID(),
          channelId,
          body: one.text,
          blocks: [],
          author: { type: 'webhook', id: one.webhook, name: one.name },
          createdAt: new Date(DAY + 1_000 + i).toISOString(),
        };
        await pool.query(
          `INSERT INTO ${p}messages (id, channel_id, webhook_id, author_name, body, blocks, created_at, idempotency_key)
         VALUES ($1, $2, $3, $4, $5::json, $6::json, $7::timestamptz, $8)`,
          [
            message.id,
            channelId,
            one.webhook,
            one.name,
            JSON.stringify(message.body),
            '[]',
            message.createdAt,
            one.key === null ? null : JSON.stringify(one.key),
          ],
        );
        messages.push(message);
        if (one.key !== null) keys.set(`${one.webhook} ${one.key}`, message);
      }
      const history: PostRecord[] = [];
      if (version >= 5) {
        const records: PostRecord[] = [
          {
            webhookId: active.id,
            at: DAY + 1_000,
            status: 201,
            code: null,
            errors: [],
            idempotencyKey: 'deploy-1',
            messageId: messages[0]!.id,
            bodyBytes: 21,
            count: 1,
          },
          {
            webhookId: active.id,
            at: DAY + 1_500,
            status: 400,
            code: 'invalid_payload',
            errors: [{ pointer: '/text', message: 'must be a string' }],
            idempotencyKey: null,
            messageId: null,
            bodyBytes: 10,
            count: 1,
          },
        ];
        for (const [position, record] of records.entries()) {
          await pool.query(
            `INSERT INTO ${p}posts (webhook_id, slot, position, at, status, code, errors, idempotency_key, message_id, body_bytes, count)
           VALUES ($1, $2, $3, $4, $5, $6, $7::json, $8, $9, $10, $11)`,
            [
              record.webhookId,
              position,
              position,
              record.at,
              record.status,
              record.code,
              JSON.stringify(record.errors),
              record.idempotencyKey === null ? null : JSON.stringify(record.idempotencyKey),
              record.messageId,
              record.bodyBytes,
              record.count,
            ],
          );
        }
        await pool.query(`INSERT INTO ${p}post_heads (webhook_id, next) VALUES ($1, 2)`, [active.id]);
        history.push(...records.reverse());
      }
      return { channelId, active, rotated, revoked, messages, keys, history };
    }

    /** Every column (and how it is stored), index, constraint and storage option of a prefix's tables, with the prefix taken out. */
    async function shape(p: string) {
      const like = `${p}%`;
      const strip = (text: string) => text.replaceAll(p, '<p>');
      const columns = await pool.query(
        `SELECT table_name, column_name, data_type, is_nullable, column_default, is_identity
       FROM information_schema.columns WHERE table_schema = current_schema() AND table_name LIKE $1
       ORDER BY table_name, ordinal_position`,
        [like],
      );
      const indexes = await pool.query(
        `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename LIKE $1 ORDER BY indexname`,
        [like],
      );
      const constraints = await pool.query(
        `SELECT c.conname, t.relname, pg_get_constraintdef(c.oid) AS def FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
       WHERE t.relname LIKE $1 AND t.relnamespace = current_schema()::regnamespace ORDER BY c.conname`,
        [like],
      );
      const options = await pool.query(
        `SELECT relname, reloptions FROM pg_class WHERE relname LIKE $1 AND relkind = 'r' AND relnamespace = current_schema()::regnamespace ORDER BY relname`,
        [like],
      );
      const storage = await pool.query(
        `SELECT c.relname, a.attname, a.attstorage FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
       WHERE c.relname LIKE $1 AND c.relkind = 'r' AND c.relnamespace = current_schema()::regnamespace AND a.attnum > 0 AND NOT a.attisdropped
       ORDER BY c.relname, a.attnum`,
        [like],
      );
      const migrations = await pool.query(`SELECT version, name FROM ${p}migrations ORDER BY version`);
      return JSON.parse(
        strip(
          JSON.stringify([columns.rows, indexes.rows, constraints.rows, options.rows, storage.rows, migrations.rows]),
        ),
      ) as unknown;
    }

    /** Checks a database filled by an old version, once upgraded, against what that version stored. */
    async function expectStillServing(p: string, world: OldWorld) {
      const store = createPostgresStore({ pool, tablePrefix: p });
      const handle = createWebhookHandler({
        store,
        rateLimiter: createMemoryRateLimiter(),
        clock: createFakeClock(DAY + 10_000),
      });
      const post = (credential: { id: string }, secret: string, payload: object, key?: string) =>
        handle({
          method: 'POST',
          url: `/hooks/channels/${credential.id}/${secret}`,
          headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { 'idempotency-key': key }) },
          body: JSON.stringify(payload),
        });

      const fresh = await post(world.active, world.active.secret, { text: 'after the upgrade' }, 'deploy-4');
      expect(fresh.status).toBe(201);

      for (const [webhookKey, message] of world.keys) {
        const [webhookId, key] = webhookKey.split(' ') as [string, string];
        if (webhookId === world.revoked.id) continue;
        const secret = webhookId === world.active.id ? world.active.secret : world.rotated.newSecret;
        const repeat = await post({ id: webhookId }, secret, { text: 'sent again' }, key);
        expect({ status: repeat.status, body: repeat.body }).toEqual({
          status: 200,
          body: { message, duplicate: true },
        });
      }

      const refused = [
        await post(world.rotated, world.rotated.oldSecret, { text: 'old secret' }),
        await post(world.revoked, world.revoked.secret, { text: 'revoked' }),
      ];
      expect(refused.map((answer) => answer.status)).toEqual([404, 404]);
      expect((await post(world.rotated, world.rotated.newSecret, { text: 'new secret' })).status).toBe(201);

      const feed = await store.readFeed!({ channelId: world.channelId, limit: 100 });
      const texts = feed.entries.map((entry) => entry.message.body);
      expect(feed.entries.map((entry) => entry.message).slice(0, world.messages.length)).toEqual(world.messages);
      expect(texts.slice(world.messages.length)).toEqual(['after the upgrade', 'new secret']);
      expect(await store.listMessages(world.channelId)).toEqual(feed.entries.map((entry) => entry.message));
      const later = await store.readFeed!({ channelId: world.channelId, after: feed.entries[1]!.cursor, limit: 100 });
      expect(later.entries.map((entry) => entry.message.id)).toEqual(feed.entries.slice(2).map((e) => e.message.id));

      // The handler records each answer to the active webhook off the answer's path, above the
      // records the old version kept: the fresh 201 and the two repeats' 200s.
      await vi.waitFor(async () =>
        expect(await store.listPosts(world.active.id, 100)).toHaveLength(3 + world.history.length),
      );
      const history = await store.listPosts(world.active.id, 100);
      expect(history.slice(0, 3).map((record) => [record.status, record.idempotencyKey])).toEqual([
        [200, 'deploy-3'],
        [200, 'deploy-1'],
        [201, 'deploy-4'],
      ]);
      expect(history.slice(3)).toEqual(world.history);
    }

    // Today's tables and records, as the published schema makes them: what every upgrade must reach.
    let current: unknown;
    beforeAll(async () => {
      const p = uniquePrefix('schema');
      await pool.query(postgresSchema({ tablePrefix: p }));
      current = await shape(p);
    });

    it('migrate() on an empty database makes the tables and records of postgresSchema(), and it again changes nothing', async () => {
      const p = uniquePrefix('fresh');
      const store = createPostgresStore({ pool, tablePrefix: p });
      await store.migrate();
      expect(await shape(p)).toEqual(current);
      await store.migrate();
      expect(await shape(p)).toEqual(current);
    });

    it('the steps of postgresMigrations(), run in order by a tool, make the same tables and records', async () => {
      const p = uniquePrefix('steps');
      const steps = postgresMigrations({ tablePrefix: p });
      expect(steps.map((step) => step.version)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(POSTGRES_SCHEMA_VERSION).toBe(7);
      for (const step of steps) await pool.query(step.sql);
      expect(await shape(p)).toEqual(current);
    });

    for (const version of OLD_VERSIONS) {
      it(`a database made and filled by version ${version} is upgraded in place and serves as before`, async () => {
        const p = uniquePrefix(`v${version}`);
        await pool.query(fixture(version, p));
        const world = await fillAsVersion(version, p);
        await createPostgresStore({ pool, tablePrefix: p }).migrate();
        expect(await shape(p)).toEqual(current);
        await expectStillServing(p, world);
      });

      if (version < 6) {
        it(`a database of version ${version} that each later release's migrate() ran over is upgraded too`, async () => {
          // Before versions were recorded, migrate() ran its release's CREATE … IF NOT EXISTS: over
          // older tables that adds later tables and indexes but no column.
          const p = uniquePrefix(`v${version}_later`);
          await pool.query(fixture(version, p));
          const world = await fillAsVersion(version, p);
          for (const later of OLD_VERSIONS.filter((v) => v > version && v < 6)) await pool.query(fixture(later, p));
          // Version 6's migrate() could not: its index on messages.tx met a table without the column.
          await expect(pool.query(fixture(6, p))).rejects.toThrow('column "tx" does not exist');
          await createPostgresStore({ pool, tablePrefix: p }).migrate();
          expect(await shape(p)).toEqual(current);
          await expectStillServing(p, world);
        });
      }
    }

    it('tables of a newer version are refused with schema_too_new, and left as they are', async () => {
      const p = uniquePrefix('newer');
      const store = createPostgresStore({ pool, tablePrefix: p });
      await store.migrate();
      const next = POSTGRES_SCHEMA_VERSION + 1;
      await pool.query(`INSERT INTO ${p}migrations (version, name) VALUES ($1, 'from_a_newer_release')`, [next]);
      const before = await shape(p);
      await expect(store.migrate()).rejects.toMatchObject({
        name: 'ChannelWebhookError',
        code: 'schema_too_new',
        message: `PostgreSQL store: the tables of prefix '${p}' are at schema version ${next}, newer than this release's ${POSTGRES_SCHEMA_VERSION}: upgrade channel-webhooks`,
      });
      expect(await shape(p)).toEqual(before);
    });

    it('two instances migrating one old database at once both succeed, and each step runs once', async () => {
      const p = uniquePrefix('race');
      await pool.query(fixture(1, p));
      const world = await fillAsVersion(1, p);
      const stores = [pool, peerPool].map((one) => createPostgresStore({ pool: one, tablePrefix: p }));
      await Promise.all(stores.map((store) => store.migrate()));
      const { rows } = await pool.query(
        `SELECT version, count(*)::int AS n FROM ${p}migrations GROUP BY version ORDER BY version`,
      );
      expect(rows).toEqual([1, 2, 3, 4, 5, 6, 7].map((version) => ({ version, n: 1 })));
      expect(await shape(p)).toEqual(current);
      await expectStillServing(p, world);
    });

    it('migrate() over version 6 tables that recorded no version records steps 1 to 6, runs step 7 alone, and again changes nothing', async () => {
      const p = uniquePrefix('again');
      await pool.query(fixture(6, p));
      await fillAsVersion(6, p);
      // Every table but the history's keeps its file: steps 1 to 6 are only recorded.
      const files = `SELECT relname, relfilenode FROM pg_class WHERE relname LIKE '${p}%' AND relname NOT LIKE '${p}migrations%' AND relname NOT LIKE '${p}post%' ORDER BY relname`;
      const before = (await pool.query(files)).rows;
      const store = createPostgresStore({ pool, tablePrefix: p });
      await store.migrate();
      expect((await pool.query(files)).rows).toEqual(before);
      const recorded = `SELECT version, applied_at FROM ${p}migrations ORDER BY version`;
      const steps = (await pool.query(recorded)).rows;
      expect(steps.map((row) => row.version)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(await shape(p)).toEqual(current);
      const all = `SELECT relname, relfilenode FROM pg_class WHERE relname LIKE '${p}%' ORDER BY relname`;
      const migrated = (await pool.query(all)).rows;
      await store.migrate();
      expect((await pool.query(all)).rows).toEqual(migrated);
      expect((await pool.query(recorded)).rows).toEqual(steps);
    });

    it('version 6 to 7: every ring, wrapped or not, reads the same after as before, and the minute of a moved 429 goes on counting', async () => {
      // A database of version 6 as the last release's migrate() left it (its steps recorded), its
      // rings written as that release wrote them: the record numbered n in slot n % 100, over the
      // one 100 records before it, and each webhook's head the count of its records.
      const p = uniquePrefix('v6_rings');
      for (const step of postgresMigrations({ tablePrefix: p }).slice(0, 6)) await pool.query(step.sql);
      const minute = DAY + 30 * 60_000;
      const rings = new Map<string, PostRecord[]>();
      for (const [i, total] of [250, 100, 37, 1].entries()) {
        const webhookId = generateWebhookId();
        const records = Array.from({ length: total }, (_, n): PostRecord => {
          const at = minute - total + n;
          if (n % 50 === 7)
            return {
              webhookId,
              at,
              status: 429,
              code: 'rate_limited',
              errors: [],
              idempotencyKey: null,
              messageId: null,
              bodyBytes: null,
              count: 3 + n,
            };
          if (n % 50 === 8)
            return {
              webhookId,
              at,
              status: 400,
              code: 'invalid_payload',
              errors: [{ pointer: `/\u0000${i}\uD800`, message: 'is not an allowed property' }],
              idempotencyKey: `key \u0000 \uD800 "${n}" 🚀`,
              messageId: null,
              bodyBytes: 10 + n,
              count: 1,
            };
          return {
            webhookId,
            at,
            status: 201,
            code: null,
            errors: [],
            idempotencyKey: n % 3 === 0 ? `deploy-${n}` : null,
            messageId: randomUUID(),
            bodyBytes: 20 + n,
            count: 1,
          };
        });
        records.push({
          webhookId,
          at: minute + 1,
          status: 429,
          code: 'rate_limited',
          errors: [],
          idempotencyKey: null,
          messageId: null,
          bodyBytes: null,
          count: 2,
        });
        for (const [position, record] of records.entries()) {
          await pool.query(
            `INSERT INTO ${p}posts (webhook_id, slot, position, at, status, code, errors, idempotency_key, message_id, body_bytes, count)
             VALUES ($1, $2, $3, $4, $5, $6, $7::json, $8, $9, $10, $11)
             ON CONFLICT (webhook_id, slot) DO UPDATE SET position = EXCLUDED.position, at = EXCLUDED.at, status = EXCLUDED.status,
               code = EXCLUDED.code, errors = EXCLUDED.errors, idempotency_key = EXCLUDED.idempotency_key,
               message_id = EXCLUDED.message_id, body_bytes = EXCLUDED.body_bytes, count = EXCLUDED.count`,
            [
              webhookId,
              position % 100,
              position,
              record.at,
              record.status,
              record.code,
              JSON.stringify(record.errors),
              record.idempotencyKey === null ? null : JSON.stringify(record.idempotencyKey),
              record.messageId,
              record.bodyBytes,
              record.count,
            ],
          );
        }
        await pool.query(`INSERT INTO ${p}post_heads (webhook_id, next) VALUES ($1, $2)`, [webhookId, records.length]);
        rings.set(webhookId, records.slice(-100).reverse());
      }

      await createPostgresStore({ pool, tablePrefix: p }).migrate();
      expect(await shape(p)).toEqual(current);
      const store = createPostgresStore({ pool: peerPool, tablePrefix: p });
      for (const [webhookId, newestFirst] of rings) expect(await store.listPosts(webhookId, 100)).toEqual(newestFirst);

      // The minute's next 429s are added to the record the ring had for it.
      for (const webhookId of rings.keys())
        await store.recordPosts([
          {
            webhookId,
            at: minute + 2,
            status: 429,
            code: 'rate_limited',
            errors: [],
            idempotencyKey: null,
            messageId: null,
            bodyBytes: null,
            count: 5,
          },
        ]);
      for (const [webhookId, newestFirst] of rings)
        expect(await store.listPosts(webhookId, 100)).toEqual([
          { ...newestFirst[0]!, count: 7 },
          ...newestFirst.slice(1),
        ]);
    });
  },
);
