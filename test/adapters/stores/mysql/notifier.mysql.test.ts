import { Redis } from 'ioredis';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMysqlStore } from '../../../../adapters/stores/mysql/index.js';
import { createRedisFeedNotifier } from '../../../../adapters/stores/redis/index.js';
import { backends } from '../../../support/backends.js';
import { isCi } from '../../../support/global-setup.js';
import { type RedisServer, serverBinaries, startRedis } from '../../../support/servers.js';
import { followTwoInstances } from '../feed-notifier-run.js';

// Two instances on one MariaDB whose feeds wake through a Redis of the test's own (so that it can be
// restarted), which goes away and comes back while the posts go on. The store's check of the feed's
// counter is left out (a minute): what the followers get comes through the notifier, and after the
// restart from the read each does once the notifier subscribed again.
const { mysqlUrl, title } = backends();
const missing = serverBinaries().redis === null ? 'redis-server not on PATH (apt-get install redis-server)' : null;
if (missing !== null && isCi()) throw new Error(`CI needs ${missing}`);

describe.skipIf(mysqlUrl === null || missing !== null)(
  title(`two MySQL stores woken through Redis${missing === null ? '' : ` (SKIPPED: ${missing})`}`, 'mysql'),
  () => {
    let redis: RedisServer;
    const pools: mysql.Pool[] = [];
    const clients: Redis[] = [];

    beforeAll(async () => {
      redis = await startRedis();
    });
    afterAll(async () => {
      for (const client of clients) client.disconnect();
      await Promise.all(pools.map((pool) => pool.end()));
      await redis?.destroy();
    });

    const instance = (errors: unknown[]) => {
      const pool = mysql.createPool({ uri: mysqlUrl!, connectionLimit: 4 });
      pools.push(pool);
      // Fails fast while Redis is away, as the rate limiter's client is advised to.
      const client = new Redis(redis.url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
      client.on('error', () => undefined);
      clients.push(client);
      return createMysqlStore({
        pool,
        tablePrefix: 'cwtest_notifier_',
        feedCheckMs: 60_000,
        notifier: createRedisFeedNotifier({ client }),
        onError: (error) => errors.push(error),
      });
    };

    it('200 posts reach a follower on each instance, every message once and in one order, through a Redis restart', async () => {
      const errors: unknown[] = [];
      const a = instance(errors);
      const b = instance(errors);
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
      expect(errors).toContainEqual(expect.objectContaining({ code: 'feed_notifier_failed' }));
    }, 60_000);
  },
);
