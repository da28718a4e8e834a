import { existsSync } from 'node:fs';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStore } from '../../../../adapters/stores/postgres/index.js';
import { createRedisFeedNotifier } from '../../../../adapters/stores/redis/index.js';
import { createWebhookHandler, createWebhookManager, followFeed } from '../../../../src/index.js';
import { backends } from '../../../support/backends.js';
import { isCi } from '../../../support/global-setup.js';
import {
  PGBOUNCER,
  type PgbouncerServer,
  type RedisServer,
  serverBinaries,
  startPgbouncer,
  startRedis,
} from '../../../support/servers.js';
import { followTwoInstances } from '../feed-notifier-run.js';

// Two instances that reach PostgreSQL only through PgBouncer in transaction mode, where LISTEN hears
// nothing: their feeds wake through a Redis of the test's own (so that it can be restarted), which
// goes away and comes back while the posts go on.
const { databaseUrl, title } = backends();
const missing = [
  existsSync(PGBOUNCER) ? null : `PgBouncer not found at ${PGBOUNCER} (apt-get install pgbouncer)`,
  serverBinaries().redis === null ? 'redis-server not on PATH (apt-get install redis-server)' : null,
].filter((line) => line !== null);
if (missing.length > 0 && isCi()) throw new Error(`CI needs: ${missing.join('; ')}`);

const DATABASE = 'cwtest_notifier';
const PREFIX = 'cwtest_notifier_';

describe.skipIf(databaseUrl === null || missing.length > 0)(
  title(
    `two PostgreSQL stores behind PgBouncer, woken through Redis${missing.length > 0 ? ` (SKIPPED: ${missing.join('; ')})` : ''}`,
    'postgres',
  ),
  () => {
    let bouncer: PgbouncerServer;
    let redis: RedisServer;
    const pools: pg.Pool[] = [];
    const clients: Redis[] = [];

    beforeAll(async () => {
      const admin = new pg.Client({ connectionString: databaseUrl! });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${DATABASE}`).catch((error: { code?: string }) => {
          if (error.code !== '42P04') throw error;
        });
      } finally {
        await admin.end();
      }
      [bouncer, redis] = await Promise.all([startPgbouncer(databaseUrl!, ['pool_mode = transaction']), startRedis()]);
    });
    afterAll(async () => {
      for (const client of clients) client.disconnect();
      await Promise.all(pools.map((pool) => pool.end()));
      await Promise.all([bouncer?.destroy(), redis?.destroy()]);
    });

    const instance = (errors: unknown[], feedPollMs: number) => {
      const pool = new pg.Pool({ connectionString: bouncer.url(DATABASE), max: 4 });
      pool.on('error', () => undefined);
      pools.push(pool);
      // Fails fast while Redis is away, as the rate limiter's client is advised to.
      const client = new Redis(redis.url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
      client.on('error', () => undefined);
      clients.push(client);
      return createPostgresStore({
        pool,
        tablePrefix: PREFIX,
        preparedStatements: false,
        notifier: createRedisFeedNotifier({ client }),
        feedPollMs,
        onError: (error) => errors.push(error),
      });
    };

    // The poll is left out (a minute): what the followers get comes through the notifier, and after
    // the restart from the read each does once the notifier subscribed again.
    it('200 posts reach a follower on each instance, every message once and in one order, through a Redis restart', async () => {
      const errors: unknown[] = [];
      const a = instance(errors, 60_000);
      const b = instance(errors, 60_000);
      await a.migrate();
      const run = await followTwoInstances([a, b], (id) => a.putChannel({ id, ownerId: 'u1', archived: false }), {
        posts: 200,
        steps: [
          [100, () => redis.stop()],
          [150, () => redis.start()],
        ],
      });
      const [onA, onB] = run.followed.map((entries) => entries.map((entry) => entry.message.id));
      expect(onA).toHaveLength(200);
      expect(new Set(onA)).toEqual(new Set(run.stored));
      expect(onB).toEqual(onA);
      expect(run.followed[1].map((entry) => entry.cursor)).toEqual(run.followed[0].map((entry) => entry.cursor));
      // The outage was told to onError, as the notifier's own code.
      expect(errors).toContainEqual(expect.objectContaining({ code: 'feed_notifier_failed' }));
    }, 60_000);

    it('while Redis is down, a follower hears the other instance by the bounded poll, and the outage is reported', async () => {
      const errors: unknown[] = [];
      const a = instance(errors, 100);
      const b = instance(errors, 100);
      await a.migrate();
      const channelId = `c_${Date.now()}`;
      await a.putChannel({ id: channelId, ownerId: 'u1', archived: false });
      const stop = new AbortController();
      const heard: string[] = [];
      const following = (async () => {
        for await (const entry of followFeed(b, { channelId, signal: stop.signal })) heard.push(entry.message.id);
      })();
      await redis.stop();
      try {
        await expect.poll(() => errors.length).toBeGreaterThan(0);
        const manager = createWebhookManager({ store: a, baseUrl: 'http://127.0.0.1' });
        const { url } = await manager.create({ userId: 'u1', role: 'member' }, { channelId, name: 'CI' });
        const answer = await createWebhookHandler({ store: a })({
          method: 'POST',
          url: new URL(url).pathname,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ text: 'while Redis is down' }),
        });
        expect(answer.status).toBe(201);
        const { id } = (answer.body as { message: { id: string } }).message;
        await expect.poll(() => heard, { timeout: 2_000 }).toEqual([id]);
        expect(errors[0]).toMatchObject({ code: 'feed_notifier_failed' });
      } finally {
        stop.abort();
        await following;
        await redis.start();
      }
    });
  },
);
