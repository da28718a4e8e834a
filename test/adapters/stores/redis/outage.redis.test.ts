import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisRateLimiter } from '../../../../adapters/stores/redis/index.js';
import {
  createMemoryStore,
  createWebhookHandler,
  createWebhookManager,
  type ErrorContext,
  type WebhookHandler,
} from '../../../../src/index.js';
import { isCi } from '../../../support/global-setup.js';
import { serverBinaries, startRedis, type RedisServer } from '../../../support/servers.js';

// This file stops its own redis-server, so it never shares the run's server.
const { redis: binary, missing } = serverBinaries();
const skip = binary === null && !isCi();
const suite = skip ? `Redis outage (SKIPPED: ${missing.join('; ')})` : 'Redis outage';

describe.skipIf(skip)(suite, () => {
  let server: RedisServer;
  let client: Redis;
  let path: string;
  let allowing: WebhookHandler;
  let rejecting: WebhookHandler;
  const reported: Array<{ code: unknown; context: ErrorContext }> = [];

  beforeAll(async () => {
    server = await startRedis();
    // The options the README recommends: commands fail at once while Redis is away.
    client = new Redis(server.url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: 500,
      lazyConnect: true,
      retryStrategy: () => 100,
    });
    client.on('error', () => {});
    await client.connect();
    const store = createMemoryStore();
    await store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
    const { url } = await createWebhookManager({ store, baseUrl: 'https://chat.example.com' }).create(
      { userId: 'u1', role: 'member' },
      { channelId: 'general', name: 'Deploys' },
    );
    path = new URL(url).pathname;
    const rateLimiter = createRedisRateLimiter({ client, limit: 3, windowMs: 60_000, keyPrefix: 'cwtest:outage:' });
    const onError = (error: unknown, context: ErrorContext) =>
      reported.push({ code: (error as { code?: unknown }).code, context });
    allowing = createWebhookHandler({ store, rateLimiter, onError });
    rejecting = createWebhookHandler({ store, rateLimiter, onError, onRateLimiterError: 'reject' });
  });
  afterAll(async () => {
    client?.disconnect();
    await server?.destroy();
  });

  const post = (handle: WebhookHandler, text: string) =>
    handle({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text }),
    });
  const timed = async (handle: WebhookHandler, text: string) => {
    const started = Date.now();
    const response = await post(handle, text);
    return { response, ms: Date.now() - started };
  };

  it('counts posts while Redis is up', async () => {
    const first = await post(allowing, 'one');
    expect(first.status).toBe(201);
    expect(first.headers.ratelimit).toMatch(/^"default";r=2;t=\d+$/);
  });

  it('Redis down, by default: posts go on unthrottled at once and onError hears of it', async () => {
    await server.stop();
    reported.length = 0;
    for (const text of ['down 1', 'down 2', 'down 3', 'down 4']) {
      const { response, ms } = await timed(allowing, text);
      expect(response.status).toBe(201);
      expect(response.headers.ratelimit).toBeUndefined();
      expect(ms).toBeLessThan(1_500);
    }
    expect(reported).toHaveLength(4);
    for (const report of reported)
      expect(report).toMatchObject({ code: 'rate_limiter_failed', context: { stage: 'rate_limiter' } });
  });

  it("Redis down, with onRateLimiterError: 'reject': posts answer 500 at once", async () => {
    const { response, ms } = await timed(rejecting, 'rejected');
    expect(response.status).toBe(500);
    expect(response.headers['content-type']).toBe('application/problem+json');
    expect(response.body).toMatchObject({ status: 500, code: 'rate_limiter_failed' });
    expect(ms).toBeLessThan(1_500);
  });

  it('Redis back: the limit applies again', async () => {
    await server.start();
    await waitUntil(() => client.status === 'ready');
    // The restarted Redis kept nothing: three more are allowed, the fourth is refused.
    const statuses = [];
    for (const text of ['back 1', 'back 2', 'back 3', 'back 4']) statuses.push((await post(rejecting, text)).status);
    expect(statuses).toEqual([201, 201, 201, 429]);
  });
});

async function waitUntil(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
