import { existsSync } from 'node:fs';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStore } from '../../../../adapters/stores/postgres/index.js';
import { createWebhookHandler, createWebhookManager } from '../../../../src/index.js';
import { backends } from '../../../support/backends.js';
import { isCi } from '../../../support/global-setup.js';
import { PGBOUNCER, type PgbouncerServer, startPgbouncer } from '../../../support/servers.js';

// The advice of docs/stores.md for PgBouncer in transaction mode, against a real one: node-postgres
// sends a pool's `statement_timeout` as a startup parameter, which PgBouncer refuses; listed in its
// `ignore_startup_parameters` it is dropped, so no timeout applies; set on the server for the role
// (here for the role in a database of the test's own), every session gets it, through PgBouncer too.
const { databaseUrl, title } = backends();
const missing = existsSync(PGBOUNCER) ? null : `PgBouncer not found at ${PGBOUNCER} (apt-get install pgbouncer)`;
if (missing !== null && isCi()) throw new Error(`CI needs PgBouncer: ${missing}`);

const DATABASE = 'cwtest_pgbouncer';

describe.skipIf(databaseUrl === null || missing !== null)(
  title(`the store behind PgBouncer in transaction mode${missing ? ` (SKIPPED: ${missing})` : ''}`, 'postgres'),
  () => {
    const pools: pg.Pool[] = [];
    let bouncer: PgbouncerServer | undefined;
    afterEach(async () => {
      await Promise.all(pools.splice(0).map((pool) => pool.end()));
      await bouncer?.destroy();
      bouncer = undefined;
    });

    beforeAll(async () => {
      const admin = new pg.Client({ connectionString: databaseUrl! });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${DATABASE}`).catch((error: { code?: string }) => {
          if (error.code !== '42P04') throw error;
        });
        await admin.query(`ALTER ROLE postgres IN DATABASE ${DATABASE} SET statement_timeout = '300ms'`);
      } finally {
        await admin.end();
      }
    });
    afterAll(async () => {
      const admin = new pg.Client({ connectionString: databaseUrl! });
      await admin.connect();
      await admin.query(`ALTER ROLE postgres IN DATABASE ${DATABASE} RESET statement_timeout`);
      await admin.end();
    });

    const through = async (settings: string[], poolOptions: pg.PoolConfig = {}) => {
      bouncer = await startPgbouncer(databaseUrl!, ['pool_mode = transaction', ...settings]);
      const pool = new pg.Pool({ connectionString: bouncer.url(DATABASE), max: 2, ...poolOptions });
      pool.on('error', () => undefined);
      pools.push(pool);
      return pool;
    };
    const statementTimeout = async (pool: pg.Pool) =>
      ((await pool.query('SHOW statement_timeout')).rows[0] as { statement_timeout: string }).statement_timeout;

    it('refuses every connection of a pool given statement_timeout: PgBouncer takes no such startup parameter', async () => {
      const pool = await through([], { statement_timeout: 5_000 });
      await expect(pool.query('SELECT 1')).rejects.toThrow('unsupported startup parameter: statement_timeout');
    });

    it("with statement_timeout in ignore_startup_parameters, connects but drops it: what applies is the role's", async () => {
      const pool = await through(['ignore_startup_parameters = statement_timeout'], { statement_timeout: 5_000 });
      expect(await statementTimeout(pool)).toBe('300ms');
    });

    it("applies the role's statement_timeout to every statement through it, and the store posts with preparedStatements: false", async () => {
      const pool = await through([]);
      expect(await statementTimeout(pool)).toBe('300ms');
      await expect(pool.query('SELECT pg_sleep(1)')).rejects.toMatchObject({ code: '57014' });

      const store = createPostgresStore({ pool, tablePrefix: 'cwtest_bouncer_', preparedStatements: false });
      await store.migrate();
      await store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
      const { webhook, url } = await createWebhookManager({ store, baseUrl: 'http://127.0.0.1' }).create(
        { userId: 'u1', role: 'member' },
        { channelId: 'general', name: 'CI' },
      );
      const handle = createWebhookHandler({ store });
      const post = () =>
        handle({
          method: 'POST',
          url: new URL(url).pathname,
          headers: { 'content-type': 'application/json', 'idempotency-key': 'deploy-42' },
          body: JSON.stringify({ text: 'Deploy 42 finished' }),
        });
      const first = await post();
      expect(first.status).toBe(201);
      const again = await post();
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ duplicate: true });
      // The history of both, written by the recorder on a later tick through PgBouncer too.
      await expect
        .poll(async () => (await store.listPosts(webhook.id, 10)).map((record) => record.status))
        .toEqual([200, 201]);
    });
  },
);
