import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStore, type PostgresStore } from '../../../../adapters/stores/postgres/index.js';
import {
  createFakeClock,
  createMemoryRateLimiter,
  createWebhookHandler,
  createWebhookManager,
  POST_HISTORY_LIMIT,
  type PostRecord,
} from '../../../../src/index.js';
import { backends } from '../../../support/backends.js';
import { settle } from '../../../support/setup.js';

// The history of every webhook of an instance goes to PostgreSQL in shared batches: what one
// sender puts in its own records (a property name its 400 repeats as a pointer) must never cost
// another webhook its records.

const { databaseUrl, title } = backends();
const prefix = 'cwtest_post_history_';
const OWNER = { userId: 'u-owner', role: 'owner' } as const;

describe.skipIf(databaseUrl === null)(title('PostgreSQL post history: one batch, many senders', 'postgres'), () => {
  let pool: pg.Pool;
  let store: PostgresStore;

  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: databaseUrl!, max: 4 });
    store = createPostgresStore({ pool, tablePrefix: prefix });
    await store.migrate();
  });
  afterAll(async () => {
    await pool?.end();
  });

  /** A victim's and an attacker's webhook in one channel, and a handler whose recorder hands its records to `handed`. */
  async function world() {
    const clock = createFakeClock();
    const channelId = `c-${randomUUID()}`;
    await store.putChannel({ id: channelId, ownerId: OWNER.userId, archived: false });
    const manager = createWebhookManager({ store, baseUrl: 'https://chat.example.com', clock });
    const victim = await manager.create(OWNER, { channelId, name: 'Deploys' });
    const attacker = await manager.create(OWNER, { channelId, name: 'Hostile' });
    const handed: PostRecord[] = [];
    const handle = createWebhookHandler({
      store: { ...store, recordPosts: (records) => void handed.push(...records) },
      rateLimiter: createMemoryRateLimiter(),
      clock,
    });
    const post = (url: string, raw: string) =>
      handle({ method: 'POST', url, headers: { 'content-type': 'application/json' }, body: raw });
    return { clock, victim, attacker, handed, post };
  }

  it("an attacker's 400 whose pointers hold U+0000 and a lone surrogate is kept exactly, and a victim's six 201s of the same batch with it", async () => {
    const { clock, victim, attacker, handed, post } = await world();
    for (let i = 0; i < 6; i++) {
      expect((await post(victim.url, JSON.stringify({ text: `deploy #${i}` }))).status).toBe(201);
      clock.advance(10);
    }
    const hostile = [String.raw`{"text":"x","\u0000":1}`, String.raw`{"text":"x","\ud800":1}`];
    const refusals = [];
    for (const raw of hostile) refusals.push(await post(attacker.url, raw));
    expect(refusals.map((answer) => [answer.status, (answer.body as { errors: unknown }).errors])).toEqual([
      [400, [{ pointer: '/\u0000', message: 'is not an allowed property' }]],
      [400, [{ pointer: '/\uD800', message: 'is not an allowed property' }]],
    ]);
    await settle();
    expect(handed).toHaveLength(8);

    // The records of both webhooks in one batch, as the recorder hands them over.
    await store.recordPosts(handed);

    const victims = handed.filter((record) => record.webhookId === victim.webhook.id);
    expect(victims.map((record) => record.status)).toEqual([201, 201, 201, 201, 201, 201]);
    expect(await store.listPosts(victim.webhook.id, POST_HISTORY_LIMIT)).toEqual(victims.reverse());
    const kept = await store.listPosts(attacker.webhook.id, POST_HISTORY_LIMIT);
    expect(kept).toEqual(handed.filter((record) => record.webhookId === attacker.webhook.id).reverse());
    expect(kept.map((record) => record.errors[0]!.pointer)).toEqual(['/\uD800', '/\u0000']);
  });

  it('a record PostgreSQL refuses fails alone: the rest of its batch is written again one by one, in order, and the failure is reported once', async () => {
    const { victim } = await world();
    const webhookId = victim.webhook.id;
    const record = (at: number, fields: Partial<PostRecord> = {}): PostRecord => ({
      webhookId,
      at,
      status: 201,
      code: null,
      errors: [],
      idempotencyKey: `deploy-${at}`,
      messageId: randomUUID(),
      bodyBytes: 20,
      count: 1,
      ...fields,
    });
    const before = [1, 2, 3].map((at) => record(at));
    const after = [5, 6, 7].map((at) => record(at));
    // A webhook id holding U+0000: no id the library makes, but one PostgreSQL text refuses.
    const refused = record(4, { webhookId: `${webhookId}\u0000` });

    const failure = await store.recordPosts([...before, refused, ...after]).then(
      () => null,
      (error: unknown) => error,
    );

    expect(failure).toMatchObject({
      code: 'store_failed',
      message: 'PostgreSQL store: recordPosts failed for 1 of 7 records, each written alone; the others are kept',
      cause: { code: 'store_failed', cause: { code: '22021' } },
    });
    expect(await store.listPosts(webhookId, POST_HISTORY_LIMIT)).toEqual([...before, ...after].reverse());
  });
});
