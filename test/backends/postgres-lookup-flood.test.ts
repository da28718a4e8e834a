import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStore, type PostgresQuery, type PostgresStoreOptions } from '../../adapters/postgres/index.js';
import { createMemoryRateLimiter, createWebhookHandler, createWebhookManager } from '../../src/index.js';
import { randomId } from '../../src/testing/fixtures.js';
import { backends } from '../support/backends.js';

const { databaseUrl, title } = backends();
const tablePrefix = 'cwtest_lookup_flood_';

/** A pool that answers every query after `ms` and records how many ran at once. */
function slowPool(ms: number) {
  const seen = { running: 0, most: 0, queries: 0 };
  const pool = {
    async query(_query: PostgresQuery) {
      seen.queries++;
      seen.running++;
      seen.most = Math.max(seen.most, seen.running);
      await new Promise((resolve) => setTimeout(resolve, ms));
      seen.running--;
      return { rows: [] };
    },
  };
  return { pool, seen };
}

describe('webhook lookups are bounded per store', () => {
  it('at most maxConcurrentLookups run, maxQueuedLookups wait, the rest fail at once with store_failed', async () => {
    const { pool, seen } = slowPool(100);
    const store = createPostgresStore({ pool, maxConcurrentLookups: 2, maxQueuedLookups: 3 });
    const started = Date.now();
    const settled = Array.from({ length: 10 }, () =>
      store.getWebhook(`wh_${randomId()}`).then(
        (value) => ({ value, at: Date.now() - started }),
        (error: unknown) => ({ error, at: Date.now() - started }),
      ),
    );
    const results = await Promise.all(settled);
    const failed = results.filter((result) => 'error' in result);
    expect(results.filter((result) => 'value' in result && result.value === null)).toHaveLength(5);
    expect(failed).toHaveLength(5);
    for (const result of failed) {
      expect((result as { error: unknown }).error).toMatchObject({ name: 'ChannelWebhookError', code: 'store_failed' });
      expect(result.at).toBeLessThan(50);
    }
    expect(seen.most).toBe(2);
    expect(seen.queries).toBe(5);
  });

  it('a freed slot goes to the oldest waiter, and the gate recovers after a burst', async () => {
    const { pool, seen } = slowPool(20);
    const store = createPostgresStore({ pool, maxConcurrentLookups: 1, maxQueuedLookups: 1 });
    const order: number[] = [];
    await Promise.allSettled([0, 1, 2].map((i) => store.getWebhook(`wh_${i}`).then(() => order.push(i))));
    expect(order).toEqual([0, 1]);
    await expect(store.getWebhook('wh_later')).resolves.toBeNull();
    expect(seen.most).toBe(1);
  });

  it('inserts and other calls are not gated: only getWebhook, the one call a stranger can trigger', async () => {
    const { pool, seen } = slowPool(50);
    const store = createPostgresStore({ pool, maxConcurrentLookups: 1, maxQueuedLookups: 0 });
    await Promise.all(Array.from({ length: 4 }, () => store.listWebhooks('c')));
    expect(seen.most).toBe(4);
  });
});

describe.skipIf(databaseUrl === null)(title('a flood of unknown webhook ids through the handler', 'postgres'), () => {
  let pool: pg.Pool;

  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: databaseUrl!, max: 4 });
    await createPostgresStore({ pool, tablePrefix }).migrate();
  });
  afterAll(async () => {
    await pool?.end();
  });

  /** Floods `flood` posts to random unknown ids while one sender posts `legit` times in a row. */
  const run = async (gate: Pick<PostgresStoreOptions, 'maxConcurrentLookups' | 'maxQueuedLookups'>, flood: number, legit: number) => {
    const store = createPostgresStore({ pool, tablePrefix, ...gate });
    const channelId = `c_${randomId()}`;
    await store.putChannel({ id: channelId, ownerId: 'u1', archived: false });
    const { url } = await createWebhookManager({ store, baseUrl: 'https://chat.example.com' }).create(
      { userId: 'u1', role: 'member' },
      { channelId, name: 'CI' },
    );
    const handle = createWebhookHandler({ store, rateLimiter: createMemoryRateLimiter({ limit: 1_000_000 }) });
    const post = (path: string) => handle({ method: 'POST', url: path, headers: { 'content-type': 'application/json' }, body: '{"text":"hi"}' });
    const secret = new URL(url).pathname.split('/').pop()!;
    let mostWaiting = 0;
    const sampler = setInterval(() => (mostWaiting = Math.max(mostWaiting, pool.waitingCount)), 2);
    const floodStatuses = new Map<number, number>();
    const flooding = Promise.all(
      Array.from({ length: flood }, async () => {
        const { status } = await post(`/hooks/channels/wh_${randomId()}/${secret}`);
        floodStatuses.set(status, (floodStatuses.get(status) ?? 0) + 1);
      }),
    );
    const latencies: number[] = [];
    const legitStatuses = new Map<number, number>();
    for (let i = 0; i < legit; i++) {
      const started = performance.now();
      const { status } = await post(new URL(url).pathname);
      latencies.push(performance.now() - started);
      legitStatuses.set(status, (legitStatuses.get(status) ?? 0) + 1);
    }
    await flooding;
    clearInterval(sampler);
    latencies.sort((a, b) => a - b);
    const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!);
    return { p50: at(0.5), p99: at(0.99), mostWaiting, flood: Object.fromEntries(floodStatuses), legit: Object.fromEntries(legitStatuses) };
  };

  it('keeps the pool queue bounded; unknown ids get 404 or a fast 500, never anything that tells them apart', async () => {
    const bounded = await run({ maxConcurrentLookups: 2, maxQueuedLookups: 8 }, 1_000, 20);
    // Two lookups at most hold connections, so the pool never has more than the posts' inserts waiting.
    expect(bounded.mostWaiting).toBeLessThanOrEqual(4);
    expect(Object.keys(bounded.flood).sort()).toEqual(expect.arrayContaining(['404']));
    for (const status of Object.keys(bounded.flood)) expect(['404', '500']).toContain(status);
    for (const status of Object.keys(bounded.legit)) expect(['201', '500']).toContain(status);
  });
});

describe('the lookup deadline', () => {
  it('covers the wait for a slot: a lookup queued past timeoutMs rejects with store_timeout and never queries', async () => {
    const { pool, seen } = slowPool(300);
    const store = createPostgresStore({ pool, timeoutMs: 100, maxConcurrentLookups: 1, maxQueuedLookups: 4 });
    const first = store.getWebhook('wh_first').catch((error: unknown) => error);
    const started = Date.now();
    const queued = await store.getWebhook('wh_queued').catch((error: unknown) => error);
    expect(queued).toMatchObject({ name: 'ChannelWebhookError', code: 'store_timeout' });
    expect(Date.now() - started).toBeLessThan(250);
    expect(await first).toMatchObject({ code: 'store_timeout' });
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(seen.queries).toBe(1);
  });
});
