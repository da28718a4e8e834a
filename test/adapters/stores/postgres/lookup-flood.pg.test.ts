import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPostgresStore,
  type PostgresQuery,
  type PostgresStoreOptions,
} from '../../../../adapters/stores/postgres/index.js';
import { createMemoryRateLimiter, createWebhookHandler, createWebhookManager } from '../../../../src/index.js';
import { makeMessage, makeWebhook, randomHex, randomId } from '../../../../src/testing/fixtures.js';
import { backends } from '../../../support/backends.js';

const { databaseUrl, title } = backends();
const tablePrefix = 'cwtest_lookup_flood_';

/** A pool that answers every query after `ms` and records how many ran at once. */
function slowPool(ms: number) {
  const seen = { running: 0, most: 0, queries: 0, order: [] as unknown[] };
  const pool = {
    async query(query: PostgresQuery) {
      seen.queries++;
      seen.order.push(query.values?.[0]);
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

describe('the lane of proven credentials', () => {
  it('serves a credential the store issued before every waiting lookup; a wrong secret for its id is refused like an unknown id', async () => {
    const { pool, seen } = slowPool(40);
    const store = createPostgresStore({ pool, maxConcurrentLookups: 1, maxQueuedLookups: 2 });
    const webhook = makeWebhook('c1', Date.UTC(2026, 0, 1));
    await store.insertWebhook(webhook);
    seen.order.length = 0;
    const strangers = ['wh_a', 'wh_b', 'wh_c'].map((id) => store.getWebhook(id, randomHex()));
    const refused = [
      store.getWebhook('wh_d', randomHex()),
      store.getWebhook(webhook.id, randomHex()),
      store.getWebhook(webhook.id),
    ];
    const proven = store.getWebhook(webhook.id, webhook.secretHash);
    for (const lookup of refused) await expect(lookup).rejects.toMatchObject({ code: 'store_failed' });
    await Promise.all([...strangers, proven]);
    expect(seen.order).toEqual(['wh_a', webhook.id, 'wh_b', 'wh_c']);
  });

  it('a credential is proven by a stored message or a rotation, and forgotten by a revocation or a refused insert', async () => {
    const webhook = makeWebhook('c1', Date.UTC(2026, 0, 1));
    let insertAnswer: Record<string, boolean | null> = { inserted: true, earlier: null, active: true, archived: false };
    // Answers each statement after 30 ms: the guarded insert with `insertAnswer`, a rotation or
    // revocation with the webhook, a lookup with nothing.
    const pool = {
      async query(query: PostgresQuery) {
        await new Promise((resolve) => setTimeout(resolve, 30));
        if (query.text.includes('WITH w AS')) return { rows: [{ fields: JSON.stringify(insertAnswer) }] };
        return { rows: query.text.startsWith('UPDATE') ? [{ fields: JSON.stringify(webhook) }] : [] };
      },
    };
    const store = createPostgresStore({ pool, maxConcurrentLookups: 1, maxQueuedLookups: 1 });
    const insert = (secretHash: string) =>
      store.insertMessage({
        message: makeMessage(webhook, Date.UTC(2026, 0, 1, 1)),
        idempotencyKey: null,
        secretHash,
        postedAt: Date.UTC(2026, 0, 1, 1),
      });
    // With the one slot taken and the open lane's one place too, only a lookup in the proven lane waits.
    const servedWhileBusy = async (secretHash: string) => {
      const strangers = [
        store.getWebhook(`wh_${randomId()}`, randomHex()),
        store.getWebhook(`wh_${randomId()}`, randomHex()),
      ];
      const served = await store.getWebhook(webhook.id, secretHash).then(
        () => true,
        () => false,
      );
      await Promise.all(strangers);
      return served;
    };
    expect(await servedWhileBusy(webhook.secretHash)).toBe(false);
    await insert(webhook.secretHash);
    expect(await servedWhileBusy(webhook.secretHash)).toBe(true);
    insertAnswer = { inserted: null, earlier: null, active: false, archived: null };
    await insert(webhook.secretHash);
    expect(await servedWhileBusy(webhook.secretHash)).toBe(false);

    const rotated = randomHex();
    await store.updateWebhookSecret(webhook.id, rotated, Date.UTC(2026, 0, 2));
    expect(await servedWhileBusy(rotated)).toBe(true);
    expect(await servedWhileBusy(webhook.secretHash)).toBe(false);
    await store.revokeWebhook(webhook.id, Date.UTC(2026, 0, 3));
    expect(await servedWhileBusy(rotated)).toBe(false);
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
  const run = async (
    gate: Pick<PostgresStoreOptions, 'maxConcurrentLookups' | 'maxQueuedLookups'>,
    flood: number,
    legit: number,
  ) => {
    const store = createPostgresStore({ pool, tablePrefix, ...gate });
    const channelId = `c_${randomId()}`;
    await store.putChannel({ id: channelId, ownerId: 'u1', archived: false });
    const { url } = await createWebhookManager({ store, baseUrl: 'https://chat.example.com' }).create(
      { userId: 'u1', role: 'member' },
      { channelId, name: 'CI' },
    );
    const handle = createWebhookHandler({ store, rateLimiter: createMemoryRateLimiter({ limit: 1_000_000 }) });
    const post = (path: string) =>
      handle({ method: 'POST', url: path, headers: { 'content-type': 'application/json' }, body: '{"text":"hi"}' });
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
    return {
      p50: at(0.5),
      p99: at(0.99),
      mostWaiting,
      flood: Object.fromEntries(floodStatuses),
      legit: Object.fromEntries(legitStatuses),
    };
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

describe.skipIf(databaseUrl === null)(title('real senders on PostgreSQL', 'postgres'), () => {
  const FLOOD_CONNECTIONS = 150;
  const FLOOD_MS = 4_000;
  const SENDER_EVERY_MS = 300;
  let pool: pg.Pool;

  beforeAll(async () => {
    // node-postgres's default pool size, and the store's default gate (8 running, 64 waiting).
    pool = new pg.Pool({ connectionString: databaseUrl!, max: 10 });
    await createPostgresStore({ pool, tablePrefix }).migrate();
  });
  afterAll(async () => {
    await pool?.end();
  });

  it('a sender keeps at least 90 % of its posts answered 201 during a flood of made-up ids, while the flood and a wrong secret only ever get 404 or 500', async () => {
    const store = createPostgresStore({ pool, tablePrefix });
    const channelId = `c_${randomId()}`;
    await store.putChannel({ id: channelId, ownerId: 'u1', archived: false });
    const { url, webhook } = await createWebhookManager({ store, baseUrl: 'https://chat.example.com' }).create(
      { userId: 'u1', role: 'member' },
      { channelId, name: 'CI' },
    );
    const handle = createWebhookHandler({ store, rateLimiter: createMemoryRateLimiter({ limit: 1_000_000 }) });
    const post = async (path: string, tally: Map<number, number>) => {
      const { status } = await handle({
        method: 'POST',
        url: path,
        headers: { 'content-type': 'application/json' },
        body: '{"text":"hi"}',
      });
      tally.set(status, (tally.get(status) ?? 0) + 1);
    };
    const until = Date.now() + FLOOD_MS;
    const flood = new Map<number, number>();
    // Each connection posts again as soon as it is answered; yielding to the event loop in between
    // is what a socket does, and lets the sender's timers run.
    const flooding = Array.from({ length: FLOOD_CONNECTIONS }, async () => {
      while (Date.now() < until) {
        await post(`/hooks/channels/wh_${randomId()}/${randomId(43)}`, flood);
        await new Promise((resolve) => setImmediate(resolve));
      }
    });
    const paced = async (path: string, tally: Map<number, number>) => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      while (Date.now() < until - SENDER_EVERY_MS) {
        const next = Date.now() + SENDER_EVERY_MS;
        await post(path, tally);
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - Date.now())));
      }
    };
    const sender = new Map<number, number>();
    const guesser = new Map<number, number>();
    await Promise.all([
      ...flooding,
      paced(new URL(url).pathname, sender),
      paced(`/hooks/channels/${webhook.id}/${randomId(43)}`, guesser),
    ]);

    const sent = [...sender.values()].reduce((sum, count) => sum + count, 0);
    expect(sent).toBeGreaterThanOrEqual(8);
    expect(
      sender.get(201) ?? 0,
      JSON.stringify({ sender: Object.fromEntries(sender), flood: Object.fromEntries(flood) }),
    ).toBeGreaterThanOrEqual(0.9 * sent);
    expect((flood.get(404) ?? 0) + (flood.get(500) ?? 0)).toBe(
      [...flood.values()].reduce((sum, count) => sum + count, 0),
    );
    expect([...guesser.keys()].every((status) => status === 404 || status === 500)).toBe(true);
  });

  it('a proven credential stores nothing once another instance rotated or revoked it, and the new secret works at once', async () => {
    const issuing = createPostgresStore({ pool, tablePrefix });
    const posting = createPostgresStore({ pool, tablePrefix });
    const channelId = `c_${randomId()}`;
    await issuing.putChannel({ id: channelId, ownerId: 'u1', archived: false });
    const manager = createWebhookManager({ store: issuing, baseUrl: 'https://chat.example.com' });
    const actor = { userId: 'u1', role: 'member' as const };
    const { url, webhook } = await manager.create(actor, { channelId, name: 'CI' });
    const handle = createWebhookHandler({ store: posting, rateLimiter: createMemoryRateLimiter({ limit: 1_000 }) });
    const post = async (postUrl: string, text: string) =>
      (
        await handle({
          method: 'POST',
          url: new URL(postUrl).pathname,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ text }),
        })
      ).status;

    expect(await post(url, 'proves the credential on this instance')).toBe(201);
    const { url: rotatedUrl } = await manager.rotate(actor, webhook.id);
    expect(await post(url, 'old secret after the rotation')).toBe(404);
    expect(await post(rotatedUrl, 'new secret')).toBe(201);
    await manager.revoke(actor, webhook.id);
    expect(await post(rotatedUrl, 'after the revocation')).toBe(404);
    expect((await posting.listMessages(channelId)).map((message) => message.body)).toEqual([
      'proves the credential on this instance',
      'new secret',
    ]);
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
