import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStore, type PostgresQuery } from '../../../adapters/stores/postgres/index.js';
import { createRedisRateLimiter, type RedisSendCommand } from '../../../adapters/stores/redis/index.js';
import { createWebhookHandler, createWebhookManager } from '../../../src/index.js';
import { backends } from '../../support/backends.js';

const { databaseUrl, redisUrl, title } = backends();

describe.skipIf(databaseUrl === null || redisUrl === null)(
  title('round trips per post through the handler', 'both'),
  () => {
    let pool: pg.Pool;
    let client: Redis;
    const sql: string[] = [];
    const redis: string[] = [];

    beforeAll(async () => {
      pool = new pg.Pool({ connectionString: databaseUrl! });
      client = new Redis(redisUrl!, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true });
      await client.connect();
    });
    afterAll(async () => {
      await pool?.end();
      client?.disconnect();
    });

    it('an accepted post costs two PostgreSQL queries and one Redis command on its path, and one history statement after; a duplicate the same', async () => {
      // The post history is written after the answer, in batches (src/history), appended to the
      // store's post log: counted apart.
      const history: string[] = [];
      const counting = {
        query: (query: PostgresQuery) => {
          (query.text.includes('post_log') ? history : sql).push(query.text.trim().split(/\s+/)[0]!);
          return pool.query(query);
        },
      };
      const store = createPostgresStore({ pool: counting, tablePrefix: 'cwtest_round_trips_' });
      await store.migrate();
      await store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
      const { url } = await createWebhookManager({ store, baseUrl: 'https://chat.example.com' }).create(
        { userId: 'u1', role: 'member' },
        { channelId: 'general', name: 'Deploys' },
      );
      const sendCommand: RedisSendCommand = ([command, ...rest]) => (
        redis.push(command), client.call(command, ...rest)
      );
      const rateLimiter = createRedisRateLimiter({ sendCommand, keyPrefix: 'cwtest:rt:' });
      // Load the script once, so the count below is the steady state.
      await rateLimiter.hit('warm', 0);
      const handle = createWebhookHandler({ store, rateLimiter });
      const post = () =>
        handle({
          method: 'POST',
          url: new URL(url).pathname,
          headers: { 'content-type': 'application/json', 'idempotency-key': 'once' },
          body: '{"text":"Deploy finished"}',
        });

      const afterTheBatch = () => new Promise((resolve) => setTimeout(resolve, 200));
      sql.length = 0;
      redis.length = 0;
      history.length = 0;
      expect((await post()).status).toBe(201);
      expect(sql).toEqual(['SELECT', 'WITH']);
      expect(redis).toEqual(['EVALSHA']);
      await afterTheBatch();
      expect(history).toEqual(['INSERT']);

      sql.length = 0;
      redis.length = 0;
      history.length = 0;
      expect((await post()).status).toBe(200);
      expect(sql).toEqual(['SELECT', 'WITH']);
      expect(redis).toEqual(['EVALSHA']);
      await afterTheBatch();
      expect(history).toEqual(['INSERT']);
    });
  },
);
