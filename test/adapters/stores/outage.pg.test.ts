import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStore, type PostgresStore } from '../../../adapters/stores/postgres/index.js';
import {
  createMemoryRateLimiter,
  createWebhookHandler,
  createWebhookManager,
  type WebhookHandler,
} from '../../../src/index.js';
import { isCi } from '../../support/global-setup.js';
import { serverBinaries, startPostgres, type PostgresServer } from '../../support/servers.js';

// This file stops and freezes its own PostgreSQL, so it never shares the run's server.
const { postgres: binaries, missing } = serverBinaries();
const skip = binaries === null && !isCi();
const suite = skip ? `PostgreSQL outage (SKIPPED: ${missing.join('; ')})` : 'PostgreSQL outage';
const DEADLINE_MS = 1_000;

describe.skipIf(skip)(suite, () => {
  let server: PostgresServer;
  let pool: pg.Pool;
  let store: PostgresStore;
  let handle: WebhookHandler;
  let path: string;
  const reported: Array<{ code: unknown; stage: string }> = [];

  beforeAll(async () => {
    server = await startPostgres();
    pool = new pg.Pool({
      connectionString: server.url,
      statement_timeout: DEADLINE_MS,
      connectionTimeoutMillis: DEADLINE_MS,
    });
    // Idle connections die with the server; without a listener the pool would crash the process.
    pool.on('error', () => {});
    store = createPostgresStore({ pool, tablePrefix: 'cwtest_outage_', timeoutMs: DEADLINE_MS });
    await store.migrate();
    await store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
    const manager = createWebhookManager({ store, baseUrl: 'https://chat.example.com' });
    const { url } = await manager.create({ userId: 'u1', role: 'member' }, { channelId: 'general', name: 'Deploys' });
    path = new URL(url).pathname;
    handle = createWebhookHandler({
      store,
      rateLimiter: createMemoryRateLimiter({ limit: 1_000 }),
      storeTimeoutMs: DEADLINE_MS * 2,
      onError: (error, context) => reported.push({ code: (error as { code?: unknown }).code, stage: context.stage }),
    });
  });
  afterAll(async () => {
    await pool?.end();
    await server?.destroy();
  });

  const post = (text: string, key: string) =>
    handle({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify({ text }),
    });
  const timed = async (text: string, key: string) => {
    const started = Date.now();
    const response = await post(text, key);
    return { response, ms: Date.now() - started };
  };
  const messagesWithKey = async (text: string) =>
    (await store.listMessages('general')).filter((message) => message.body === text);

  it('a stopped database answers 500 within seconds; after a restart a retry with the same key stores the message once', async () => {
    expect((await post('warm-up', 'warm-up')).status).toBe(201);
    await server.stop();

    for (const attempt of [1, 2]) {
      const { response, ms } = await timed('stopped', 'evt-stopped');
      expect(response.status, `attempt ${attempt}`).toBe(500);
      expect(response.headers['content-type']).toBe('application/problem+json');
      expect(response.body).toMatchObject({ status: 500, code: 'store_failed' });
      expect(ms).toBeLessThan(3_000);
    }
    expect(reported.at(-1)).toEqual({ code: 'store_failed', stage: 'store' });

    await server.start();
    const retried = await post('stopped', 'evt-stopped');
    expect(retried.status).toBe(201);
    const again = await post('stopped, again', 'evt-stopped');
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ message: (retried.body as { message: unknown }).message, duplicate: true });
    expect(await messagesWithKey('stopped')).toHaveLength(1);
  });

  it('a hung database answers 500 at the store deadline; once it answers, a retry stores the message once', async () => {
    server.pause();
    try {
      const { response, ms } = await timed('hung', 'evt-hung');
      expect(response.status).toBe(500);
      expect(response.body).toMatchObject({ status: 500, code: 'store_failed' });
      expect(ms).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
      expect(ms).toBeLessThan(DEADLINE_MS * 2 + 1_000);
      expect(reported.at(-1)).toEqual({ code: 'store_timeout', stage: 'store' });
    } finally {
      server.resume();
    }
    const retried = await post('hung', 'evt-hung');
    expect(retried.status).toBe(201);
    expect((await post('hung', 'evt-hung')).status).toBe(200);
    expect(await messagesWithKey('hung')).toHaveLength(1);
  });
});
