import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStore, type PostgresStore } from '../../adapters/stores/postgres/index.js';
import { createRedisRateLimiter } from '../../adapters/stores/redis/index.js';
import {
  createWebhookHandler,
  createWebhookManager,
  type ErrorContext,
  type Message,
  type WebhookHandler,
} from '../../src/index.js';
import { isCi } from '../support/global-setup.js';
import {
  serverBinaries,
  startPostgres,
  startRedis,
  type PostgresServer,
  type RedisServer,
} from '../support/servers.js';
import { delay } from './support.js';

// This file stops and restarts its own PostgreSQL and Redis, so it never shares the run's servers.
const { postgres, redis, missing } = serverBinaries();
const skip = (postgres === null || redis === null) && !isCi();
const suite = skip
  ? `restarts under load (SKIPPED: ${missing.join('; ')})`
  : 'PostgreSQL and Redis restarts under load';
const SENDERS = 8;

describe.skipIf(skip)(suite, () => {
  let database: PostgresServer;
  let cache: RedisServer;
  let pool: pg.Pool;
  let client: Redis;
  let store: PostgresStore;
  let handle: WebhookHandler;
  let path: string;
  const reported: ErrorContext['stage'][] = [];

  beforeAll(async () => {
    [database, cache] = await Promise.all([startPostgres(), startRedis()]);
    pool = new pg.Pool({
      connectionString: database.url,
      max: 6,
      statement_timeout: 1_000,
      connectionTimeoutMillis: 1_000,
    });
    pool.on('error', () => {});
    store = createPostgresStore({ pool, tablePrefix: 'cwtest_restart_', timeoutMs: 1_000 });
    await store.migrate();
    await store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
    const { url } = await createWebhookManager({ store, baseUrl: 'https://chat.example.com' }).create(
      { userId: 'u1', role: 'member' },
      { channelId: 'general', name: 'Load' },
    );
    path = new URL(url).pathname;
    client = new Redis(cache.url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: 500,
      lazyConnect: true,
      retryStrategy: () => 100,
    });
    client.on('error', () => {});
    await client.connect();
    handle = createWebhookHandler({
      store,
      rateLimiter: createRedisRateLimiter({ client, limit: 1_000_000, keyPrefix: 'cwtest:restart:' }),
      storeTimeoutMs: 2_000,
      rateLimiterTimeoutMs: 500,
      onError: (_error, context) => reported.push(context.stage),
    });
  });

  afterAll(async () => {
    client?.disconnect();
    await pool?.end();
    await Promise.all([database?.destroy(), cache?.destroy()]);
  });

  // Rule: senders that keep retrying each event with its key through a database restart and a
  // Redis restart end with exactly one stored message per event, and every 201 and 200 they saw
  // names that message; while Redis is away posts go on unthrottled.
  it('every event is stored exactly once across a PostgreSQL and a Redis restart', async () => {
    const statuses = new Map<number, number>();
    const answered = new Map<string, Message[]>();
    let loading = true;

    const sender = async (id: number) => {
      for (let n = 0; loading || n === 0; n++) {
        const key = `evt-${id}-${n}`;
        const started = Date.now();
        for (;;) {
          const response = await handle({
            method: 'POST',
            url: path,
            headers: { 'content-type': 'application/json', 'idempotency-key': key },
            body: JSON.stringify({ text: key }),
          });
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          expect([200, 201, 500]).toContain(response.status);
          if (response.status < 300) {
            answered.set(key, [...(answered.get(key) ?? []), (response.body as { message: Message }).message]);
            break;
          }
          expect(Date.now() - started, `event ${key} never stored`).toBeLessThan(30_000);
          await delay(50);
        }
      }
    };

    const chaos = async () => {
      await delay(800);
      await database.stop();
      await delay(1_200);
      await database.start();
      await delay(800);
      await cache.stop();
      await delay(1_000);
      await cache.start();
      await delay(800);
      loading = false;
    };

    await Promise.all([chaos(), ...Array.from({ length: SENDERS }, (_, id) => sender(id))]);

    expect(statuses.get(500) ?? 0, 'the database outage was seen').toBeGreaterThan(0);
    expect(reported).toContain('store');
    expect(reported).toContain('rate_limiter');
    const messages = await store.listMessages('general');
    const byBody = new Map<string, Message[]>();
    for (const message of messages) byBody.set(message.body, [...(byBody.get(message.body) ?? []), message]);
    expect([...byBody.values()].filter((list) => list.length > 1)).toEqual([]);
    expect(messages).toHaveLength(answered.size);
    for (const [key, seen] of answered) {
      const [stored] = byBody.get(key) ?? [];
      expect(stored, `${key} answered but not stored`).toBeDefined();
      for (const message of seen) expect(message.id).toBe(stored!.id);
    }
  }, 90_000);
});
